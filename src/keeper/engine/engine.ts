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
 * The book of executions is in book.ts, the scheduling of due work in schedule.ts, firing in
 * fire.ts; this class ties them to the ledger clock and the poll loop.
 *
 * Nothing here is persistent: open auctions and outstanding draws are on chain, so a restarted
 * keeper rebuilds its plans from the next scan and stale-draw recovery settles any draw.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { DryRunRefusal, refusesSends, type Chain } from '../../chain/index.js'
import { isSkip, isStaged, type AdapterLogger, type ProtocolAdapter, type Result, type StepBoundary, type Task, type VaultClient } from '../sdk/index.js'
import { errMessage, errorTag, ExecutionBook, isDueAt, type Entry, type ExecutionView } from './book.js'
import { Firer } from './fire.js'
import type { LedgerClock, LedgerInfo } from './ledgerClock.js'
import { Scheduler, type CapitalLimits } from './schedule.js'
import type { ShadowSink } from './shadowFire.js'

export { errorTag, type CapitalLimits, type ExecutionView }

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
  /**
   * Dry run (DRY_RUN=true): a due fill is valued and simulated as it would be live, then booked
   * here as a would-fill; the chain the engine is given must refuse every send (refusingSends).
   */
  dryRun?: ShadowSink | undefined
}

/** The adapter's lending pool, when it names one. */
function poolOf(a: ProtocolAdapter<any>): string | undefined {
  try {
    return a.pool?.()
  } catch {
    return undefined
  }
}

function nameOf(a: ProtocolAdapter<any>): string {
  try {
    return a.name()
  } catch {
    return 'unnamed'
  }
}

export class ExecutionEngine {
  private readonly book: ExecutionBook
  private readonly scheduler: Scheduler
  private readonly firer: Firer
  private readonly inflight = new Set<Promise<unknown>>()
  /** In-flight work parked until a ledger closes (it cannot move before the clock does). */
  private parked = 0
  private wake: (() => void) | undefined
  private unsubscribe: (() => void) | undefined
  private stopped = false

  constructor(private readonly p: EngineParameters) {
    // Skipping the sends is not enough for a dry run: its chain must refuse them all as well.
    if (p.dryRun !== undefined && !refusesSends(p.chain.server)) throw new Error('a dry run needs a chain whose node client refuses every send (refusingSends)')
    this.book = new ExecutionBook({ keepFinished: p.keepFinished, emit: p.emit })
    this.scheduler = new Scheduler({
      book: this.book,
      limits: p.limits,
      logger: p.logger,
      stopped: () => this.stopped,
      fire: (e) => this.track(this.firer.fire(e)),
    })
    this.firer = new Firer({
      ...p,
      book: this.book,
      scheduler: this.scheduler,
      park: () => {
        this.parked++
        this.wake?.()
      },
      unpark: () => {
        this.parked--
      },
    })
  }

  /** Starts following ledger closes. */
  start(): void {
    if (this.unsubscribe !== undefined) return
    this.unsubscribe = this.p.clock.subscribe((l) => this.onLedger(l))
  }

  /** The latest ledger the engine has seen. */
  get ledger(): number {
    return this.book.latest
  }

  /**
   * Tasks found by a scan. New ones are planned in the background (never awaited here); those
   * already planned or in flight are left alone.
   */
  offer(adapter: ProtocolAdapter<any>, tasks: readonly Task<unknown>[]): void {
    if (this.stopped) return
    const name = nameOf(adapter)
    const pool = poolOf(adapter)
    // The same borrower can be in several pools: a pool's plans are keyed apart from the others'.
    const prefix = pool === undefined ? `${name}:` : `${name}:${pool}:`
    for (const [i, task] of tasks.entries()) {
      const key = `${prefix}${isStaged(adapter) ? adapter.taskKey(task) : (task.label ?? String(i))}`
      if (this.book.knows(key)) {
        if (isStaged(adapter) && adapter.stale !== undefined) this.refreshIfStale(adapter, name, key, task)
        continue
      }
      if (isStaged(adapter)) this.track(this.planTask(adapter, name, pool, key, task))
      else {
        this.book.add({
          adapter,
          adapterName: name,
          pool,
          label: task.label ?? key,
          task,
          plan: { key, targetLedger: this.book.latest, capital: adapter.estimateCapital(task), priority: task.priority, path: 'two-step', data: undefined },
        })
        this.scheduler.pump()
      }
    }
  }

