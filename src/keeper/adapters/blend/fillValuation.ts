/**
 * Valuing a user liquidation's fill for the keeper: at the oracle when it knows no venue, else
 * at what its venues pay (core `bestPartialFill` under PROFIT_BASIS), across every route on the
 * atomic path, on the primary router's pair on the two-step path; and a two-step fill sized to
 * the registry's bond limit.
 */
import type { Chain } from '../../../chain/index.js'
import { routesKey, type ConstantProductPool, type SaleCache } from '../../../core/index.js'
import type { SaleVenueRoute } from '../../dex/saleRoutes.js'
import { planFill, planPartialFill, type FillPlan } from './auctionPlan.js'
import type { BlendContext } from './context.js'
import type { Reserve } from './loadPool.js'
import type { PriceData } from './oracle.js'
import type { AuctionData } from './storage.js'
import type { FillOrder } from './plans.js'
import { ledgerMemo } from './ledgerMemo.js'
import { fillRequests, repayAmount } from './requests.js'
import { AuctionType } from './storage.js'

/**
 * The vault books profit only against a draw of the keeper's, so a free lot (the bid has
 * decayed to nothing, block 400 on) is filled with the smallest draw there is: one stroop.
 */
export const FREE_LOT_DRAW = 1n

export function fillOrder(user: string, fill: FillPlan, reserves: ReadonlyMap<string, Reserve>, usdc: string): FillOrder | { refuse: string } {
  const bidAssets = Object.keys(fill.bid)
  if (bidAssets.some((a) => a !== usdc)) return { refuse: 'bid is not payable in USDC' }
  const dRates = Object.fromEntries([...reserves].map(([a, r]) => [a, r.data.d_rate]))
  const bRates = Object.fromEntries([...reserves].map(([a, r]) => [a, r.data.b_rate]))
  const requests = fillRequests({ auctionType: AuctionType.UserLiquidation, user, percent: fill.percent, bid: fill.bid, lot: fill.lot, dRates, bRates })
  const repay = bidAssets.reduce((s, a) => s + repayAmount(fill.bid[a]!, dRates[a]!), 0n)
  return { drew: repay > 0n ? repay : FREE_LOT_DRAW, requests, lotAssets: Object.keys(fill.lot).filter((a) => a !== usdc) }
}

/**
 * The part of SLIPPAGE_BPS kept free when sizing a fill, a quarter of it: the pool may move that
 * much against a sale (an arbitrage trade, another keeper's sale in the same ledger, the price
 * still falling) before the transaction lands, while its minimum output stays at the floor.
 * Under the oracle basis the sale must also cover the bid with that much to spare.
 */
export const saleHeadroomBps = (slippageBps: number): number => Math.floor(slippageBps / 4)

/** What valuing a fill of an auction starts from. */
export interface FillInputs {
  auction: AuctionData
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  fromBlock: number
  /** The latest ledger the pool reads show: this keeper's sales reserved for later ledgers are taken off them. */
  seen?: number
  usdc: string
  /** The failure budget's cap on the percent. */
  maxPercent: number
}

