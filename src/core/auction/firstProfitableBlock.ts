import { InvalidInputError } from '../errors.js'
import { SCALAR_7 } from '../fixed/constants.js'
import { divRound } from '../fixed/divRound.js'
import { AUCTION_RAMP_BLOCKS } from './auctionModifiers.js'
import { auctionProfitability, type AuctionProfitabilityReturnType } from './auctionProfitability.js'
import type { AuctionQuotes } from './auctionValue.js'
import { meetsMinProfit } from './meetsMinProfit.js'
import type { AuctionData } from './types.js'

export type FirstProfitableBlockParameters = {
  auction: AuctionData
  percent: number
  lotQuotes: AuctionQuotes
  bidQuotes: AuctionQuotes
  /** Minimum lot value / bid cost, 7 decimals (e.g. `10_500_000n` = 1.05). */
  minProfit: bigint
  /** Earliest ledger to consider (e.g. the next ledger); defaults to the auction's start block. */
  fromBlock?: number
}

export type FirstProfitableBlockReturnType =
  | (AuctionProfitabilityReturnType & {
      /** Ledger sequence of the first profitable fill. */
      block: number
      /** Blocks since the auction started. */
      delta: number
    })
  | null

const RAMP = BigInt(AUCTION_RAMP_BLOCKS)
const END = 2 * AUCTION_RAMP_BLOCKS

/**
 * The first ledger at or after `fromBlock` at which filling `percent` of the auction reaches
 * `minProfit`, or `null` if it never does (the lot is worth nothing and `minProfit` > 0).
 *
 * Closed form on the curve: with `L` the full lot value and `B` the full bid cost, the lot phase
 * gives `d = ceil(200 * m * B / (L * 1e7))` and the bid phase `d = 400 - floor(200 * L * 1e7 / (m * B))`.
 * Per-asset rounding can move the exact answer by a few blocks, so the candidate is then
 * corrected against the exact scaled values; profitability is monotone in the block (the lot
 * only grows, the bid only shrinks), so the correction walks toward the exact boundary.
 *
 * @example
 * import { firstProfitableBlock } from './index.js'
 * firstProfitableBlock({
 *   auction: { bid: { USDC: 100_0000000n }, lot: { XLM: 1000_0000000n }, block: 5000 },
 *   percent: 100,
 *   lotQuotes: { XLM: { price: 1_1000000n, decimals: 7 } }, // lot worth 1100 USDC at 100 %
 *   bidQuotes: { USDC: { price: 1_0000000n, decimals: 7 } },
 *   minProfit: 1_0500000n,
 * })?.block // 5020: 1100 * d / 200 >= 105 first at d = 20
 */
export function firstProfitableBlock(parameters: FirstProfitableBlockParameters): FirstProfitableBlockReturnType {
  const { auction, percent, lotQuotes, bidQuotes, minProfit } = parameters
  if (minProfit < 0n) throw new InvalidInputError('minProfit must be >= 0.', `minProfit = ${minProfit}`)
  const fromBlock = parameters.fromBlock ?? auction.block
  if (!Number.isSafeInteger(fromBlock)) throw new InvalidInputError('fromBlock must be an integer.', `fromBlock = ${fromBlock}`)
  const startDelta = Math.max(0, fromBlock - auction.block)

  const at = (delta: number): AuctionProfitabilityReturnType =>
    auctionProfitability({ auction, block: auction.block + delta, percent, lotQuotes, bidQuotes })
  const ok = (delta: number): boolean => {
    const r = at(delta)
    return meetsMinProfit(r.lotValue, r.bidCost, minProfit)
  }
  const result = (delta: number): FirstProfitableBlockReturnType => ({ ...at(delta), block: auction.block + delta, delta })

  // Past 400 blocks nothing changes any more: the answer is there or nowhere.
  if (startDelta >= END) return ok(startDelta) ? result(startDelta) : null

  // Full lot value and full bid cost: the curve's two plateaus at d = 200.
  const full = at(AUCTION_RAMP_BLOCKS)
  const L = full.lotValue
  const B = full.bidCost
  // Nothing to win at any block, unless no profit is asked for (then every block qualifies).
  if (L === 0n && minProfit > 0n) return null

  let candidate: number
  if (minProfit === 0n || B === 0n) candidate = 0
  else if (L * SCALAR_7 >= minProfit * B) {
    // lot phase: L * d / 200 * 1e7 >= m * B
    candidate = Number(divRound(RAMP * minProfit * B, L * SCALAR_7, 'ceil'))
  } else {
    // bid phase: L * 1e7 >= m * B * (400 - d) / 200; at 400 the bid is free
    const slack = divRound(RAMP * L * SCALAR_7, minProfit * B, 'floor')
    candidate = Math.max(AUCTION_RAMP_BLOCKS + 1, END - Number(slack))
  }
  let d = Math.min(Math.max(candidate, startDelta), END)

  // exact correction (monotone predicate)
  while (d > startDelta && ok(d - 1)) d--
  while (d < END && !ok(d)) d++
  return ok(d) ? result(d) : null
}
