import { bestSale, type BestSaleReturnType, type SaleRoute } from '../dex/bestSale.js'
import { constantProductOut, type ConstantProductPool } from '../dex/constantProductOut.js'
import { InvalidInputError, InvalidPriceError } from '../errors.js'
import { SCALAR_12, SCALAR_7 } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'
import { slippageFloor } from '../vault/slippageFloor.js'
import { AUCTION_RAMP_BLOCKS } from './auctionModifiers.js'
import { auctionValue, type AuctionAssetQuote, type AuctionQuotes } from './auctionValue.js'
import { firstProfitableBlock } from './firstProfitableBlock.js'
import { meetsMinProfit } from './meetsMinProfit.js'
import { scaleAuction } from './scaleAuction.js'
import type { AuctionData } from './types.js'

export type BestPartialFillParameters = {
  /** The auction as stored now (after any earlier partial fills), unscaled. */
  auction: AuctionData
  /** Oracle quotes for every lot asset (bTokens: `rate` = b_rate). */
  lotQuotes: AuctionQuotes
  /** Oracle quotes for every bid asset (dTokens: `rate` = d_rate). */
  bidQuotes: AuctionQuotes
  /** The token the lot is sold for (USDC) and its oracle quote. */
  proceeds: { asset: string; quote: Pick<AuctionAssetQuote, 'price' | 'decimals'> }
  /**
   * The pool each lot asset's underlying is sold into for the proceeds token. A lot asset
   * without one adds nothing to the executable value (and has no slippage floor); a lot of the
   * proceeds token itself is taken at face value.
   */
  pools: Readonly<Record<string, ConstantProductPool>>
  /**
   * Every venue a lot asset may be sold on (routers' pairs, a path through an intermediate asset,
   * a weighted pool), primary first; an asset listed here is sold across them (core `bestSale`:
   * the best route, or the best split of two) instead of into its entry of `pools`.
   */
  routes?: Readonly<Record<string, readonly SaleRoute[]>>
  /** Minimum value received / cost paid, 7 decimals (e.g. `10_200_000n` = 1.02). */
  minProfit: bigint
  /**
   * What must reach `minProfit` against the bid (default `'executable'`):
   * - `'oracle'`: the lot at oracle prices (the rule of Blend's auction keepers), while what the
   *   pools pay must clear every sale's slippage floor and cover the bid; of the feasible
   *   percents the largest is taken;
   * - `'executable'`: the lot at oracle prices and what the pools pay, both; of the feasible
   *   percents the one with the most profit is taken.
   */
  basis?: 'oracle' | 'executable'
  /** Largest accepted loss of a sale against the oracle value, basis points. */
  slippageBps: number
  /**
   * Part of that allowance kept free when sizing the fill, basis points, 0..slippageBps (default
   * 0): a sale must pay at least the floor `slippageBps - headroomBps` under the oracle value, so
   * the pool may move that much against it before the transaction lands. `minOut` stays at the
   * `slippageBps` floor.
   */
  headroomBps?: number
  /** Earliest ledger to consider; defaults to the auction's start block. */
  fromBlock?: number
  /** Largest percent to consider, 1..100 (default 100): lower after a fill failed on slippage. */
  maxPercent?: number
  /**
   * Sales already worked out (see {@link SaleCache}), shared by valuations of the same venues:
   * the search meets the same amount many times (every block after the lot's ramp sells the
   * same lot). A fresh one is used per call when absent.
   */
  saleCache?: SaleCache
}

/**
 * `bestSale` answers by the state of the routes and the amount sold: a key holds every pool's
 * reserves (or balances, weights, fee and cap), so one cache may serve any valuation whose
 * routes are in that state, and never answers for another.
 */
export type SaleCache = Map<string, BestSaleReturnType>

/**
 * The state of a lot asset's routes, as a cache key (`SaleCache`): each pool's figures in route
 * order, `>` between the pools of a route, `|` between routes.
 *
 * @example
 * import { routesKey } from './index.js'
 * routesKey([{ hops: [{ reserveIn: 1000n, reserveOut: 2000n }] }, { hops: [{ reserveIn: 5n, reserveOut: 6n }, { reserveIn: 7n, reserveOut: 8n }] }]) // 'c1000,2000|c5,6>c7,8'
 */
