/**
 * What keeps a keeper from re-sending a failing fill ledger after ledger: per auction, the
 * failed attempts so far, the ledger before which it is not tried again, and the largest percent
 * the next attempt may take.
 *
 * - Each failure doubles the wait: the next attempt is planned no earlier than 1, 2, 4, ...
 *   ledgers after the failed one, plus 0 to JITTER_LEDGERS more drawn from the keeper's salt
 *   (its address), the auction and the count, so keepers that failed together (two sales
 *   into one pool in one ledger) do not come back together; the same keeper always waits the
 *   same.
 * - A failure on the sale's price (the router's minimum output, or proceeds below the draw)
 *   halves the percent the next plan may take: the same size would meet the same pool.
 * - After `budget` failures the auction waits for its free-lot phase (`freeFrom`, block 400 of
 *   a Blend auction: the bid costs nothing, so a fill that sells for anything at all pays), with
 *   a fresh budget; after `budget` more failures there it is left to others for good (a
 *   different auction of the same user starts a new count).
 * - A landed fill clears the record.
 * - A failure on the sale's price also marks the pools it sold into as contested (another
 *   keeper's sale got there first, or the price ran): plans selling into a contested pool, for
 *   any auction, wait 1, 2, 4, ... ledgers (plus the jitter) after each such failure, at most
 *   POOL_WAIT_CAP; a sale of this keeper's that lands there clears it.
 */
import { ChainError, ContractError } from '../../../chain/index.js'
import { ExecutorErrorCode } from '../../clients/executor.js'
import { ROUTER_INSUFFICIENT_OUTPUT } from '../../dex/routerVenue.js'

/** Why a fill failed, as the metrics and the re-plan group it. */
export type FailureReason = 'slippage' | 'lost_race' | 'other'

export interface FailureRecord {
  failures: number
  /** Whether the budget was spent once already and the auction waits for, or is in, its free-lot phase. */
  secondRound: boolean
  /** First ledger the next fill may land in. */
  notBefore: number
  /** Largest percent the next fill may take. */
  maxPercent: number
  last: FailureReason
}

export const DEFAULT_FAILURE_BUDGET = 3

/** The longest wait for a contested pool, ledgers. */
export const POOL_WAIT_CAP = 64

/** The most ledgers the jitter adds to a wait. */
export const JITTER_LEDGERS = 2

/** 0..JITTER_LEDGERS from `text` (32-bit FNV-1a): spread, not secret. */
export function jitter(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h % (JITTER_LEDGERS + 1)
}

export class FailureBudget {
  private readonly records = new Map<string, FailureRecord>()
  /** Per pool (the lot asset sold into it): failed sales in a row and the first ledger to sell there again. */
  private readonly pools = new Map<string, { failures: number; notBefore: number }>()

  /** `salt`: what sets this keeper's waits apart from other keepers' (its address); '' adds no jitter. */
  constructor(
    private readonly budget = DEFAULT_FAILURE_BUDGET,
    private readonly salt = '',
  ) {
    if (!Number.isInteger(budget) || budget < 1) throw new RangeError(`failure budget ${budget} must be an integer >= 1`)
  }

  /**
   * A fill of `percent` for `auction` failed at `ledger` (the latest closed ledger); `freeFrom`
   * is the first ledger of the auction's free-lot phase.
   */
  record(auction: string, ledger: number, reason: FailureReason, percent: number, freeFrom: number): FailureRecord {
    const before = this.records.get(auction)
    const failures = (before?.failures ?? 0) + 1
    const cap = before?.maxPercent ?? 100
    let rec: FailureRecord = {
      failures,
      secondRound: before?.secondRound ?? false,
      notBefore: ledger + 2 ** (failures - 1) + 1 + (this.salt === '' ? 0 : jitter(`${this.salt}:${auction}:${failures}`)),
      maxPercent: reason === 'slippage' ? Math.max(1, Math.min(cap, Math.floor(percent / 2))) : cap,
      last: reason,
    }
    if (failures >= this.budget && !rec.secondRound) {
      // Spent before the lot is free: wait for the free-lot phase, with a fresh budget and size.
      rec = { failures: 0, secondRound: true, notBefore: Math.max(rec.notBefore, freeFrom), maxPercent: 100, last: reason }
    }
    this.records.set(auction, rec)
    return rec
  }

  /** The limits for the next plan of `auction`; `spent` when it is out of attempts for good. */
  limits(auction: string): { spent: boolean; notBefore: number; maxPercent: number; failures: number } {
    const rec = this.records.get(auction)
    if (rec === undefined) return { spent: false, notBefore: 0, maxPercent: 100, failures: 0 }
    return { spent: rec.secondRound && rec.failures >= this.budget, notBefore: rec.notBefore, maxPercent: rec.maxPercent, failures: rec.failures }
  }

  /** A sale of `asset` failed on its price at `ledger`: its pool is contested. Returns the first ledger to sell there again. */
  contested(asset: string, ledger: number): number {
    const failures = (this.pools.get(asset)?.failures ?? 0) + 1
    const wait = Math.min(POOL_WAIT_CAP, 2 ** (failures - 1)) + 1 + (this.salt === '' ? 0 : jitter(`${this.salt}:pool:${asset}:${failures}`))
    const notBefore = ledger + wait
    this.pools.set(asset, { failures, notBefore })
    return notBefore
  }

  /** The first ledger a fill selling `assets` may land in (0 when none of their pools is contested). */
  poolsFrom(assets: Iterable<string>): number {
    let from = 0
    for (const a of assets) from = Math.max(from, this.pools.get(a)?.notBefore ?? 0)
    return from
  }

  /** A sale of `asset` landed: its pool is no longer contested for this keeper. */
  sold(asset: string): void {
    this.pools.delete(asset)
  }

  /** A fill landed: what is left of the auction starts afresh. */
  clear(auction: string): void {
    this.records.delete(auction)
  }

  /** Forgets auctions that are no longer open (`open` = keys still live). */
  retain(open: ReadonlySet<string>): void {
    for (const k of this.records.keys()) if (!open.has(k)) this.records.delete(k)
  }
}

/** Contract errors that mean the sale would pay too little: the router's minimum output, the executor's proceeds checks. */
const SLIPPAGE_CODES = new Set([ROUTER_INSUFFICIENT_OUTPUT, ExecutorErrorCode.ProceedsBelowDraw, ExecutorErrorCode.ProceedsBelowMinimum])

/** A fill's failure as a Result's `failedTransaction`: why, and what the ledger charged for it (0 when refused in simulation). */
export function failedTransaction(err: unknown, lost: boolean): { reason: FailureReason; feeCharged: bigint } {
  const feeCharged = err instanceof ChainError ? (err.feeCharged ?? 0n) : 0n
  if (lost) return { reason: 'lost_race', feeCharged }
  if (err instanceof ContractError && SLIPPAGE_CODES.has(err.code)) return { reason: 'slippage', feeCharged }
  return { reason: 'other', feeCharged }
}
