import { InvalidInputError } from '../errors.js'
import { SCALAR_7 } from '../fixed/constants.js'

/** The modifiers move 0.5 % (0.005 with 7 decimals) per block. */
export const AUCTION_STEP = 50_000n
/** Blocks over which the lot ramps up from 0 % to 100 % (and, after it, the bid ramps down). */
export const AUCTION_RAMP_BLOCKS = 200

export type AuctionModifiersReturnType = {
  /** Share of the bid the filler pays, 7 decimals. */
  bid: bigint
  /** Share of the lot the filler receives, 7 decimals. */
  lot: bigint
}

/**
 * Blend v2's block modifiers for an auction `blockDelta` ledgers after it started:
 * `d <= 200`: lot `d * 0.5 %`, bid 100 %; `200 < d < 400`: lot 100 %, bid `100 % - (d - 200) * 0.5 %`;
 * `d >= 400`: lot 100 %, bid 0. Exact (no rounding): every step is a whole multiple.
 *
 * @example
 * import { auctionModifiers } from './index.js'
 * auctionModifiers(100) // { bid: 10_000_000n, lot: 5_000_000n }
 * auctionModifiers(300) // { bid: 5_000_000n, lot: 10_000_000n }
 */
export function auctionModifiers(blockDelta: number): AuctionModifiersReturnType {
  if (!Number.isSafeInteger(blockDelta) || blockDelta < 0)
    throw new InvalidInputError('blockDelta must be a non-negative integer.', `blockDelta = ${blockDelta}`)
  const d = BigInt(blockDelta)
  if (blockDelta <= AUCTION_RAMP_BLOCKS) return { bid: SCALAR_7, lot: d * AUCTION_STEP }
  if (blockDelta < 2 * AUCTION_RAMP_BLOCKS) return { bid: SCALAR_7 - (d - 200n) * AUCTION_STEP, lot: SCALAR_7 }
  return { bid: 0n, lot: SCALAR_7 }
}
