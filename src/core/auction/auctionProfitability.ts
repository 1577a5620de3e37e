import { SCALAR_7 } from '../fixed/constants.js'
import { divRound } from '../fixed/divRound.js'
import { auctionValue, type AuctionQuotes } from './auctionValue.js'
import { scaleAuction } from './scaleAuction.js'
import type { AuctionData } from './types.js'

export type AuctionProfitabilityParameters = {
  /** The unscaled auction as stored by the pool. */
  auction: AuctionData
  /** Ledger sequence of the fill. */
  block: number
  /** Fill percent 1..100. */
  percent: number
  /** Quotes for every lot asset (bTokens: pass `rate` = b_rate). */
  lotQuotes: AuctionQuotes
  /** Quotes for every bid asset (dTokens: pass `rate` = d_rate). */
  bidQuotes: AuctionQuotes
}

export type AuctionProfitabilityReturnType = {
  /** Value received, oracle base currency, rounded down. */
  lotValue: bigint
  /** Value paid, oracle base currency, rounded up. */
  bidCost: bigint
  /** `floor(lotValue * 1e7 / bidCost)` (7 decimals); `null` when the bid costs nothing. */
  ratio: bigint | null
}

/**
 * Profitability of filling `percent` of an auction at `block`: the scaled lot's value over the
 * scaled bid's cost, from oracle prices. The ratio rounds down (7 decimals), so comparing it with
 * a minimum never accepts a fill that is not profitable enough.
 *
 * @example
 * import { auctionProfitability } from './index.js'
 * const auction = { bid: { USDC: 100_0000000n }, lot: { XLM: 1000_0000000n }, block: 0 }
 * auctionProfitability({
 *   auction, block: 100, percent: 100,
 *   lotQuotes: { XLM: { price: 2500000n, decimals: 7 } },
 *   bidQuotes: { USDC: { price: 10000000n, decimals: 7 } },
 * }) // { lotValue: 125_0000000n, bidCost: 100_0000000n, ratio: 12_500_000n }
 */
export function auctionProfitability(parameters: AuctionProfitabilityParameters): AuctionProfitabilityReturnType {
  const { filled } = scaleAuction(parameters)
  const lotValue = auctionValue(filled.lot, parameters.lotQuotes, 'floor')
  const bidCost = auctionValue(filled.bid, parameters.bidQuotes, 'ceil')
  const ratio = bidCost === 0n ? null : divRound(lotValue * SCALAR_7, bidCost, 'floor')
  return { lotValue, bidCost, ratio }
}
