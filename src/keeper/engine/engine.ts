/**
 * The execution engine: a book of planned work driven by ledger closes, not by waiting.
 *
 * - `offer` (from the poll loop, every scan) starts planning each new task in the background: a
 *   staged adapter opens the auction and finds its first profitable ledger; nothing is drawn.
 * - Every ledger close (`LedgerClock`) marks the plans whose target is near as due, orders them
 *   (priority, then capital) and fires those that capital allows: one outstanding draw per keeper
 *   (the vault's rule), never more than the idle capital or the per-keeper draw cap.
 * - Several plans wait at once; fires run off the poll loop, so scanning never stops.
 *
 * Nothing here is persistent: open auctions and outstanding draws are on chain, so a restarted
 * keeper rebuilds its plans from the next scan and stale-draw recovery settles any draw.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../chain/index.js'
import {
  isReplan,
  isSkip,
  isStaged,
  type AdapterLogger,
  type ExecutionPlan,
  type FireContext,
  type PlanProgress,
  type ProtocolAdapter,
  type Result,
  type Stage,
  type StepBoundary,
  type Task,
  type VaultClient,
} from '../sdk/index.js'
import type { LedgerClock, LedgerInfo } from './ledgerClock.js'
import { leadLedgers, orderDue } from './order.js'

/** The vault's limits on a draw, read when something is due. */
export interface CapitalLimits {
  /** total_usdc - active_liq */
  idle: bigint
  /** max_draw_per_keeper */
  maxDraw: bigint
}

export interface EngineParameters {
  chain: Chain
  keypair: Keypair
  vault: VaultClient
  /** Reads the vault's idle capital and draw cap. */
  limits: () => Promise<CapitalLimits>
  clock: LedgerClock
  logger: AdapterLogger
  /** Event stream (scan, plan, progress, fill, miss, error...). */
  emit: (kind: string, message: string, data?: Record<string, unknown>) => void
  /** Called once per finished execution with its result (dashboard, metrics). */
  onResult?: (execution: ExecutionView, result: Result) => void
  /** Called when an adapter fails (metrics). */
  onError?: (adapter: string, stage: 'plan' | 'fire', err: unknown) => void
  /** Fault injection (tests, simulations): end the process right after this step. */
  crashAt?: StepBoundary | undefined
  /**
   * How to end the process at the crash point (default: SIGKILL to itself, like kill -9). A
   * simulated crash returns a promise that never settles, so the execution stops right there.
   */
  crash?: (boundary: StepBoundary) => void | Promise<void>
  /** A progress event per planned execution every this many ledgers (default 20; 0 = never). */
  progressEvery?: number
  /** Finished executions kept for the API (default 100). */
  keepFinished?: number
}

/** One execution as the API and the simulation harness see it. */
export interface ExecutionView {
  key: string
  adapter: string
  label: string
  stage: Stage
  path: ExecutionPlan['path']
  /** Ledger the plan was made in. */
  plannedAt: number
  targetLedger: number
  expiresAtLedger: number | null
  capital: bigint
  priority: number
  /** Ledger of each stage reached, in order. */
  history: { stage: Stage; ledger: number }[]
  progress: (PlanProgress & { ledger: number }) | null
  note: string | null
  result: Result | null
  /**
   * The typed error that ended the execution: the result's `error` (e.g. `ErrAlreadyFilled` for a
   * lost race) or what the adapter threw; null otherwise.
   */
  error: Error | null
}

/** How the log and the event stream name an error: its class name, its code when it has one. */
export function errorTag(err: Error | undefined | null): { name: string; code?: string | number; message: string } | undefined {
  if (err === undefined || err === null) return undefined
  const code = (err as { code?: unknown }).code
  return { name: err.name, ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}), message: err.message }
}

