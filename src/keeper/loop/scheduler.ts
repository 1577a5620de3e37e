import type { AdapterLogger } from '../sdk/index.js'
import type { CycleReport } from './types.js'

export interface PollLoopParameters {
  intervalMs: number
  runCycle: (signal: AbortSignal) => Promise<CycleReport>
  /** Called after each cycle (metrics, state). */
  onCycle?: (report: CycleReport, overran: boolean) => void
  logger: AdapterLogger
}

/**
 * Runs a cycle every `intervalMs`, measured start to start. Cycles never overlap: a cycle that
 * overruns the interval is counted and the next one starts right after it (once), instead of
 * piling up missed ticks.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | undefined
  private current: Promise<void> | undefined
  private readonly abort = new AbortController()
  private stopped = false
  cycles = 0
  overruns = 0

  constructor(private readonly p: PollLoopParameters) {}

  start(): void {
    this.schedule(0)
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.current = this.tick().finally(() => {
        this.current = undefined
      })
    }, delayMs)
  }

  private async tick(): Promise<void> {
    const started = Date.now()
    let report: CycleReport | undefined
    try {
      report = await this.p.runCycle(this.abort.signal)
    } catch (err) {
      // runCycle isolates its own failures; this is a last line of defence.
      this.p.logger.error({ err: String(err) }, 'cycle crashed')
    }
    const elapsed = Date.now() - started
    const overran = elapsed > this.p.intervalMs
    this.cycles++
    if (overran) {
      this.overruns++
      this.p.logger.warn({ elapsedMs: elapsed, intervalMs: this.p.intervalMs }, 'cycle overran the poll interval')
    }
    if (report) this.p.onCycle?.(report, overran)
    this.schedule(Math.max(0, this.p.intervalMs - elapsed))
  }

  /**
   * Stops scheduling and asks the running cycle to stop before its next task. Waits for it up to
   * `graceMs`; returns false when it had to abandon a cycle still running.
   */
  async stop(graceMs = 30_000): Promise<boolean> {
    this.stopped = true
    this.abort.abort()
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    const running = this.current
    if (!running) return true
    let timeout: NodeJS.Timeout | undefined
    const finished = await Promise.race([
      running.then(() => true),
      new Promise<boolean>((r) => {
        timeout = setTimeout(() => r(false), graceMs)
      }),
    ])
    if (timeout) clearTimeout(timeout)
    return finished
  }
}
