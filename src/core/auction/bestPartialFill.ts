import { constantProductOut, type ConstantProductPool } from '../dex/constantProductOut.js'
import { InvalidInputError, InvalidPriceError } from '../errors.js'
import { SCALAR_12 } from '../fixed/constants.js'
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
  /** Minimum value received / cost paid, 7 decimals (e.g. `10_200_000n` = 1.02). */
  minProfit: bigint
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
  /** Per lot asset: underlying sold, what its pool pays, and the least the sale may return (proceeds token units). */
  sales: Record<string, { amountIn: bigint; out: bigint; minOut: bigint }>
  /** Everything the lot turns into, in the proceeds token. */
  proceedsOut: bigint
  /** `proceedsOut` in the oracle base (floor). */
  executableValue: bigint
  /** `executableValue - bidCost`, oracle base. */
  profit: bigint
  /** Every sale clears its slippage floor, and both values reach `minProfit` against the bid. */
  feasible: boolean
}

const END = 2 * AUCTION_RAMP_BLOCKS

/** The valuation of filling `percent` of the auction at `block` (see {@link bestPartialFill}). */
export function valuePartialFill(p: BestPartialFillParameters, block: number, percent: number): PartialFillValuation {
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
    const pool = p.pools[asset]
    if (pool === undefined) continue
    // Oracle value of the underlying in the proceeds token: down, so the floor is never above it.
    const base = mulDiv(underlying, quote.price, 10n ** BigInt(quote.decimals), 'floor')
    const oracleOut = mulDiv(base, proceedsUnit, proceedsQuote.price, 'floor')
    const minOut = slippageFloor(oracleOut, p.slippageBps)
    const out = constantProductOut(underlying, pool)
    if (out < slippageFloor(oracleOut, p.slippageBps - (p.headroomBps ?? 0))) slippageOk = false
    sales[asset] = { amountIn: underlying, out, minOut }
    proceedsOut += out
  }
  const executableValue = mulDiv(proceedsOut, proceedsQuote.price, proceedsUnit, 'floor')
  const feasible =
    slippageOk && proceedsOut > 0n && meetsMinProfit(lotValue, bidCost, p.minProfit) && meetsMinProfit(executableValue, bidCost, p.minProfit)
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
 * - every lot asset's sale pays at least the slippage floor, `slippageBps` under its oracle value
 *   (`slippageBps - headroomBps` when sizing with headroom);
 * - the lot at oracle prices AND what the pools pay for it each reach `minProfit` against the
 *   bid (the oracle test keeps the keeper from filling earlier than the oracle allows when a pool
 *   trades above the oracle; the executable test keeps it from filling what it cannot sell).
 *
 * Selling a bigger share of the lot moves the pool further, so what the pools pay per unit falls
 * with the percent: the feasible percents are the small ones, and the profit `executable value -
 * bid cost` peaks where one more percent of lot pays less than one more percent of bid costs.
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
  // Nothing can be feasible before the whole auction clears minProfit at oracle prices (the
  // oracle test is the same for every percent but for rounding, which favours 100 %).
  const oracleFirst = firstProfitableBlock({ auction: p.auction, percent: 100, lotQuotes: p.lotQuotes, bidQuotes: p.bidQuotes, minProfit: p.minProfit, fromBlock: from })
  if (oracleFirst === null) return null
  const last = Math.max(oracleFirst.block, p.auction.block + END)
  let block: number | undefined
  for (let b = oracleFirst.block; b <= last; b++) {
    if (valuePartialFill(p, b, 1).feasible || valuePartialFill(p, b, maxPercent).feasible) {
      block = b
      break
    }
  }
  if (block === undefined) return null
  let best: PartialFillValuation | null = null
  for (let percent = 1; percent <= maxPercent; percent++) {
    const v = valuePartialFill(p, block, percent)
    if (v.feasible && (best === null || v.profit >= best.profit)) best = v
  }
  return best
}
