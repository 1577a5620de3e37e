/**
 * What a Blend fill bids for inclusion: the keeper's fee strategy (`AdapterContext.fillFee`) fed
 * with the fill's expected profit in USDC and the pool oracle's price of XLM in USDC.
 */
import { Asset } from '@stellar/stellar-sdk'
import { valueInAsset } from '../../../core/index.js'
import type { FillFeeInput, FillSubmitOptions } from '../../sdk/index.js'
import type { FillPlan } from './auctionPlan.js'
import type { Reserve } from './loadPool.js'
import type { PriceData } from './oracle.js'

/** The strategy's options for one fill; what the adapter was built with (undefined: the chain's defaults). */
export type FillFee = ((input: FillFeeInput) => Promise<FillSubmitOptions>) | undefined

export interface FillFeeValuation {
  fill: Pick<FillPlan, 'proceeds' | 'lotValue' | 'bidCost'>
  /** USDC the fill draws (what the vault lends against it). */
  drew: bigint
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  usdc: string
  networkPassphrase: string
}

/**
 * The fee inputs of a fill: expected profit = what the pools are expected to pay for the lot less
 * the draw (a plan valued at executable prices), else the lot's oracle value less the bid's, in
 * USDC at the oracle's USDC price; the XLM price = the oracle's XLM price in USDC, when the pool
 * has an XLM reserve (the native asset's contract). Either is undefined when it cannot be known.
 */
export function fillFeeInput(v: FillFeeValuation): FillFeeInput {
  const usdcPrice = v.prices.get(v.usdc)?.price
  const usdcDecimals = v.reserves.get(v.usdc)?.config.decimals
  const usdcQuote = usdcPrice !== undefined && usdcPrice > 0n && usdcDecimals !== undefined ? { price: usdcPrice, decimals: usdcDecimals } : undefined
  let expectedProfit: bigint | undefined
  if (v.fill.proceeds !== undefined) expectedProfit = v.fill.proceeds - v.drew
  else if (usdcQuote !== undefined) {
    const margin = v.fill.lotValue - v.fill.bidCost
    expectedProfit = margin > 0n ? valueInAsset(margin, usdcQuote, 'floor') : 0n
  }
  const xlmOracle = v.prices.get(Asset.native().contractId(v.networkPassphrase))?.price
  const xlmPrice = xlmOracle !== undefined && xlmOracle > 0n && usdcQuote !== undefined ? valueInAsset(xlmOracle, usdcQuote, 'floor') : undefined
  return { expectedProfit, xlmPrice }
}

/** The submission options of a fill under the strategy; `{}` (the chain's defaults) without one. */
export async function fillSubmitOptions(fillFee: FillFee, v: FillFeeValuation): Promise<FillSubmitOptions> {
  return fillFee === undefined ? {} : fillFee(fillFeeInput(v))
}
