/**
 * Valuing a Blend auction for the keeper: quotes for each side from oracle prices and reserve
 * rates, and the first ledger at which filling it clears MIN_PROFIT (src/core does the curve).
 */
import {
  auctionProfitability,
  bestPartialFill,
  firstProfitableBlock,
  poolOut,
  type ConstantProductPool,
  scaleAuction,
  type AuctionData as CoreAuctionData,
  type AuctionQuotes,
  type SaleCache,
} from '../../../core/index.js'
import type { SwapVenue } from '../../clients/executor.js'
import type { SaleVenueRoute } from '../../dex/saleRoutes.js'
import { ErrNoPrice } from './errors.js'
import type { Reserve } from './loadPool.js'
import type { PriceData } from './oracle.js'
import { AuctionType, type AuctionData } from './storage.js'

/** The core's view of a stored auction (plain records instead of maps). */
export function toCoreAuction(a: AuctionData): CoreAuctionData {
  return { bid: Object.fromEntries(a.bid), lot: Object.fromEntries(a.lot), block: a.block }
}

/** MIN_PROFIT as a 7-decimal ratio (1.02 -> 10_200_000n). */
export function minProfitScaled(minProfit: number): bigint {
  if (!Number.isFinite(minProfit) || minProfit <= 0) throw new RangeError(`MIN_PROFIT ${minProfit} must be > 0`)
  return BigInt(Math.round(minProfit * 1e7))
}

function quote(
  asset: string,
  reserves: ReadonlyMap<string, Reserve>,
  prices: ReadonlyMap<string, PriceData>,
  rate: 'b' | 'd' | 'none',
): AuctionQuotes[string] {
  const r = reserves.get(asset)
  const p = prices.get(asset)
  if (r === undefined || p === undefined) throw new ErrNoPrice(asset, 'not a priced reserve of the pool')
  const q = { price: p.price, decimals: r.config.decimals }
  if (rate === 'b') return { ...q, rate: r.data.b_rate }
  if (rate === 'd') return { ...q, rate: r.data.d_rate }
  return q
}

/**
 * Quotes for both sides of an auction. User liquidation: lot in bTokens (b_rate), bid in dTokens
 * (d_rate). Bad debt: bid in dTokens; its lot is backstop LP tokens, not a pool reserve (no quote
 * here). Interest: lot in underlying; its bid is backstop LP tokens.
 */
export function auctionQuotes(
  type: AuctionType,
  auction: AuctionData,
  reserves: ReadonlyMap<string, Reserve>,
  prices: ReadonlyMap<string, PriceData>,
  /** Quotes for lot assets that are not pool reserves (the backstop LP token of a bad-debt lot). */
  extraLotQuotes: AuctionQuotes = {},
  /** Quotes for bid assets that are not pool reserves (the backstop LP token of an interest bid). */
  extraBidQuotes: AuctionQuotes = {},
): { lotQuotes: AuctionQuotes; bidQuotes: AuctionQuotes } {
  const lotQuotes: Record<string, AuctionQuotes[string]> = { ...extraLotQuotes }
  const bidQuotes: Record<string, AuctionQuotes[string]> = { ...extraBidQuotes }
  if (type !== AuctionType.Interest) for (const a of auction.bid.keys()) bidQuotes[a] = quote(a, reserves, prices, 'd')
  if (type === AuctionType.UserLiquidation) for (const a of auction.lot.keys()) lotQuotes[a] = quote(a, reserves, prices, 'b')
  if (type === AuctionType.Interest) for (const a of auction.lot.keys()) lotQuotes[a] = quote(a, reserves, prices, 'none')
  return { lotQuotes, bidQuotes }
}

