import { InvalidInputError } from '../errors.js'
import { FEE_BUMP_MULTIPLIER } from './types.js'

export interface FeeBumpBidParameters {
  /**
   * The queued transaction's inclusion fee, all operations together: its fee less a Soroban
   * transaction's declared resource fee (stroops).
   */
  queuedInclusionFee: number | bigint
  /** Operations of the queued transaction (the fee bump counts one more). */
  operations: number
  /** What the strategy bids now (stroops per operation); the bump bids at least that. */
  freshBid: number
  /** MAX_FEE (stroops per operation). */
  maxFee: number
}

/**
 * The inclusion fee per operation of a fee bump that replaces a queued transaction, or null when
 * that would exceed `maxFee`.
 *
 * stellar-core (TransactionQueue `canReplaceByFee`) takes the fee bump only when
 * `newFee * oldOps >= FEE_MULTIPLIER * oldFee * newOps` on inclusion fees, where the fee bump
 * counts the inner operations + 1 and bids `bid * (ops + 1)` in all. The answer is the smallest
 * `bid` that passes, and at least `freshBid`: `max(ceil(10 * queuedInclusionFee / ops), freshBid)`.
 *
 * Errors `InvalidInput`: a negative queued fee, `operations` < 1, a bid or cap that is not a
 * non-negative integer.
 *
 * @example
 * import { feeBumpBid } from './index.js'
 * feeBumpBid({ queuedInclusionFee: 1000, operations: 1, freshBid: 1000, maxFee: 10_000_000 }) // 10_000
 * feeBumpBid({ queuedInclusionFee: 2_000_000, operations: 1, freshBid: 100, maxFee: 10_000_000 }) // null
 */
export function feeBumpBid(p: FeeBumpBidParameters): number | null {
  const queued = BigInt(p.queuedInclusionFee)
  if (queued < 0n) throw new InvalidInputError('queuedInclusionFee must be >= 0.', `queuedInclusionFee = ${queued}`)
  if (!Number.isSafeInteger(p.operations) || p.operations < 1) throw new InvalidInputError('operations must be an integer >= 1.', `operations = ${p.operations}`)
  for (const [k, v] of [['freshBid', p.freshBid], ['maxFee', p.maxFee]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new InvalidInputError(`${k} must be an integer >= 0.`, `${k} = ${v}`)
  }
  const oldOps = BigInt(p.operations)
  const newOps = oldOps + 1n
  // Smallest bid with bid * newOps * oldOps >= FEE_MULTIPLIER * queued * newOps.
  const minTotal = BigInt(FEE_BUMP_MULTIPLIER) * queued * newOps
  const per = newOps * oldOps
  const need = (minTotal + per - 1n) / per
  const bid = need > BigInt(p.freshBid) ? need : BigInt(p.freshBid)
  return bid > BigInt(p.maxFee) ? null : Number(bid)
}