/** The fill valuation of an adapter's context (`valueFill`, `fitBondLimit`). */
export function fillValuation(ctx: BlendContext) {
  // The routes as read at one pool read's ledger (`seen`), shared by every fill valued against it:
  // the venues are read once a ledger, not once per fill, sharing re-valuation and bond fit.
  const routesAt = ledgerMemo<SaleVenueRoute[]>()
  const depthAt = ledgerMemo<ConstantProductPool | undefined>()
  // Sales worked out for the venues as read at one ledger (keyed by their state, so exact).
  let sales: { ledger: number | undefined; cache: SaleCache } = { ledger: undefined, cache: new Map() }
  const saleCache = (seen: number | undefined): SaleCache => {
    if (seen === undefined) return new Map()
    if (sales.ledger !== seen) sales = { ledger: seen, cache: new Map() }
    return sales.cache
  }

  /** Every route selling `asset` for `usdc`, read once per ledger `seen` (every read when unknown). */
  const routesOf = (chain: Chain, asset: string, usdc: string, mids: readonly string[], seen: number | undefined) => {
    const read = () => ctx.saleRoutes!(chain, asset, usdc, mids)
    return seen === undefined ? read() : routesAt(seen, `${asset}>${usdc}:${mids.join(',')}`, read)
  }
  /** The primary router's pool selling `asset` for `usdc`, read once per ledger `seen`. */
  const depthOf = (chain: Chain, asset: string, usdc: string, seen: number | undefined) => {
    const read = () => ctx.saleDepth!(chain, asset, usdc)
    return seen === undefined ? read() : depthAt(seen, `${asset}>${usdc}`, read)
  }

  /**
   * The fill to plan: at executable prices when the sale's router is known, else at the oracle.
   * `bondPercent`: at most this percent of the auction (a two-step draw within the bond limit).
   */
  async function valueFill(chain: Chain, v: FillInputs & { bondPercent?: number }): Promise<FillPlan | null> {
    if (ctx.saleDepth === undefined) {
      return planFill({
        auction: v.auction,
        reserves: v.reserves,
        prices: v.prices,
        minProfit: ctx.minProfit,
        fromBlock: v.fromBlock,
        ...(v.bondPercent === undefined ? {} : { percent: v.bondPercent }),
      })
    }
    const lotAssets = [...v.auction.lot.keys()].filter((a) => a !== v.usdc)
    const maxPercent = v.bondPercent === undefined ? v.maxPercent : Math.min(v.maxPercent, v.bondPercent)
    const common = { ...v, maxPercent, minProfit: ctx.minProfit, slippageBps: ctx.slippageBps, basis: ctx.profitBasis, headroomBps: saleHeadroomBps(ctx.slippageBps) }
    if (ctx.executor !== undefined && ctx.saleRoutes !== undefined) {
      // The atomic path sells across every venue it knows, split where that pays more.
      const mids = [...v.reserves.keys()]
      const routes: Record<string, SaleVenueRoute[]> = {}
      for (const asset of lotAssets) {
        const found = await routesOf(chain, asset, v.usdc, mids, v.seen)
        // As the pools will be once this keeper's own sales for that ledger have run.
        if (found.length > 0) routes[asset] = found.map((r) => ({ ...r, hops: r.hops.map((h) => ctx.sales.adjustHop(v.fromBlock, h, v.seen)) }))
      }
      return planPartialFill({ ...common, pools: {}, routes, saleCache: saleCache(v.seen) })
    }
    const pools: Record<string, ConstantProductPool> = {}
    for (const asset of lotAssets) {
      const depth = await depthOf(chain, asset, v.usdc, v.seen)
      // As the pool will be once this keeper's own sales for that ledger have run.
      if (depth !== undefined) pools[asset] = ctx.sales.adjust(v.fromBlock, asset, depth, v.seen)
    }
    return planPartialFill({ ...common, pools })
  }

  /**
   * The state of the venues a fill of these lot assets is valued on, as read at ledger `seen`
   * (shared with the valuations of that ledger): equal keys, equal sales. Empty when the keeper
   * values at the oracle only.
   */
  async function venueKey(chain: Chain, lotAssets: readonly string[], usdc: string, mids: readonly string[], seen: number): Promise<string> {
    if (ctx.saleDepth === undefined) return ''
    const parts: string[] = []
    for (const asset of lotAssets) {
      if (ctx.executor !== undefined && ctx.saleRoutes !== undefined) {
        const found = await routesOf(chain, asset, usdc, mids, seen)
        parts.push(`${asset}:${found.map((r) => `${r.name}=${routesKey([{ hops: r.hops.map((h) => h.pool) }])}`).join(';')}`)
      } else {
        const depth = await depthOf(chain, asset, usdc, seen)
        parts.push(`${asset}:${depth === undefined ? '-' : routesKey([{ hops: [depth] }])}`)
      }
    }
    return parts.join('|')
  }

  /**
   * A two-step fill whose draw is within the registry's bond limit for this keeper (its
   * `draw_limit`; a new draw above it is refused with BondTooSmall): `fill` when its draw fits or
   * no limit is known, else the auction valued again at a percent scaled down to fit (a few
   * tries, since the draw is not exactly proportional), else why there is none.
   */
  async function fitBondLimit(chain: Chain, user: string, v: FillInputs, fill: FillPlan): Promise<{ fill: FillPlan } | { skip: string }> {
    const limit = await ctx.drawLimit?.()
    if (limit === undefined) return { fill }
    const first = fillOrder(user, fill, v.reserves, v.usdc)
    if ('refuse' in first || first.drew <= limit) return { fill }
    const above = `needs a two-step draw of ${first.drew} USDC stroops, above the registry's bond limit for this keeper (draw_limit ${limit})`
    let percent = fill.percent
    let drew = first.drew
    for (let tries = 0; tries < 4; tries++) {
      const next = Math.min(percent - 1, Number((BigInt(percent) * limit) / drew))
      if (next < 1) break
      const smaller = await valueFill(chain, { ...v, bondPercent: next })
      if (smaller === null) return { skip: `${above}; no part within it clears MIN_PROFIT` }
      const order = fillOrder(user, smaller, v.reserves, v.usdc)
      if ('refuse' in order) return { skip: order.refuse }
      if (order.drew <= limit) {
        ctx.logger?.info({ user, percent: smaller.percent, drew: order.drew.toString(), drawLimit: limit.toString() }, 'two-step fill sized to the bond limit')
        return { fill: smaller }
      }
      percent = smaller.percent
      drew = order.drew
    }
    return { skip: `${above}: skipped; add bond to raise it` }
  }

  return { valueFill, fitBondLimit, venueKey }
}