export interface FillPlan {
  /** Ledger sequence of the first fill that clears MIN_PROFIT. */
  block: number
  /** Percent of the auction (as stored now) the fill takes, 1..100. */
  percent: number
  /**
   * What the pools are expected to pay for the lot (USDC), when the plan was made at executable
   * prices; undefined for a plan valued at the oracle only.
   */
  proceeds?: bigint
  /** Per sold lot asset, the least its sale may return (USDC): the slippage floor. */
  minOut?: Record<string, bigint>
  /** Per sold lot asset, the underlying sold and what its pool is expected to pay (USDC). */
  sales?: Record<string, { amountIn: bigint; out: bigint }>
  /**
   * The swaps that sell the lot when it was valued across venues (`routes`): per lot asset one
   * or two parts, each on its venue and path with its own floor, and what it moves through each
   * pool on the way (for this keeper's sale reservations).
   */
  swaps?: PlannedSwap[]
  delta: number
  lotValue: bigint
  bidCost: bigint
  /** 7 decimals; null when the bid costs nothing. */
  ratio: bigint | null
  /** Scaled amounts at `block` (what the fill pays and receives). */
  bid: Record<string, bigint>
  lot: Record<string, bigint>
}

/** One swap of a planned sale: `amountIn` of `asset` along `path` on `venue`, refused below `minOut`. */
export interface PlannedSwap {
  asset: string
  /** The route's name (primary, fallback, primary via ..., comet ...). */
  route: string
  venue: SwapVenue
  path: string[]
  amountIn: bigint
  out: bigint
  minOut: bigint
  /** Each pool on the path: what goes in and comes out of it. */
  flows: { id: string; tokenIn: string; amountIn: bigint; out: bigint }[]
}

/** What every fill plan starts from: the auction, the pool's reserves and prices, MIN_PROFIT (7 decimals) and the earliest ledger. */
export interface PlanInputs {
  auction: AuctionData
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  minProfit: bigint
  fromBlock: number
}

/**
 * The first profitable fill of `percent` of a user-liquidation auction at or after `fromBlock`,
 * or null when the curve never clears `minProfit`.
 */
export function planFill(p: PlanInputs & {
  percent?: number
  type?: AuctionType
  extraLotQuotes?: AuctionQuotes
  extraBidQuotes?: AuctionQuotes
}): FillPlan | null {
  const type = p.type ?? AuctionType.UserLiquidation
  const percent = p.percent ?? 100
  const auction = toCoreAuction(p.auction)
  const { lotQuotes, bidQuotes } = auctionQuotes(type, p.auction, p.reserves, p.prices, p.extraLotQuotes, p.extraBidQuotes)
  const first = firstProfitableBlock({ auction, percent, lotQuotes, bidQuotes, minProfit: p.minProfit, fromBlock: p.fromBlock })
  if (first === null) return null
  const { filled } = scaleAuction({ auction, block: first.block, percent })
  return {
    block: first.block,
    percent,
    delta: first.delta,
    lotValue: first.lotValue,
    bidCost: first.bidCost,
    ratio: first.ratio,
    bid: { ...filled.bid },
    lot: { ...filled.lot },
  }
}

/**
 * The fill to send for a user-liquidation auction whose lot is sold into pools of limited depth
 * (core `bestPartialFill`): the first ledger at or after `fromBlock` at which some percent clears
 * MIN_PROFIT both at the oracle and at what the pools pay, within the slippage floor, and the
 * percent with the most profit there. `pools`: per lot asset, the pool it is sold into for USDC.
 */
