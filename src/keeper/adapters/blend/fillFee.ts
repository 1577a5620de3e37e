/**
 * What a Blend fill bids for inclusion: the keeper's fee strategy (`AdapterContext.fillFee`) fed
 * with the fill's expected profit in USDC and the pool oracle's price of XLM in USDC.
 */
import { Asset } from '@stellar/stellar-sdk'
import type { Chain } from '../../../chain/index.js'
import { valueInAsset } from '../../../core/index.js'
import type { FillFeeInput, FillSubmitOptions } from '../../sdk/index.js'
import type { FillPlan } from './auctionPlan.js'
import type { Reserve } from './loadPool.js'
import { loadOraclePrices, type PriceData } from './oracle.js'

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
  /**
   * Reads XLM's price from the pool's oracle (its base currency, the prices' decimals) when the
   * pool has no XLM reserve; called only when the strategy needs the price.
   */
  readXlmPrice?: (() => Promise<bigint | undefined>) | undefined
}

/**
 * The fee inputs of a fill: expected profit = what the pools are expected to pay for the lot less
 * the draw (a plan valued at executable prices), else the lot's oracle value less the bid's, in
 * USDC at the oracle's USDC price; the XLM price = the oracle's XLM price in USDC: the pool's XLM
 * reserve's (the native asset's contract), else a lazy read of the oracle (`readXlmPrice`), made
 * only when the strategy needs it. Either is undefined when it cannot be known.
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
  const inUsdc = (xlm: bigint | undefined) => (xlm !== undefined && xlm > 0n && usdcQuote !== undefined ? valueInAsset(xlm, usdcQuote, 'floor') : undefined)
  const reserve = v.prices.get(Asset.native().contractId(v.networkPassphrase))?.price
  const read = v.readXlmPrice
  if (reserve !== undefined || read === undefined || usdcQuote === undefined) return { expectedProfit, xlmPrice: inUsdc(reserve) }
  return { expectedProfit, xlmPrice: async () => inUsdc(await read()) }
}

/** XLM's price from the pool's oracle (SEP-40 `lastprice` of the native asset's contract); undefined when it has none. */
export async function oracleXlmPrice(chain: Chain, oracle: string): Promise<bigint | undefined> {
  const xlm = Asset.native().contractId(chain.networkPassphrase)
  try {
    return (await loadOraclePrices(chain, oracle, [xlm])).prices.get(xlm)?.price
  } catch {
    return undefined
  }
}

/** The submission options of a fill under the strategy; `{}` (the chain's defaults) without one. */
export async function fillSubmitOptions(fillFee: FillFee, v: FillFeeValuation): Promise<FillSubmitOptions> {
  return fillFee === undefined ? {} : fillFee(fillFeeInput(v))
}