interface Entry {
  seq: number
  adapter: ProtocolAdapter<any>
  adapterName: string
  label: string
  /** Plain adapters: the task to `execute`. */
  task?: Task<unknown>
  plan: ExecutionPlan<unknown>
  stage: Stage
  plannedAt: number
  history: { stage: Stage; ledger: number }[]
  progress: (PlanProgress & { ledger: number }) | null
  note: string | null
  result: Result | null
  error: Error | null
  firing: boolean
  /** Set once the entry reached its final stage (the adapter's `returned` step is not final). */
  done: boolean
}

const errMessage = (err: unknown) => (err instanceof Error ? err.message : String(err))

function nameOf(a: ProtocolAdapter<any>): string {
  try {
    return a.name()
  } catch {
    return 'unnamed'
  }
}

export class ExecutionEngine {
  private readonly active = new Map<string, Entry>()
  private readonly planning = new Set<string>()
  private readonly finished: Entry[] = []
  private readonly finishedTotals = { returned: 0, lost: 0, abandoned: 0 }
  /** Last skip note per key, so a rescan does not repeat it in the event stream. */
  private readonly skipped = new Map<string, string>()
  private readonly inflight = new Set<Promise<unknown>>()
  /** In-flight work parked until a ledger closes (it cannot move before the clock does). */
  private parked = 0
  private wake: (() => void) | undefined
  private seq = 0
  private latest = 0
  private exclusive = false
  private shared = 0
  private pumping: Promise<void> | undefined
  private pumpAgain = false
  private unsubscribe: (() => void) | undefined
  private stopped = false

  constructor(private readonly p: EngineParameters) {}

  /** Starts following ledger closes. */
  start(): void {
    if (this.unsubscribe !== undefined) return
    this.unsubscribe = this.p.clock.subscribe((l) => this.onLedger(l))
  }

  /** The latest ledger the engine has seen. */
  get ledger(): number {
    return this.latest
  }

  /**
   * Tasks found by a scan. New ones are planned in the background (never awaited here); those
   * already planned or in flight are left alone.
   */
  offer(adapter: ProtocolAdapter<any>, tasks: readonly Task<unknown>[]): void {
    if (this.stopped) return
    const name = nameOf(adapter)
    for (const [i, task] of tasks.entries()) {
      const key = `${name}:${isStaged(adapter) ? adapter.taskKey(task) : (task.label ?? String(i))}`
      if (this.active.has(key) || this.planning.has(key)) continue
      if (isStaged(adapter)) this.track(this.planTask(adapter, name, key, task))
      else {
        this.add({
          adapter,
          adapterName: name,
          label: task.label ?? key,
          task,
          plan: { key, targetLedger: this.latest, capital: adapter.estimateCapital(task), priority: task.priority, path: 'two-step', data: undefined },
        })
        this.pump()
      }
    }
  }

