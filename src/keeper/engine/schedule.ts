/**
 * Scheduling of due work: orders what is due and starts the fires that capital allows. One
 * outstanding draw per keeper (the vault's rule): a two-step draw excludes every other draw, atomic
 * draws may share; never more than the idle capital or the per-keeper draw cap, and a two-step
 * draw never above the registry's bond limit for the keeper (a flash draw is not bound by it).
 */
import type { AdapterLogger } from '../sdk/index.js'
import { errMessage, type Entry, type ExecutionBook } from './book.js'

/** The vault's limits on a draw, read when something is due. */
export interface CapitalLimits {
  /** total_usdc - active_liq */
  idle: bigint
  /** max_draw_per_keeper */
  maxDraw: bigint
  /**
   * The registry's bond limit on a new two-step draw of this keeper (its `draw_limit`);
   * undefined when unknown (the registry decides).
   */
  bondLimit?: bigint | undefined
}

/** The draw an entry holds while it fires. */
export interface Held {
  exclusive: boolean
  shared: boolean
}

export interface SchedulerParameters {
  book: ExecutionBook
  /** Reads the vault's idle capital and draw cap. */
  limits: () => Promise<CapitalLimits>
  logger: AdapterLogger
  /** True once the engine stopped: nothing more is scheduled. */
  stopped: () => boolean
  /** Starts firing an entry (not awaited). */
  fire: (e: Entry) => void
}

export class Scheduler {
  private exclusive = false
  private shared = 0
  private running: Promise<void> | undefined
  private again = false

  constructor(private readonly p: SchedulerParameters) {}

  /** The pass in progress, if any. */
  get pumping(): Promise<void> | undefined {
    return this.running
  }

  /**
   * Runs `f` holding the draw lock (stale-draw recovery: no fire may draw or return meanwhile).
   * Returns undefined without running it when a fire holds a draw (it settles its own).
   */
  async whileNoDraw<T>(f: () => Promise<T>): Promise<T | undefined> {
    if (this.exclusive || this.shared > 0) return undefined
    this.exclusive = true
    try {
      return await f()
    } finally {
      this.exclusive = false
      this.pump()
    }
  }

  /** The draw a fire of `e` holds (taken when it was started). */
  heldBy(e: Entry): Held {
    return { exclusive: e.plan.capital > 0n && e.plan.path === 'two-step', shared: e.plan.capital > 0n && e.plan.path === 'atomic' }
  }

  /** A fire ended: gives its draw back and schedules again. */
  release(held: Held): void {
    if (held.exclusive) this.exclusive = false
    if (held.shared) this.shared--
    this.pump()
  }

  /** Fires what is due, as capital allows. Calls made while it runs make it run once more. */
  pump(): void {
    if (this.p.stopped()) return
    if (this.running !== undefined) {
      this.again = true
      return
    }
    this.running = (async () => {
      do {
        this.again = false
        await this.pumpOnce()
      } while (this.again && !this.p.stopped())
    })()
      .catch((err) => this.p.logger.error({ err: errMessage(err) }, 'scheduling failed'))
      .finally(() => {
        this.running = undefined
        // A call that arrived after the loop's last check must not be lost.
        if (this.again) this.pump()
      })
  }

  private async pumpOnce(): Promise<void> {
    const due = this.p.book.due()
    if (due.length === 0) return
    let limits: CapitalLimits | undefined
    if (due.some((e) => e.plan.capital > 0n)) {
      try {
        limits = await this.p.limits()
      } catch (err) {
        this.p.logger.warn({ err: errMessage(err) }, 'vault limits unreadable; due work waits a ledger')
        return
      }
    }
    let idle = limits?.idle ?? 0n
    for (const e of due) {
      const needs = e.plan.capital
      if (needs > 0n && limits !== undefined) {
        if (needs > limits.maxDraw) {
          this.p.book.finish(e, 'abandoned', `needs ${needs} USDC stroops, more than the vault's max draw per keeper (${limits.maxDraw})`)
          continue
        }
        if (e.plan.path === 'two-step' && limits.bondLimit !== undefined && needs > limits.bondLimit) {
          const note = `needs a two-step draw of ${needs} USDC stroops, above the registry's bond limit for this keeper (draw_limit ${limits.bondLimit}): skipped; add bond to raise it`
          this.p.logger.warn({ adapter: e.adapterName, key: e.plan.key, capital: needs.toString(), drawLimit: limits.bondLimit.toString() }, 'two-step draw above the bond limit: execution skipped')
          this.p.book.finish(e, 'abandoned', note)
          continue
        }
        // One outstanding draw per keeper: a two-step draw excludes everything else that draws.
        if (this.exclusive || (e.plan.path === 'two-step' && this.shared > 0)) continue
        if (needs > idle) {
          e.note = `waiting for idle capital: needs ${needs}, ${idle} idle`
          continue
        }
        idle -= needs
        if (e.plan.path === 'two-step') this.exclusive = true
        else this.shared++
      }
      e.note = null
      e.firing = true
      this.p.fire(e)
    }
  }
}