export function routesKey(routes: readonly SaleRoute[]): string {
  return routes
    .map((r) => r.hops.map((h) => ('kind' in h ? `w${h.balanceIn},${h.balanceOut},${h.weightIn},${h.weightOut},${h.fee},${h.maxIn ?? ''}` : `c${h.reserveIn},${h.reserveOut}`)).join('>'))
    .join('|')
}

/** `bestSale(amount, routes)` through `cache` under the routes' key. */
function cachedSale(cache: SaleCache, key: string, amount: bigint, routes: readonly SaleRoute[]): BestSaleReturnType {
  const k = `${key}#${amount}`
  let sale = cache.get(k)
  if (sale === undefined) {
    sale = bestSale(amount, routes)
    cache.set(k, sale)
  }
  return sale
}

/** One fill of `percent` at `block`, valued at the oracle and at what the pools pay. */
export type PartialFillValuation = {
  block: number
  /** Blocks since the auction started. */
  delta: number
  percent: number
  /** What the fill pays (bid) and receives (lot), scaled as the pool scales it. */
  filled: { bid: Record<string, bigint>; lot: Record<string, bigint> }
  /** Lot at oracle prices (oracle base, floor). */
  lotValue: bigint
  /** Bid at oracle prices (oracle base, ceil). */
  bidCost: bigint
  /**
   * Per lot asset: underlying sold, what its venues pay, and the least the sale may return
   * (proceeds token units); with `routes`, its parts: the route's index in `routes[asset]`, the
   * amount sold on it, what it pays and its own floor.
   */
  sales: Record<string, { amountIn: bigint; out: bigint; minOut: bigint; parts?: SalePart[] }>
  /** Everything the lot turns into, in the proceeds token. */
  proceedsOut: bigint
  /** `proceedsOut` in the oracle base (floor). */
  executableValue: bigint
  /** `executableValue - bidCost`, oracle base. */
  profit: bigint
  /** Every sale clears its slippage floor, and both values reach `minProfit` against the bid. */
  feasible: boolean
}

/** A valuation's sale cache and its routes' keys per lot asset (worked out once per call). */
export type SaleMemo = { cache: SaleCache; keys: Record<string, string> }

/** One part of a lot asset's sale: `amountIn` sold on route `route`, paying `out`, refused below `minOut`. */
export type SalePart = { route: number; amountIn: bigint; out: bigint; minOut: bigint }

const END = 2 * AUCTION_RAMP_BLOCKS

/** The oracle value of `amount` of a lot asset's underlying, in the proceeds token (rounded down). */
function oracleOutOf(amount: bigint, quote: AuctionAssetQuote, proceedsQuote: Pick<AuctionAssetQuote, 'price' | 'decimals'>): bigint {
  const base = mulDiv(amount, quote.price, 10n ** BigInt(quote.decimals), 'floor')
  return mulDiv(base, 10n ** BigInt(proceedsQuote.decimals), proceedsQuote.price, 'floor')
}

