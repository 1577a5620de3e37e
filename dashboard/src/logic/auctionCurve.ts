/**
 * The chart of an open auction on Blend's Dutch curve: lot value and bid cost at blocks 0–400,
 * with markers at the first profitable block and at the current block. Pure: every number comes
 * from src/core (auctionModifiers, auctionProfitability, firstProfitableBlock).
 *
 * A keeper's /api/state does not list an auction's lot and bid amounts. It gives, per planned
 * execution, the capital the fill draws (the bid's USDC at the target block) and the lot/bid
 * ratio of a fill at the current block (`progress`). That is enough to rebuild the auction up to
 * its two totals: the full bid cost B = capital / bid modifier at the target block, and the full
 * lot value L = ratio × B × bid modifier / lot modifier at the current block. The rebuilt auction
 * (one bid asset, one lot asset, both valued 1:1 in USDC) then goes through the core's curve. It
 * is an estimate: USDC is taken at 1.0 in the oracle's base currency and the ratio is rounded to 7
 * decimals, so the first profitable block can differ from the keeper's own plan by a block or so.
 */
import type { ChartConfiguration } from 'chart.js'
import {
  AUCTION_RAMP_BLOCKS,
  SCALAR_7,
  auctionModifiers,
  auctionProfitability,
  firstProfitableBlock,
  mulDiv,
  type AuctionData,
  type AuctionQuotes,
} from '../../../src/core/index.js'

/** Past this many blocks the curve no longer changes (lot 100 %, bid 0). */
export const CURVE_END = 2 * AUCTION_RAMP_BLOCKS

const LOT = 'lot'
const BID = 'bid'
/** Both rebuilt assets are USDC-valued amounts with 7 decimals. */
const UNIT: AuctionQuotes = { [LOT]: { price: SCALAR_7, decimals: 7 }, [BID]: { price: SCALAR_7, decimals: 7 } }

export interface AuctionEstimateInput {
  /** Blocks since the auction started at the block the ratio is for. */
  offset: number
  /** Lot value / bid cost at `offset`, 7 decimals (null: the bid is free). */
  ratio: bigint | null
  /** USDC the planned fill draws: the bid cost at `targetOffset`. */
  capital: bigint
  /** Blocks since the start at the planned fill. */
  targetOffset: number
}

/** The auction rebuilt from a keeper's figures (see the file comment), or null when they do not determine it. */
export function rebuildAuction(input: AuctionEstimateInput): AuctionData | null {
  const { offset, ratio, capital, targetOffset } = input
  if (ratio === null || ratio < 0n || capital <= 0n) return null
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= CURVE_END) return null
  if (!Number.isSafeInteger(targetOffset) || targetOffset < 0 || targetOffset >= CURVE_END) return null
  const now = auctionModifiers(offset)
  const target = auctionModifiers(targetOffset)
  if (now.lot === 0n || target.bid === 0n) return null
  const bid = mulDiv(capital, SCALAR_7, target.bid, 'ceil')
  const bidNow = mulDiv(bid, now.bid, SCALAR_7, 'ceil')
  const lotNow = mulDiv(ratio, bidNow, SCALAR_7, 'floor')
  const lot = mulDiv(lotNow, SCALAR_7, now.lot, 'floor')
  return { bid: { [BID]: bid }, lot: { [LOT]: lot }, block: 0 }
}

export interface CurvePoint {
  block: number
  lotValue: bigint
  bidCost: bigint
}

/** Lot value and bid cost of a full fill at each block 0..`end` (core auctionProfitability). */
export function auctionCurve(auction: AuctionData, end = CURVE_END): CurvePoint[] {
  const points: CurvePoint[] = []
  for (let d = 0; d <= end; d++) {
    const p = auctionProfitability({ auction, block: auction.block + d, percent: 100, lotQuotes: UNIT, bidQuotes: UNIT })
    points.push({ block: d, lotValue: p.lotValue, bidCost: p.bidCost })
  }
  return points
}

/** Blocks after the start of the first fill reaching `minProfit` (core firstProfitableBlock), or null. */
export function firstProfitableOffset(auction: AuctionData, minProfit: bigint): number | null {
  return firstProfitableBlock({ auction, percent: 100, lotQuotes: UNIT, bidQuotes: UNIT, minProfit })?.delta ?? null
}

export interface AuctionChartData {
  curve: CurvePoint[]
  firstProfitable: number | null
  /** The current block (offset), when known. */
  now: number | null
  minProfit: bigint
}

/** Everything the auction chart shows, from one execution's figures; null when they do not determine the auction. */
export function auctionChartData(input: AuctionEstimateInput & { minProfit: bigint }): AuctionChartData | null {
  const auction = rebuildAuction(input)
  if (auction === null) return null
  return {
    curve: auctionCurve(auction),
    firstProfitable: firstProfitableOffset(auction, input.minProfit),
    now: input.offset,
    minProfit: input.minProfit,
  }
}

const usdc = (v: bigint): number => Number(v) / 1e7

type XY = { x: number; y: number }

function marker(label: string, x: number, top: number, color: string, dash: number[]): ChartConfiguration<'line', XY[]>['data']['datasets'][number] {
  return { label, data: [{ x, y: 0 }, { x, y: top }], borderColor: color, backgroundColor: color, borderDash: dash, borderWidth: 1.5, pointRadius: 0 }
}

/**
 * The chart.js configuration: two curves over a linear block axis, and each marker as a vertical
 * two-point line dataset (no annotation plugin needed).
 */
export function auctionChartConfig(data: AuctionChartData): ChartConfiguration<'line', XY[]> {
  const lot = data.curve.map((p) => ({ x: p.block, y: usdc(p.lotValue) }))
  const bid = data.curve.map((p) => ({ x: p.block, y: usdc(p.bidCost) }))
  const top = Math.max(0, ...lot.map((p) => p.y), ...bid.map((p) => p.y))
  const datasets: ChartConfiguration<'line', XY[]>['data']['datasets'] = [
    { label: 'lot value (USDC)', data: lot, borderColor: '#2ca02c', backgroundColor: '#2ca02c', pointRadius: 0, borderWidth: 2 },
    { label: 'bid cost (USDC)', data: bid, borderColor: '#d62728', backgroundColor: '#d62728', pointRadius: 0, borderWidth: 2 },
  ]
  if (data.firstProfitable !== null)
    datasets.push(marker(`first profitable block ${data.firstProfitable} (lot/bid ≥ ${(Number(data.minProfit) / 1e7).toFixed(4)})`, data.firstProfitable, top, '#1f77b4', [6, 4]))
  if (data.now !== null) datasets.push(marker(`now: block ${data.now}`, data.now, top, '#7b8794', [2, 3]))
  return {
    type: 'line',
    data: { datasets },
    options: {
      interaction: { mode: 'nearest', intersect: false, axis: 'x' },
      plugins: { legend: { position: 'bottom' } },
      scales: {
        x: { type: 'linear', min: 0, max: CURVE_END, title: { display: true, text: 'blocks since the auction started' } },
        y: { min: 0, title: { display: true, text: 'USDC' } },
      },
    },
  }
}
