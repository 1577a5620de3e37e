import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../chain/index.js'
import type { ProtocolAdapter, Result, Task, VaultClient } from './types.js'

/**
 * The stages a piece of work moves through in the execution engine:
 *
 * planned → due → drawn → filled → swapped → returned, or lost (another keeper filled first) /
 * abandoned (no longer worth doing, expired, or failed). `planned` waits for its target ledger;
 * `due` waits for capital (one outstanding draw per keeper, idle capital, max draw).
 */
export type Stage = 'planned' | 'due' | 'drawn' | 'filled' | 'swapped' | 'returned' | 'lost' | 'abandoned'

/**
 * The step boundaries an adapter reports while it fires. A crash right after `drawn`, `filled`
 * or `swapped` is what stale-draw recovery must finish; `returned` closes the books.
 */
export type StepBoundary = 'drawn' | 'filled' | 'swapped' | 'returned'

/** A planned execution: what to do, at which ledger, with how much capital. */
export interface ExecutionPlan<P = unknown> {
  /** Identity of the work (one plan per key at a time), e.g. `user_liquidation:G...`. */
  key: string
  /** The ledger the fill should land in (the auction's first profitable ledger). */
  targetLedger: number
  /** The last ledger at which the work is still worth trying; later it is abandoned. */
  expiresAtLedger?: number
  /** USDC the execution draws from the vault (7 decimals); 0 for work that needs none. */
  capital: bigint
  /** 0–10, higher first when several plans are due together. */
  priority: number
  /**
   * USDC (7 decimals) the fill is expected to earn at its target, when the adapter knows it:
   * among due plans of one priority, the more profitable gets capital first.
   */
  expectedProfit?: bigint
  label?: string
  /**
   * `atomic`: draw, fill, swap and return in one transaction (sent once the ledger before the
   * target has closed). `two-step`: the draw lands in the ledger before the target, the fill in
   * the target, then swap and return.
   */
  path: 'atomic' | 'two-step'
  /** The adapter's own payload; the engine never looks inside it. */
  data: P
}

/** How far a planned auction has ripened, for the progress line and the API. */
export interface PlanProgress {
  /** Blocks since the auction started (the Dutch curve's offset). */
  offset: number
  /** Lot value / bid cost of a fill landing in the next ledger (7 decimals), null when the bid is free. */
  ratio: bigint | null
  /** MIN_PROFIT (7 decimals). */
  minProfit: bigint
  /**
   * Percent of the auction's lot still open (a tenth at most off, rounded down), against the
   * auction as this keeper first saw it; absent when the adapter does not tell.
   */
  leftPercent?: number
}

/** What the engine hands an adapter when a plan is due. */
export interface FireContext {
  vault: VaultClient
  /**
   * Marks a step boundary as passed. The engine records it (and, with a crash point configured
   * for fault-injection tests, ends the process right there).
   */
  step(boundary: StepBoundary, info?: { ledger?: number; txHash?: string }): Promise<void>
  /** Resolves once a transaction sent now lands in `ledger` or later (ledger - 1 has closed). */
  waitUntilSendable(ledger: number): Promise<void>
  /**
   * The response time to report for a fill confirmed in `fillLedger`: the close time of that
   * ledger minus the close time of the planned fill ledger (0 for a fill on time).
   */
  responseTimeMs(fillLedger: number): Promise<number>
  /**
   * Present only in a dry run (DRY_RUN=true): the adapter reports here the fill it is about to
   * send, valued afresh. Every transaction it then sends is simulated and refused before it
   * leaves the process; the engine books this report as what the keeper would have filled.
   */
  wouldFill?(fill: WouldFill): void
}

/** A fill a dry run would have sent (FireContext.wouldFill). */
export interface WouldFill {
  /** The ledger the fill would land in. */
  ledger: number
  /** USDC the fill would draw (7 decimals). */
  drew: bigint
  /** Expected gross profit in USDC (7 decimals), when the adapter can tell. */
  expectedProfit?: bigint | undefined
  /** Percent of the auction the fill takes, when it is an auction. */
  percent?: number | undefined
  /** What is filled, in the adapter's words (e.g. the auction: `G...:<start ledger>`). */
  target?: string | undefined
}

/**
 * A plan, or the reason there is nothing to plan: `skip` in words and, optionally, the typed
 * error behind it (e.g. `ErrAlreadyFilled` when the auction is gone), which the engine names in
 * the log and the event stream.
 */
export type PlanOutcome<P> = ExecutionPlan<P> | { skip: string; error?: Error }

/** What firing did: a final result, or a new target ledger (prices moved; try later). */
export type FireOutcome = Result | { replan: number }

/**
 * An adapter that the execution engine schedules: `plan` prepares the work without drawing (it
 * may open the auction) and says when it should land; `fire` does it when the target ledger is
 * near. Adapters that implement only `execute` are run as one-shot work, off the poll loop.
 */
export interface StagedAdapter<D = unknown, P = unknown> extends ProtocolAdapter<D> {
  /** Identity of a task; equal keys are the same work (a rescan does not plan it twice). */
  taskKey(task: Task<D>): string
  plan(rpc: Chain, keypair: Keypair, task: Task<D>): Promise<PlanOutcome<P>>
  fire(rpc: Chain, keypair: Keypair, plan: ExecutionPlan<P>, ctx: FireContext): Promise<FireOutcome>
  /** How ripe the plan is at `ledger` (pure; from what the plan holds). */
  progress?(plan: ExecutionPlan<P>, ledger: number): PlanProgress | undefined
  /**
   * Whether an input the plan was made from has changed since (the work itself, prices, the
   * venues its sale depends on), asked on every rescan of a planned task: the engine then plans
   * it again, as a plan made from scratch at this ledger would be. Without it a plan stands until
   * it is due, and `fire` re-checks it then.
   */
  stale?(rpc: Chain, plan: ExecutionPlan<P>, task: Task<D>): Promise<boolean> | boolean
}

export function isStaged(a: ProtocolAdapter<any>): a is StagedAdapter<any, any> {
  const s = a as Partial<StagedAdapter>
  return typeof s.plan === 'function' && typeof s.fire === 'function' && typeof s.taskKey === 'function'
}

export function isReplan(o: FireOutcome): o is { replan: number } {
  return typeof (o as { replan?: unknown }).replan === 'number'
}

export function isSkip<P>(o: PlanOutcome<P>): o is { skip: string; error?: Error } {
  return typeof (o as { skip?: unknown }).skip === 'string'
}