/** The valuation of filling `percent` of the auction at `block` (see {@link bestPartialFill}). */
export function valuePartialFill(p: BestPartialFillParameters, block: number, percent: number, memo?: SaleMemo): PartialFillValuation {
  const { filled } = scaleAuction({ auction: p.auction, block, percent })
  const lotValue = auctionValue(filled.lot, p.lotQuotes, 'floor')
  const bidCost = auctionValue(filled.bid, p.bidQuotes, 'ceil')
  const proceedsQuote = p.proceeds.quote
  if (proceedsQuote.price <= 0n) throw new InvalidPriceError(p.proceeds.asset, proceedsQuote.price)
  const proceedsUnit = 10n ** BigInt(proceedsQuote.decimals)
  const sales: PartialFillValuation['sales'] = {}
  let proceedsOut = 0n
  let slippageOk = true
  for (const [asset, amount] of Object.entries(filled.lot)) {
    const quote = p.lotQuotes[asset]!
    // Underlying rounds down like the pool's withdrawal: the keeper never sells more than it gets.
    const underlying = quote.rate === undefined ? amount : mulDiv(amount, quote.rate, SCALAR_12, 'floor')
    if (asset === p.proceeds.asset) {
      proceedsOut += underlying
      continue
    }
    const sizingBps = p.slippageBps - (p.headroomBps ?? 0)
    const oracleOut = oracleOutOf(underlying, quote, proceedsQuote)
    const minOut = slippageFloor(oracleOut, p.slippageBps)
    const routes = p.routes?.[asset]
    if (routes !== undefined) {
      const sale = memo === undefined ? bestSale(underlying, routes) : cachedSale(memo.cache, memo.keys[asset] ?? (memo.keys[asset] = routesKey(routes)), underlying, routes)
      if (sale.parts.length === 0) {
        slippageOk = false
        sales[asset] = { amountIn: underlying, out: 0n, minOut, parts: [] }
        continue
      }
      const parts = sale.parts.map((part): SalePart => {
        const partOracle = oracleOutOf(part.amountIn, quote, proceedsQuote)
        if (part.out < slippageFloor(partOracle, sizingBps)) slippageOk = false
        return { ...part, minOut: slippageFloor(partOracle, p.slippageBps) }
      })
      sales[asset] = { amountIn: underlying, out: sale.out, minOut: parts.reduce((t, x) => t + x.minOut, 0n), parts }
      proceedsOut += sale.out
      continue
    }
    const pool = p.pools[asset]
    if (pool === undefined) continue
    const out = constantProductOut(underlying, pool)
    if (out < slippageFloor(oracleOut, sizingBps)) slippageOk = false
    sales[asset] = { amountIn: underlying, out, minOut }
    proceedsOut += out
  }
  const executableValue = mulDiv(proceedsOut, proceedsQuote.price, proceedsUnit, 'floor')
  // Oracle basis: the sale must still cover the bid, with the headroom to spare (the pools may
  // move that much before it lands); executable: MIN_PROFIT too.
  const headroom = BigInt(Math.min(p.headroomBps ?? 0, 9_999))
  const executableMin = (p.basis ?? 'executable') === 'oracle' ? mulDiv(SCALAR_7, 10_000n, 10_000n - headroom, 'ceil') : p.minProfit
  const feasible =
    slippageOk && proceedsOut > 0n && meetsMinProfit(lotValue, bidCost, p.minProfit) && meetsMinProfit(executableValue, bidCost, executableMin)
  return {
    block,
    delta: block - p.auction.block,
    percent,
    filled: { bid: filled.bid, lot: filled.lot },
    lotValue,
    bidCost,
    sales,
    proceedsOut,
    executableValue,
    profit: executableValue - bidCost,
    feasible,
  }
}

/**
 * The fill a keeper should send for an auction when it sells the lot into pools of limited
 * depth: the first ledger at or after `fromBlock` at which some percent of the auction can be
 * filled, and at that ledger the percent (1..100) that makes the most profit.
 *
 * A fill of `percent` at `block` is feasible when
 * - every lot asset's sale (every part of it, when split across `routes`) pays at least the
 *   slippage floor, `slippageBps` under its oracle value (`slippageBps - headroomBps` when sizing
 *   with headroom);
 * - the lot at oracle prices reaches `minProfit` against the bid (no keeper fills earlier than
 *   the oracle allows, even where a pool trades above it);
 * - what the pools pay for the lot covers the bid, with `headroomBps` of it to spare (`basis:
 *   'oracle'`), or reaches `minProfit` against it too (`basis: 'executable'`: nothing is filled
 *   that cannot be sold at a profit).
 *
 * Selling a bigger share of the lot moves the pools further, so what they pay per unit falls
 * with the percent: the feasible percents are the small ones. Under the oracle basis the largest
 * of them is sent (the first ledger the oracle pays, as much of the auction as the pools take
 * within the floor); under the executable basis the one whose profit `executable value - bid
 * cost` peaks, where one more percent of lot pays less than one more percent of bid costs.
 * Waiting a ledger only makes an auction cheaper, so the ledger chosen is the first at which any
 * fill is feasible (checked at 1 % and at `maxPercent`),
 * never later: a later ledger is left to competitors. What is left of the auction is planned
 * again on its own, once the pools have refilled.
 *
 * Returns `null` when no fill is feasible by the end of the curve (400 blocks; after that
 * nothing on the curve changes). Errors: those of `scaleAuction` and `auctionValue`, and
 * `InvalidInput` for a bad `slippageBps`, `headroomBps` or `maxPercent`.
 *
 * @example
 * import { bestPartialFill } from './index.js'
 * const auction = { bid: { USDC: 1000_0000000n }, lot: { XLM: 10000_0000000n }, block: 100 }
 * const usdc = { price: 1_0000000n, decimals: 7 }
 * bestPartialFill({
 *   auction,
 *   lotQuotes: { XLM: { price: 1500000n, decimals: 7 } }, // lot worth 1500 USDC at the oracle
 *   bidQuotes: { USDC: usdc },
 *   proceeds: { asset: 'USDC', quote: usdc },
 *   pools: { XLM: { reserveIn: 20000_0000000n, reserveOut: 3000_0000000n } }, // 3000 USDC deep
 *   minProfit: 1_0200000n,
 *   slippageBps: 500,
 * }) // 1 % at block 237 (delta 137): the first ledger any fill clears 1.02 at what the pool pays
 */