export function planPartialFill(p: PlanInputs & {
  slippageBps: number
  /** Part of `slippageBps` kept free when sizing the fill (core `bestPartialFill`). */
  headroomBps?: number
  usdc: string
  pools: Readonly<Record<string, ConstantProductPool>>
  /** Per lot asset, the venues it may be sold on (primary first); replaces its entry of `pools`. */
  routes?: Readonly<Record<string, readonly SaleVenueRoute[]>>
  /** What must reach MIN_PROFIT (core `bestPartialFill`): the oracle value, or what the pools pay too. */
  basis?: 'oracle' | 'executable'
  maxPercent?: number
  /** Sales worked out for these venues' state (core `SaleCache`), shared by valuations. */
  saleCache?: SaleCache
}): FillPlan | null {
  const { lotQuotes, bidQuotes } = auctionQuotes(AuctionType.UserLiquidation, p.auction, p.reserves, p.prices)
  const usdcPrice = p.prices.get(p.usdc)
  const usdcReserve = p.reserves.get(p.usdc)
  if (usdcPrice === undefined || usdcReserve === undefined) throw new ErrNoPrice(p.usdc, 'USDC is not a priced reserve of the pool')
  const best = bestPartialFill({
    auction: toCoreAuction(p.auction),
    lotQuotes,
    bidQuotes,
    proceeds: { asset: p.usdc, quote: { price: usdcPrice.price, decimals: usdcReserve.config.decimals } },
    pools: p.pools,
    ...(p.routes === undefined ? {} : { routes: Object.fromEntries(Object.entries(p.routes).map(([a, rs]) => [a, rs.map((r) => ({ hops: r.hops.map((h) => h.pool) }))])) }),
    ...(p.basis === undefined ? {} : { basis: p.basis }),
    minProfit: p.minProfit,
    slippageBps: p.slippageBps,
    ...(p.headroomBps === undefined ? {} : { headroomBps: p.headroomBps }),
    fromBlock: p.fromBlock,
    ...(p.maxPercent === undefined ? {} : { maxPercent: p.maxPercent }),
    ...(p.saleCache === undefined ? {} : { saleCache: p.saleCache }),
  })
  if (best === null) return null
  return {
    block: best.block,
    percent: best.percent,
    delta: best.delta,
    lotValue: best.lotValue,
    bidCost: best.bidCost,
    ratio: best.bidCost === 0n ? null : (best.lotValue * 10_000_000n) / best.bidCost,
    bid: { ...best.filled.bid },
    lot: { ...best.filled.lot },
    proceeds: best.proceedsOut,
    minOut: Object.fromEntries(Object.entries(best.sales).map(([a, s]) => [a, s.minOut])),
    sales: Object.fromEntries(Object.entries(best.sales).map(([a, s]) => [a, { amountIn: s.amountIn, out: s.out }])),
    ...(p.routes === undefined ? {} : { swaps: plannedSwaps(best.sales, p.routes) }),
  }
}

/** The core's sale parts as swaps on their venues, with what each moves through its pools. */
function plannedSwaps(
  sales: Record<string, { parts?: { route: number; amountIn: bigint; out: bigint; minOut: bigint }[] }>,
  routes: Readonly<Record<string, readonly SaleVenueRoute[]>>,
): PlannedSwap[] {
  const out: PlannedSwap[] = []
  for (const [asset, sale] of Object.entries(sales)) {
    for (const part of sale.parts ?? []) {
      const route = routes[asset]![part.route]!
      const flows: PlannedSwap['flows'] = []
      let amount = part.amountIn
      for (const hop of route.hops) {
        const next = poolOut(amount, hop.pool)
        flows.push({ id: hop.id, tokenIn: hop.tokenIn, amountIn: amount, out: next })
        amount = next
      }
      out.push({ asset, route: route.name, venue: route.venue, path: route.path, amountIn: part.amountIn, out: part.out, minOut: part.minOut, flows })
    }
  }
  return out
}

/** Profitability of a fill at a given ledger (for logs and re-checks right before sending). */
export function profitabilityAt(p: {
  auction: AuctionData
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  block: number
  percent?: number
  type?: AuctionType
}) {
  const type = p.type ?? AuctionType.UserLiquidation
  const { lotQuotes, bidQuotes } = auctionQuotes(type, p.auction, p.reserves, p.prices)
  return auctionProfitability({ auction: toCoreAuction(p.auction), block: p.block, percent: p.percent ?? 100, lotQuotes, bidQuotes })
}
