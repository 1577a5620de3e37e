/**
 * Runs a sweep's jobs on worker processes: `child_process.fork` of worker.ts with tsx as the
 * loader (the repository runs TypeScript from source), one job per worker at a time, as many
 * workers as asked. Each run goes to its own directory and only its summary comes back, so
 * the parent's memory does not grow with the sweep; a worker is replaced after `runsPerWorker` runs
 * (default 50) so neither does a worker's. A run that fails — it throws, or its worker
 * dies mid-run (a crash, the OOM killer, kill -9) — runs once more, on a fresh worker when the
 * old one died; if it fails again it is recorded as failed (error.json: seed, parameters, the
 * error, the worker's last output, both attempts) and the sweep goes on.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { LoadedScenario } from '../scenario/load.js'
import type { SweepJob } from './grid.js'
import { RUNNER_ENV, type RunJobMessage, type WorkerMessage } from './protocol.js'
import { identityOf, readRunRecord, runDir, writeRunError, type RunAttempt, type RunErrorFile, type RunSummaryFile } from './runFiles.js'

/** How long after a worker's exit its output may still be arriving. */
const DRAIN_MS = 2000

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))

/** tsx's loader, resolved from here so workers start from any working directory. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
}

export type JobResult = { job: SweepJob; ok: true; file: RunSummaryFile; seconds: number } | { job: SweepJob; ok: false; file: RunErrorFile; seconds: number }

export interface PoolOptions {
  jobs: readonly SweepJob[]
  /** The loaded scenario of each grid point, by point index. */
  loaded: readonly LoadedScenario[]
  outDir: string
  workers: number
  /** A module exporting `runScenario` to use instead of sim/src/run.ts (absolute path). */
  runner?: string
  /** Every run also records its determinism trace (trace.jsonl). */
  trace?: boolean
  /** Runs per job before it counts as failed (default 2: a failure is retried once). */
  attempts?: number
  /**
   * Runs a worker process does before it is replaced by a fresh one (default 50). Every run
   * deploys new contracts, and caches keyed by contract address in the SDK and the adapters
   * grow with them; a bounded life keeps a long sweep's memory flat whatever any module keeps.
   */
  runsPerWorker?: number
  /** Called as each job finishes, in completion order. */
  onResult?: (r: JobResult) => void
  /** Called when a failed attempt is about to be retried. */
  onRetry?: (failed: Extract<JobResult, { ok: false }>, attempt: number) => void
}

/** Keeps the last `max` characters a worker wrote (stdout and stderr) for a crash report. */
class OutputTail {
  private text = ''
  constructor(private readonly max: number) {}
  push = (chunk: Buffer | string): void => {
    this.text = (this.text + chunk.toString()).slice(-this.max)
  }
  clear(): void {
    this.text = ''
  }
  toString(): string {
    return this.text
  }
}

type Outcome = { kind: 'message'; msg: WorkerMessage } | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }

/** One worker process and the job it is running. */
class Worker {
  readonly tail = new OutputTail(8192)
  private readonly child: ChildProcess
  private exited: Outcome | undefined
  private waiting: ((o: Outcome) => void) | undefined
  /** Called once the process has exited. */
  private readonly onEnd: (() => void)[] = []

  constructor(runner: string | undefined) {
    const env = { ...process.env }
    if (runner !== undefined) env[RUNNER_ENV] = runner
    this.child = fork(WORKER, [], {
      execArgv: ['--import', tsxLoader()],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
      env,
    })
    const drained = [this.child.stdout, this.child.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (stream === null) return resolve()
          stream.on('data', this.tail.push)
          stream.on('close', resolve)
        }),
    )
    this.child.on('message', (msg: WorkerMessage) => this.settle({ kind: 'message', msg }))
    // Not 'close': it never comes after the parent disconnects the IPC channel (as close() does).
    // The exit counts once the output is drained, so a crash report has the worker's last words;
    // at most DRAIN_MS later, in case a leftover grandchild still holds the pipes open.
    this.child.on('exit', (code, signal) => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))
      void Promise.race([Promise.all(drained), late]).then(() => {
        clearTimeout(timer)
        this.end({ kind: 'exit', code, signal })
      })
    })
    this.child.on('error', (err) => {
      this.tail.push(`\n${err.message}\n`)
      if (this.child.pid === undefined) this.end({ kind: 'exit', code: null, signal: null })
      else if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL')
    })
  }

  private end(o: Extract<Outcome, { kind: 'exit' }>): void {
    if (this.exited) return
    this.exited = o
    this.settle(o)
    for (const f of this.onEnd.splice(0)) f()
  }

  private settle(o: Outcome): void {
    const w = this.waiting
    this.waiting = undefined
    w?.(o)
  }

  /** The process has exited (between jobs too: then it is replaced before the next one). */
  get gone(): boolean {
    return this.exited !== undefined
  }

  /** Sends a job; resolves with the worker's answer, or with its exit if it died first. */
  run(msg: RunJobMessage): Promise<Outcome> {
    if (this.exited) return Promise.resolve(this.exited)
    this.tail.clear()
    return new Promise<Outcome>((resolve) => {
      this.waiting = resolve
      this.child.send(msg, (err) => {
        if (err) this.tail.push(`\ncould not send the job: ${err.message}\n`)
      })
    })
  }

  /** Lets an idle worker exit (it exits when the channel closes) and waits for it. */
  async close(): Promise<void> {
    if (this.exited) return
    const gone = new Promise<void>((resolve) => this.onEnd.push(resolve))
    if (this.child.connected) this.child.disconnect()
    await gone
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `the worker process was killed by ${signal}` : `the worker process exited with code ${String(code)}`
}