  /** A ledger closed: expire, ripen, report progress and fire what is due. */
  onLedger(l: LedgerInfo): void {
    if (l.sequence <= this.latest) return
    this.latest = l.sequence
    const every = this.p.progressEvery ?? 20
    for (const e of this.active.values()) {
      if (e.stage !== 'planned') continue
      if (e.plan.expiresAtLedger !== undefined && l.sequence >= e.plan.expiresAtLedger) {
        this.finish(e, 'abandoned', `auction expired at ledger ${e.plan.expiresAtLedger} before it could be filled`)
        continue
      }
      this.updateProgress(e, l.sequence)
      if (l.sequence >= e.plan.targetLedger - leadLedgers(e.plan.path)) this.move(e, 'due')
      else if (every > 0 && e.progress && (l.sequence - e.plannedAt) % every === 0) this.emitProgress(e)
    }
    this.pump()
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

  /** Every execution the engine holds, then the recently finished ones (newest last). */
  executions(): ExecutionView[] {
    return [...this.finished, ...this.active.values()].map((e) => this.view(e))
  }

  /** How many executions have finished in each final stage since start (not capped like the list). */
  finishedCounts(): { returned: number; lost: number; abandoned: number } {
    return { ...this.finishedTotals }
  }

  /**
   * Resolves when no work can move before the next ledger closes: nothing is being planned or
   * fired except fires parked until a later ledger (the simulation's lockstep, tests).
   */
  async settled(): Promise<void> {
    while (this.inflight.size > this.parked || this.pumping !== undefined) {
      const woken = new Promise<void>((r) => (this.wake = r))
      await Promise.race([Promise.allSettled([...this.inflight, this.pumping]), woken])
    }
  }

  /** Resolves when every piece of work in flight has finished (parked ones included). */
  async drained(): Promise<void> {
    while (this.inflight.size > 0 || this.pumping !== undefined) {
      await Promise.allSettled([...this.inflight, this.pumping])
    }
  }

  /**
   * Stops following ledgers and planning new work; a fire in progress is allowed to finish (a
   * draw is never abandoned half-way) for up to `graceMs`. Returns false when it had to give up.
   */
  async stop(graceMs = 30_000): Promise<boolean> {
    this.stopped = true
    this.unsubscribe?.()
    this.unsubscribe = undefined
    let timer: NodeJS.Timeout | undefined
    const done = await Promise.race([
      this.drained().then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), graceMs)
      }),
    ])
    if (timer) clearTimeout(timer)
    return done
  }

  private track(pr: Promise<unknown>): void {
    this.inflight.add(pr)
    void pr.finally(() => this.inflight.delete(pr))
  }

  private add(e: Omit<Entry, 'seq' | 'stage' | 'plannedAt' | 'history' | 'progress' | 'note' | 'result' | 'error' | 'firing' | 'done'>): Entry {
    const entry: Entry = {
      ...e,
      seq: this.seq++,
      stage: 'planned',
      plannedAt: this.latest,
      history: [{ stage: 'planned', ledger: this.latest }],
      progress: null,
      note: null,
      result: null,
      error: null,
      firing: false,
      done: false,
    }
    this.active.set(e.plan.key, entry)
    if (this.latest >= entry.plan.targetLedger - leadLedgers(entry.plan.path)) this.move(entry, 'due')
    return entry
  }

  private async planTask(adapter: ProtocolAdapter<any>, name: string, key: string, task: Task<unknown>): Promise<void> {
    if (!isStaged(adapter)) return
    this.planning.add(key)
    try {
      const outcome = await adapter.plan(this.p.chain, this.p.keypair, task)
      if (this.stopped) return
      if (isSkip(outcome)) {
        if (this.skipped.get(key) !== outcome.skip) {
          this.skipped.set(key, outcome.skip)
          const error = errorTag(outcome.error)
          this.p.logger.info({ adapter: name, key, reason: outcome.skip, ...(error ? { error: error.name } : {}) }, 'nothing to plan')
          this.p.emit('miss', `${name}: ${task.label ?? key}: ${outcome.skip}`, { adapter: name, key, ...(error ? { error } : {}) })
        }
        return
      }
      this.skipped.delete(key)
      const plan = { ...outcome, key }
      const e = this.add({ adapter, adapterName: name, label: plan.label ?? task.label ?? key, plan })
      this.updateProgress(e, this.latest)
      this.p.logger.info(
        { adapter: name, key, targetLedger: plan.targetLedger, latest: this.latest, capital: plan.capital.toString(), path: plan.path },
        'execution planned',
      )
      this.p.emit('plan', `${name}: ${e.label}: fill planned at ledger ${plan.targetLedger} (${plan.path}), ${Math.max(0, plan.targetLedger - this.latest)} ledger(s) from now`, {
        adapter: name,
        key,
        targetLedger: plan.targetLedger,
        capital: plan.capital.toString(),
        path: plan.path,
      })
      this.pump()
    } catch (err) {
      this.p.onError?.(name, 'plan', err)
      this.p.logger.error({ adapter: name, key, err: errMessage(err) }, 'planning failed')
      this.p.emit('error', `${name}: ${task.label ?? key}: planning failed: ${errMessage(err)}`, { adapter: name, key })
    } finally {
      this.planning.delete(key)
    }
  }

  private updateProgress(e: Entry, ledger: number): void {
    if (!isStaged(e.adapter) || e.adapter.progress === undefined) return
    try {
      const p = e.adapter.progress(e.plan, ledger)
      e.progress = p === undefined ? null : { ...p, ledger }
    } catch {
      e.progress = null
    }
  }

  private emitProgress(e: Entry): void {
    const p = e.progress
    if (p === null) return
    const ratio = p.ratio === null ? '∞' : (Number(p.ratio) / 1e7).toFixed(4)
    const min = (Number(p.minProfit) / 1e7).toFixed(4)
    const left = Math.max(0, e.plan.targetLedger - p.ledger)
    this.p.emit('progress', `${e.adapterName}: ${e.label}: block ${p.offset}, lot/bid ${ratio} vs MIN_PROFIT ${min}, fill in ${left} ledger(s)`, {
      adapter: e.adapterName,
      key: e.plan.key,
      offset: p.offset,
      ratio: p.ratio?.toString() ?? null,
      minProfit: p.minProfit.toString(),
      targetLedger: e.plan.targetLedger,
      ledger: p.ledger,
    })
  }

  private move(e: Entry, stage: Stage, ledger = this.latest): void {
    e.stage = stage
    e.history.push({ stage, ledger })
  }

  /** Fires what is due, as capital allows. Calls made while it runs make it run once more. */
  private pump(): void {
    if (this.stopped) return
    if (this.pumping !== undefined) {
      this.pumpAgain = true
      return
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false
        await this.pumpOnce()
      } while (this.pumpAgain && !this.stopped)
    })()
      .catch((err) => this.p.logger.error({ err: errMessage(err) }, 'scheduling failed'))
      .finally(() => {
        this.pumping = undefined
        // A call that arrived after the loop's last check must not be lost.
        if (this.pumpAgain) this.pump()
      })
  }

  private async pumpOnce(): Promise<void> {
    const due = orderDue([...this.active.values()].filter((e) => e.stage === 'due' && !e.firing))
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
          this.finish(e, 'abandoned', `needs ${needs} USDC stroops, more than the vault's max draw per keeper (${limits.maxDraw})`)
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
      this.track(this.fire(e))
    }
  }

  private async fire(e: Entry): Promise<void> {
    const holdsExclusive = e.plan.capital > 0n && e.plan.path === 'two-step'
    const holdsShared = e.plan.capital > 0n && e.plan.path === 'atomic'
    try {
      if (!isStaged(e.adapter)) {
        const result = await e.adapter.execute(this.p.chain, this.p.keypair, e.task!, this.p.vault)
        this.finishWith(e, result)
        return
      }
      const outcome = await e.adapter.fire(this.p.chain, this.p.keypair, e.plan, this.context(e))
      if (isReplan(outcome)) {
        e.plan = { ...e.plan, targetLedger: outcome.replan }
        e.firing = false
        this.move(e, this.latest >= outcome.replan - leadLedgers(e.plan.path) ? 'due' : 'planned')
        this.p.emit('plan', `${e.adapterName}: ${e.label}: prices moved, fill re-planned at ledger ${outcome.replan}`, {
          adapter: e.adapterName,
          key: e.plan.key,
          targetLedger: outcome.replan,
        })
        return
      }
      this.finishWith(e, outcome)
    } catch (err) {
      this.p.onError?.(e.adapterName, 'fire', err)
      const drawn = e.stage === 'drawn' || e.stage === 'filled' || e.stage === 'swapped'
      const note = `${errMessage(err)}${drawn ? ' (a draw may be outstanding: stale-draw recovery returns it)' : ''}`
      if (err instanceof Error) e.error = err
      const error = errorTag(e.error)
      this.p.logger.error({ adapter: e.adapterName, key: e.plan.key, stage: e.stage, err: errMessage(err), ...(error ? { error: error.name } : {}) }, 'execution failed')
      this.p.emit('error', `${e.adapterName}: ${e.label}: ${note}`, { adapter: e.adapterName, key: e.plan.key, stage: e.stage, ...(error ? { error } : {}) })
      this.finish(e, 'abandoned', note)
    } finally {
      if (holdsExclusive) this.exclusive = false
      if (holdsShared) this.shared--
      this.pump()
    }
  }

  private context(e: Entry): FireContext {
    return {
      vault: this.p.vault,
      step: async (boundary, info) => {
        this.move(e, boundary, info?.ledger ?? this.latest)
        this.p.logger.info({ adapter: e.adapterName, key: e.plan.key, step: boundary, ledger: info?.ledger, tx: info?.txHash }, `execution ${boundary}`)
        if (this.p.crashAt === boundary) {
          this.p.logger.warn({ step: boundary }, 'fault injection: crashing at this step')
          await (this.p.crash ?? (() => process.kill(process.pid, 'SIGKILL')))(boundary)
        }
      },
      waitUntilSendable: async (ledger) => {
        if (this.latest >= ledger - 1) return
        this.parked++
        this.wake?.()
        try {
          await this.p.clock.waitFor(ledger - 1)
        } finally {
          this.parked--
        }
      },
      responseTimeMs: (fillLedger) => this.responseTime(e.plan.targetLedger, fillLedger),
    }
  }

  /** Close time of the fill's ledger minus that of the planned ledger (ms; 0 when on time). */
  private async responseTime(planned: number, fillLedger: number): Promise<number> {
    if (fillLedger <= planned) return 0
    const [a, b] = await Promise.all([this.p.clock.closeTimeOf(planned), this.p.clock.closeTimeOf(fillLedger)])
    if (a !== undefined && b !== undefined) return Math.max(0, b - a)
    // Not seen (yet): the ledgers late at the interval observed so far (5 s, the network's target, before any).
    return Math.round((fillLedger - planned) * (this.p.clock.intervalMs() ?? 5_000))
  }

  private finishWith(e: Entry, result: Result): void {
    const stage: Stage = result.success === false ? (result.lost ? 'lost' : 'abandoned') : 'returned'
    e.result = result
    e.error = result.error ?? null
    this.p.onResult?.(this.view({ ...e, stage }), result)
    this.finish(e, stage, result.note ?? null)
  }

  private finish(e: Entry, stage: Stage, note: string | null): void {
    if (e.done) return
    e.done = true
    // An adapter that reported the `returned` step already has it in the history.
    if (e.stage !== stage) this.move(e, stage)
    e.note = note
    e.firing = false
    this.active.delete(e.plan.key)
    this.finished.push(e)
    if (stage === 'returned' || stage === 'lost' || stage === 'abandoned') this.finishedTotals[stage]++
    const keep = this.p.keepFinished ?? 100
    if (this.finished.length > keep) this.finished.splice(0, this.finished.length - keep)
    if (stage === 'abandoned' && e.result === null) {
      this.p.emit('miss', `${e.adapterName}: ${e.label}: ${note ?? 'abandoned'}`, { adapter: e.adapterName, key: e.plan.key })
    }
  }

  private view(e: Entry): ExecutionView {
    return {
      key: e.plan.key,
      adapter: e.adapterName,
      label: e.label,
      stage: e.stage,
      path: e.plan.path,
      plannedAt: e.plannedAt,
      targetLedger: e.plan.targetLedger,
      expiresAtLedger: e.plan.expiresAtLedger ?? null,
      capital: e.plan.capital,
      priority: e.plan.priority,
      history: [...e.history],
      progress: e.progress,
      note: e.note,
      result: e.result,
      error: e.error,
    }
  }
}