  /** A ledger closed: expire, ripen, report progress and fire what is due. */
  onLedger(l: LedgerInfo): void {
    const book = this.book
    if (l.sequence <= book.latest) return
    book.latest = l.sequence
    const every = this.p.progressEvery ?? 20
    for (const e of book.active.values()) {
      if (e.stage !== 'planned') continue
      if (e.plan.expiresAtLedger !== undefined && l.sequence >= e.plan.expiresAtLedger) {
        book.finish(e, 'abandoned', `auction expired at ledger ${e.plan.expiresAtLedger} before it could be filled`)
        continue
      }
      this.updateProgress(e, l.sequence)
      if (isDueAt(e.plan, l.sequence)) book.move(e, 'due')
      else if (every > 0 && e.progress && (l.sequence - e.plannedAt) % every === 0) this.emitProgress(e)
    }
    this.scheduler.pump()
  }

  /**
   * Runs `f` holding the draw lock (stale-draw recovery: no fire may draw or return meanwhile).
   * Returns undefined without running it when a fire holds a draw (it settles its own).
   */
  whileNoDraw<T>(f: () => Promise<T>): Promise<T | undefined> {
    return this.scheduler.whileNoDraw(f)
  }

  /** Every execution the engine holds, then the recently finished ones (newest last). */
  executions(): ExecutionView[] {
    return this.book.executions()
  }

  /** How many executions have finished in each final stage since start (not capped like the list). */
  finishedCounts(): { returned: number; lost: number; abandoned: number } {
    return this.book.finishedCounts()
  }

  /**
   * Resolves when no work can move before the next ledger closes: nothing is being planned or
   * fired except fires parked until a later ledger (the simulation's lockstep, tests).
   */
  async settled(): Promise<void> {
    while (this.inflight.size > this.parked || this.scheduler.pumping !== undefined) {
      const woken = new Promise<void>((r) => (this.wake = r))
      await Promise.race([Promise.allSettled([...this.inflight, this.scheduler.pumping]), woken])
    }
  }