export function bestPartialFill(p: BestPartialFillParameters): PartialFillValuation | null {
  if (!Number.isInteger(p.slippageBps) || p.slippageBps < 0 || p.slippageBps > 10_000)
    throw new InvalidInputError('slippageBps must be an integer in 0..10000.', `slippageBps = ${p.slippageBps}`)
  const headroom = p.headroomBps ?? 0
  if (!Number.isInteger(headroom) || headroom < 0 || headroom > p.slippageBps)
    throw new InvalidInputError('headroomBps must be an integer in 0..slippageBps.', `headroomBps = ${headroom}, slippageBps = ${p.slippageBps}`)
  const maxPercent = p.maxPercent ?? 100
  if (!Number.isInteger(maxPercent) || maxPercent < 1 || maxPercent > 100)
    throw new InvalidInputError('maxPercent must be an integer in 1..100.', `maxPercent = ${maxPercent}`)
  const from = Math.max(p.fromBlock ?? p.auction.block, p.auction.block)
  const memo: SaleMemo = { cache: p.saleCache ?? new Map(), keys: {} }
  // Nothing can be feasible before the whole auction clears minProfit at oracle prices (the
  // oracle test is the same for every percent but for rounding, which favours 100 %).
  const oracleFirst = firstProfitableBlock({ auction: p.auction, percent: 100, lotQuotes: p.lotQuotes, bidQuotes: p.bidQuotes, minProfit: p.minProfit, fromBlock: from })
  if (oracleFirst === null) return null
  const last = Math.max(oracleFirst.block, p.auction.block + END)
  const feasibleAt = (b: number) => valuePartialFill(p, b, 1, memo).feasible || valuePartialFill(p, b, maxPercent, memo).feasible
  let block: number | undefined
  // While the lot ramps up, a later ledger sells more into the same pools: every ledger is tried.
  const plateau = p.auction.block + AUCTION_RAMP_BLOCKS
  for (let b = oracleFirst.block; b <= Math.min(last, plateau - 1); b++) {
    if (feasibleAt(b)) {
      block = b
      break
    }
  }
  // From the end of the ramp on, the lot (and so every sale) stays the same and the bid only
  // falls: at each percent, once a fill is feasible it stays so. The first such ledger is found
  // by bisection, the same ledger the ledger-by-ledger search finds.
  if (block === undefined) {
    let lo = Math.max(oracleFirst.block, plateau)
    let hi = last
    if (lo <= hi && feasibleAt(hi)) {
      while (lo < hi) {
        const mid = lo + Math.floor((hi - lo) / 2)
        if (feasibleAt(mid)) hi = mid
        else lo = mid + 1
      }
      block = lo
    }
  }
  if (block === undefined) return null
  if ((p.basis ?? 'executable') === 'oracle') {
    // The largest feasible percent: the most of the auction taken at the first ledger it pays.
    for (let percent = maxPercent; percent >= 1; percent--) {
      const v = valuePartialFill(p, block, percent, memo)
      if (v.feasible) return v
    }
    return null
  }
  let best: PartialFillValuation | null = null
  for (let percent = 1; percent <= maxPercent; percent++) {
    const v = valuePartialFill(p, block, percent, memo)
    if (v.feasible && (best === null || v.profit >= best.profit)) best = v
  }
  return best
}
