import { describe, expect, it } from 'vitest'
import { auctionChartConfig, auctionChartData, auctionCurve, firstProfitableOffset, rebuildAuction } from './auctionCurve.js'

const U = 10_000_000n // 1 USDC, 7 decimals

describe('rebuildAuction', () => {
  it('recovers the full lot and bid from a lot-phase ratio and the capital', () => {
    // Full lot 1100 USDC, full bid 1000 USDC; at block 100 the lot is at 50 %: ratio 0.55.
    const a = rebuildAuction({ offset: 100, ratio: 5_500_000n, capital: 1000n * U, targetOffset: 186 })
    expect(a).toEqual({ bid: { bid: 1000n * U }, lot: { lot: 1100n * U }, block: 0 })
  })

  it('undoes the bid modifier of a target in the bid phase', () => {
    // Target block 250: the bid costs 75 % of the full bid, so capital 750 means a full bid of 1000.
    // At block 300 (lot 100 %, bid 50 %) a full lot of 400 against 500 of bid is a ratio of 0.8.
    const a = rebuildAuction({ offset: 300, ratio: 8_000_000n, capital: 750n * U, targetOffset: 250 })
    expect(a).toEqual({ bid: { bid: 1000n * U }, lot: { lot: 400n * U }, block: 0 })
  })

  it('gives up where the figures do not determine the auction', () => {
    const base = { offset: 100, ratio: 5_500_000n, capital: 1000n * U, targetOffset: 150 }
    expect(rebuildAuction({ ...base, ratio: null })).toBeNull() // free bid
    expect(rebuildAuction({ ...base, offset: 0 })).toBeNull() // lot modifier 0
    expect(rebuildAuction({ ...base, offset: 400 })).toBeNull()
    expect(rebuildAuction({ ...base, targetOffset: 400 })).toBeNull() // bid modifier 0
    expect(rebuildAuction({ ...base, capital: 0n })).toBeNull()
  })
})

describe('the curve', () => {
  const auction = { bid: { bid: 1000n * U }, lot: { lot: 1100n * U }, block: 0 }

  it('ramps the lot up to block 200, then the bid down to 0 at 400', () => {
    const c = auctionCurve(auction)
    expect(c).toHaveLength(401)
    expect(c[0]).toEqual({ block: 0, lotValue: 0n, bidCost: 1000n * U })
    expect(c[100]).toEqual({ block: 100, lotValue: 550n * U, bidCost: 1000n * U })
    expect(c[200]).toEqual({ block: 200, lotValue: 1100n * U, bidCost: 1000n * U })
    expect(c[300]).toEqual({ block: 300, lotValue: 1100n * U, bidCost: 500n * U })
    expect(c[400]).toEqual({ block: 400, lotValue: 1100n * U, bidCost: 0n })
  })

  it('marks the first block whose lot/bid reaches MIN_PROFIT', () => {
    // 1100 * d / 200 >= 1.02 * 1000 first at d = 186.
    expect(firstProfitableOffset(auction, 10_200_000n)).toBe(186)
    // Asking more than the lot is worth over the full bid moves it into the bid phase: 1100 / (1000 (400 - d) / 200) >= 2.2 at d = 300.
    expect(firstProfitableOffset(auction, 22_000_000n)).toBe(300)
  })

  it('builds the chart: lot and bid curves, a marker at the first profitable block and one at now', () => {
    const data = auctionChartData({ offset: 100, ratio: 5_500_000n, capital: 1000n * U, targetOffset: 186, minProfit: 10_200_000n })
    expect(data?.firstProfitable).toBe(186)
    const config = auctionChartConfig(data!)
    const sets = config.data.datasets
    expect(sets.map((d) => d.label)).toEqual(['lot value (USDC)', 'bid cost (USDC)', 'first profitable block 186 (lot/bid ≥ 1.0200)', 'now: block 100'])
    expect(sets[0]!.data[200]).toEqual({ x: 200, y: 1100 })
    expect(sets[1]!.data[300]).toEqual({ x: 300, y: 500 })
    expect(sets[2]!.data).toEqual([
      { x: 186, y: 0 },
      { x: 186, y: 1100 },
    ])
    expect(config.options?.scales?.x).toMatchObject({ type: 'linear', min: 0, max: 400 })
  })

  it('leaves the first-profitable marker out when no block is profitable', () => {
    const data = auctionChartData({ offset: 100, ratio: 0n, capital: 1000n * U, targetOffset: 150, minProfit: 10_200_000n })
    expect(data?.firstProfitable).toBeNull()
    expect(auctionChartConfig(data!).data.datasets.map((d) => d.label)).toEqual(['lot value (USDC)', 'bid cost (USDC)', 'now: block 100'])
  })
})