/**
 * Runs every job; resolves when all have finished or failed. Returns the failures (their
 * error.json contents); finished runs are only on disk and reported through `onResult`.
 */
export async function runPool(o: PoolOptions): Promise<RunErrorFile[]> {
  if (o.runner !== undefined && !existsSync(o.runner)) throw new Error(`runner module ${o.runner} does not exist`)
  const failed: RunErrorFile[] = []
  const attempts = o.attempts ?? 2
  const runsPerWorker = o.runsPerWorker ?? 50
  if (!Number.isSafeInteger(runsPerWorker) || runsPerWorker < 1) throw new Error(`runsPerWorker must be an integer >= 1, got ${runsPerWorker}`)
  if (!Number.isSafeInteger(attempts) || attempts < 1) throw new Error(`attempts must be an integer >= 1, got ${attempts}`)
  let next = 0
  const take = (): SweepJob | undefined => o.jobs[next++]

  const loop = async (): Promise<void> => {
    let worker: Worker | undefined
    /** Runs started on `worker`. */
    let runs = 0
    try {
      for (let job = take(); job !== undefined; job = take()) {
        const dir = runDir(o.outDir, job.key)
        let result: JobResult | undefined
        const earlier: RunAttempt[] = []
        for (let attempt = 1; attempt <= attempts; attempt++) {
          if (worker?.gone) worker = undefined
          if (worker !== undefined && runs >= runsPerWorker) {
            await worker.close()
            worker = undefined
          }
          if (worker === undefined) {
            worker = new Worker(o.runner)
            runs = 0
          }
          runs++
          const t0 = Date.now()
          const out = await worker.run({ type: 'run', job, loaded: o.loaded[job.point.index]!, runDir: dir, ...(o.trace === true ? { trace: true } : {}) })
          const seconds = (Date.now() - t0) / 1000
          if (out.kind === 'message') {
            result = out.msg.type === 'done' ? { job, ok: true, file: out.msg.file, seconds } : { job, ok: false, file: out.msg.file, seconds }
          } else {
            result = await crashed(job, dir, worker, out, seconds)
            worker = undefined
          }
          if (result.ok) break
          if (attempt < attempts) {
            earlier.push({ kind: result.file.kind, message: result.file.message })
            o.onRetry?.(result, attempt)
          } else if (earlier.length > 0) {
            // The last attempt's error.json, with what the earlier attempts died of.
            result = { ...result, file: { ...result.file, attempts: attempt, earlier } }
            await writeRunError(dir, result.file)
          }
        }
        if (!result!.ok) failed.push(result!.file)
        o.onResult?.(result!)
      }
    } finally {
      await worker?.close()
    }
  }

  const count = Math.max(1, Math.min(o.workers, o.jobs.length))
  await Promise.all(Array.from({ length: count }, loop))
  return failed
}

/** A worker died during `job`: keep a summary it managed to write, else record the crash. */
async function crashed(job: SweepJob, dir: string, worker: Worker, out: Extract<Outcome, { kind: 'exit' }>, seconds: number): Promise<JobResult> {
  const record = await readRunRecord(dir)
  if (record?.ok) return { job, ok: true, file: record.file, seconds }
  const output = worker.tail.toString().trim()
  const file: RunErrorFile = { ...identityOf(job), kind: 'crash', message: describeExit(out.code, out.signal), ...(output !== '' ? { output } : {}) }
  await writeRunError(dir, file)
  return { job, ok: false, file, seconds }
}
