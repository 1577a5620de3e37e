/**
 * The engine's book: the executions it holds (planned, due, firing), the keys being planned, and
 * the recently finished ones with the totals per final stage. Nothing here sends anything.
 */
import type { ExecutionPlan, PlanProgress, ProtocolAdapter, Result, Stage, Task } from '../sdk/index.js'
import { leadLedgers, orderDue } from './order.js'

/** One execution as the API and the simulation harness see it. */
export interface ExecutionView {
  key: string
  adapter: string
  /** The lending pool of the execution (the adapter's `pool()`); null for work outside one. */
  pool: string | null
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

export interface Entry {
  seq: number
  adapter: ProtocolAdapter<any>
  adapterName: string
  /** The adapter's lending pool, when it works on one. */
  pool?: string | undefined
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
  /**
   * Set when `fire` moved the target later: the plan's inputs are those it was first made from,
   * not those of its new target, so the next rescan plans it again rather than compare them.
   */
  moved: boolean
  /** Set once the entry reached its final stage (the adapter's `returned` step is not final). */
  done: boolean
  /** The target ledger of the entry's first plan (re-plans move `plan.targetLedger`). */
  firstTarget: number
}

/** What a new entry is made from; the book fills in the rest. */
export type NewEntry = Omit<Entry, 'seq' | 'stage' | 'plannedAt' | 'history' | 'progress' | 'note' | 'result' | 'error' | 'firing' | 'moved' | 'done' | 'firstTarget'>

/** How the log and the event stream name an error: its class name, its code when it has one. */
export function errorTag(err: Error | undefined | null): { name: string; code?: string | number; message: string } | undefined {
  if (err === undefined || err === null) return undefined
  const code = (err as { code?: unknown }).code
  return { name: err.name, ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}), message: err.message }
}

export const errMessage = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** Whether a plan is due at `ledger` (its fire must start now to land on its target). */
export function isDueAt(plan: Pick<ExecutionPlan, 'targetLedger' | 'path'>, ledger: number): boolean {
  return ledger >= plan.targetLedger - leadLedgers(plan.path)
}

export interface BookOptions {
  /** Finished executions kept for the API (default 100). */
  keepFinished?: number | undefined
  emit: (kind: string, message: string, data?: Record<string, unknown>) => void
}

export class ExecutionBook {
  /** Executions held, by key: planned, due or firing. */
  readonly active = new Map<string, Entry>()
  /** Keys whose plan is being made. */
  readonly planning = new Set<string>()
  /** Last skip note per key, so a rescan does not repeat it in the event stream. */
  readonly skipped = new Map<string, string>()
  private readonly finished: Entry[] = []
  private readonly finishedTotals = { returned: 0, lost: 0, abandoned: 0 }
  private seq = 0
  /** The latest ledger seen. */
  latest = 0

  constructor(private readonly o: BookOptions) {}

  /** Whether `key` is held or being planned. */
  knows(key: string): boolean {
    return this.active.has(key) || this.planning.has(key)
  }

  add(e: NewEntry): Entry {
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
      moved: false,
      done: false,
      firstTarget: e.plan.targetLedger,
    }
    this.active.set(e.plan.key, entry)
    if (isDueAt(entry.plan, this.latest)) this.move(entry, 'due')
    return entry
  }

  move(e: Entry, stage: Stage, ledger = this.latest): void {
    e.stage = stage
    e.history.push({ stage, ledger })
  }

  /** Due entries not yet firing, in the order they get capital. */
  due(): Entry[] {
    return orderDue([...this.active.values()].filter((e) => e.stage === 'due' && !e.firing), this.latest)
  }

  finish(e: Entry, stage: Stage, note: string | null): void {
    if (e.done) return
    e.done = true
    // An adapter that reported the `returned` step already has it in the history.
    if (e.stage !== stage) this.move(e, stage)
    e.note = note
    e.firing = false
    this.active.delete(e.plan.key)
    this.finished.push(e)
    if (stage === 'returned' || stage === 'lost' || stage === 'abandoned') this.finishedTotals[stage]++
    const keep = this.o.keepFinished ?? 100
    if (this.finished.length > keep) this.finished.splice(0, this.finished.length - keep)
    if (stage === 'abandoned' && e.result === null) {
      this.o.emit('miss', `${e.adapterName}: ${e.label}: ${note ?? 'abandoned'}`, { adapter: e.adapterName, key: e.plan.key })
    }
  }

  /** Takes a planned execution out of the book without an outcome (its plan no longer stands). */
  drop(e: Entry): void {
    if (this.active.get(e.plan.key) === e) this.active.delete(e.plan.key)
  }

  /** Every execution held, then the recently finished ones (newest last). */
  executions(): ExecutionView[] {
    return [...this.finished, ...this.active.values()].map((e) => view(e))
  }

  /** How many executions have finished in each final stage since start (not capped like the list). */
  finishedCounts(): { returned: number; lost: number; abandoned: number } {
    return { ...this.finishedTotals }
  }
}

export function view(e: Entry): ExecutionView {
  return {
    key: e.plan.key,
    adapter: e.adapterName,
    pool: e.pool ?? null,
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