  /** Resolves when every piece of work in flight has finished (parked ones included). */
  async drained(): Promise<void> {
    while (this.inflight.size > 0 || this.scheduler.pumping !== undefined) {
      await Promise.allSettled([...this.inflight, this.scheduler.pumping])
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

  private async planTask(adapter: ProtocolAdapter<any>, name: string, pool: string | undefined, key: string, task: Task<unknown>): Promise<void> {
    if (!isStaged(adapter)) return
    const book = this.book
    book.planning.add(key)
    try {
      const outcome = await adapter.plan(this.p.chain, this.p.keypair, task)
      if (this.stopped) return
      if (isSkip(outcome)) {
        if (book.skipped.get(key) !== outcome.skip) {
          book.skipped.set(key, outcome.skip)
          const error = errorTag(outcome.error)
          this.p.logger.info({ adapter: name, key, reason: outcome.skip, ...(error ? { error: error.name } : {}) }, 'nothing to plan')
          this.p.emit('miss', `${name}: ${task.label ?? key}: ${outcome.skip}`, { adapter: name, key, ...(error ? { error } : {}) })
        }
        return
      }
      book.skipped.delete(key)
      const plan = { ...outcome, key }
      const e = book.add({ adapter, adapterName: name, pool, label: plan.label ?? task.label ?? key, plan })
      this.updateProgress(e, book.latest)
      this.p.logger.info(
        { adapter: name, key, targetLedger: plan.targetLedger, latest: book.latest, capital: plan.capital.toString(), path: plan.path },
        'execution planned',
      )
      this.p.emit('plan', `${name}: ${e.label}: fill planned at ledger ${plan.targetLedger} (${plan.path}), ${Math.max(0, plan.targetLedger - book.latest)} ledger(s) from now`, {
        adapter: name,
        key,
        targetLedger: plan.targetLedger,
        capital: plan.capital.toString(),
        path: plan.path,
      })
      this.scheduler.pump()
    } catch (err) {
      if (err instanceof DryRunRefusal) {
        // A dry run: what planning would have sent (opening the auction) was simulated, not sent.
        const skip = `dry run: would send ${err.call} (simulation passed; not sent)`
        if (book.skipped.get(key) !== skip) {
          book.skipped.set(key, skip)
          this.p.logger.info({ adapter: name, key, reason: skip }, 'nothing to plan')
          this.p.emit('shadow', `${name}: ${task.label ?? key}: ${skip}`, { adapter: name, key })
        }
        return
      }
      this.p.onError?.(name, 'plan', err)
      this.p.logger.error({ adapter: name, key, err: errMessage(err) }, 'planning failed')
      this.p.emit('error', `${name}: ${task.label ?? key}: planning failed: ${errMessage(err)}`, { adapter: name, key })
    } finally {
      book.planning.delete(key)
    }
  }

  /**
   * A planned execution whose inputs changed since it was planned (adapter `stale`) is planned
   * again, so the book holds what a plan made from scratch now would: a fill that became
   * profitable sooner moves earlier, one that no longer pays leaves the book. Due or firing work
   * is left to `fire`, which values it afresh anyway.
   */
  private refreshIfStale(adapter: ProtocolAdapter<any>, name: string, key: string, task: Task<unknown>): void {
    const e = this.book.active.get(key)
    if (e === undefined || e.stage !== 'planned' || e.firing || this.book.planning.has(key)) return
    this.track(this.refresh(adapter, name, key, task, e))
  }

  private async refresh(adapter: ProtocolAdapter<any>, name: string, key: string, task: Task<unknown>, e: Entry): Promise<void> {
    if (!isStaged(adapter) || adapter.stale === undefined) return
    const book = this.book
    const current = () => !this.stopped && book.active.get(key) === e && e.stage === 'planned' && !e.firing
    book.planning.add(key)
    try {
      // A target `fire` moved was valued on newer inputs than the plan holds: plan it afresh.
      if (!e.moved && !(await adapter.stale(this.p.chain, e.plan, task))) return
      if (!current()) return
      const outcome = await adapter.plan(this.p.chain, this.p.keypair, task)
      if (!current()) return
      if (isSkip(outcome)) {
        book.drop(e)
        book.skipped.set(key, outcome.skip)
        const error = errorTag(outcome.error)
        this.p.logger.info({ adapter: name, key, reason: outcome.skip, ...(error ? { error: error.name } : {}) }, 'plan dropped: its inputs changed')
        this.p.emit('miss', `${name}: ${e.label}: inputs changed: ${outcome.skip}`, { adapter: name, key, ...(error ? { error } : {}) })
        return
      }
      const before = e.plan.targetLedger
      e.plan = { ...outcome, key }
      e.moved = false
      this.updateProgress(e, book.latest)
      if (e.plan.targetLedger !== before) {
        this.p.logger.info({ adapter: name, key, from: before, targetLedger: e.plan.targetLedger, latest: book.latest }, 'execution re-planned: its inputs changed')
        this.p.emit('plan', `${name}: ${e.label}: inputs changed, fill re-planned at ledger ${e.plan.targetLedger}`, {
          adapter: name,
          key,
          targetLedger: e.plan.targetLedger,
          capital: e.plan.capital.toString(),
          path: e.plan.path,
        })
      }
      if (isDueAt(e.plan, book.latest)) {
        book.move(e, 'due')
        this.scheduler.pump()
      }
    } catch (err) {
      this.p.onError?.(name, 'plan', err)
      this.p.logger.error({ adapter: name, key, err: errMessage(err) }, 'planning again failed')
    } finally {
      book.planning.delete(key)
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
}
