import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { SCALAR_7 } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'
import { auctionModifiers } from './auctionModifiers.js'
import type { AuctionData } from './types.js'

export type ScaleAuctionParameters = {
  /** The unscaled auction as stored by the pool. */
  auction: AuctionData
  /** Ledger sequence at which the fill executes. */
  block: number
  /** Fill percent, an integer 1..100 (the `amount` of a fill request). */
  percent: number
}

export type ScaleAuctionReturnType = {
  /** What the filler pays (bid) and receives (lot) at `block`. Zero entries are left out. */
  filled: AuctionData
  /** What stays stored for later fills, unscaled; `null` when nothing remains (the pool deletes it). */
  remaining: AuctionData | null
}

/**
 * Scales a Blend v2 auction for a fill of `percent` at ledger `block`, in the pool's order of
 * operations: first split each amount by the fill percent, then apply the block modifier.
 * Bid amounts round up and lot amounts round down at both steps, so the filler never pays less
 * nor receives more than the curve allows; the remaining auction gets the exact complement of
 * the split.
 *
 * Errors: `InvalidInput` when `percent` is not an integer in 1..100 (the pool's BadRequest) or
 * when `block` precedes the auction's start block.
 *
 * @example
 * import { scaleAuction } from './index.js'
 * const auction = { bid: { USDC: 25_0000005n }, lot: { XLM: 25_0000005n }, block: 1000 }
 * scaleAuction({ auction, block: 1100, percent: 60 }).filled
 * // { bid: { USDC: 15_0000003n }, lot: { XLM: 7_5000001n }, block: 1000 }
 */
export function scaleAuction(parameters: ScaleAuctionParameters): ScaleAuctionReturnType {
  const { auction, block, percent } = parameters
  if (!Number.isInteger(percent) || percent < 1 || percent > 100)
    throw new InvalidInputError('Fill percent must be an integer in 1..100.', `percent = ${percent}`)
  if (!Number.isSafeInteger(block) || block < auction.block)
    throw new InvalidInputError('Fill block precedes the auction start.', `block = ${block}, auction.block = ${auction.block}`)

  const modifiers = auctionModifiers(block - auction.block)
  const percentScaled = BigInt(percent) * 100_000n // percent -> 7 decimals

  const filled: { bid: Record<string, bigint>; lot: Record<string, bigint> } = { bid: {}, lot: {} }
  const remaining: { bid: Record<string, bigint>; lot: Record<string, bigint> } = { bid: {}, lot: {} }

  for (const [asset, amount] of Object.entries(auction.bid)) {
    assertI128(amount, `bid ${asset}`)
    // ceil: the filler pays at least its share of the bid.
    const base = mulDiv(amount, percentScaled, SCALAR_7, 'ceil')
    if (amount - base > 0n) remaining.bid[asset] = amount - base
    const scaled = mulDiv(base, modifiers.bid, SCALAR_7, 'ceil')
    if (scaled > 0n) filled.bid[asset] = scaled
  }
  for (const [asset, amount] of Object.entries(auction.lot)) {
    assertI128(amount, `lot ${asset}`)
    // floor: the filler receives at most its share of the lot.
    const base = mulDiv(amount, percentScaled, SCALAR_7, 'floor')
    if (amount - base > 0n) remaining.lot[asset] = amount - base
    const scaled = mulDiv(base, modifiers.lot, SCALAR_7, 'floor')
    if (scaled > 0n) filled.lot[asset] = scaled
  }

  const empty = Object.keys(remaining.bid).length === 0 && Object.keys(remaining.lot).length === 0
  return {
    filled: { ...filled, block: auction.block },
    remaining: empty ? null : { ...remaining, block: auction.block },
  }
}
