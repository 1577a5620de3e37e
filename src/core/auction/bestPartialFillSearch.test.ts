import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bestPartialFill, routesKey, valuePartialFill, type BestPartialFillParameters, type PartialFillValuation, type SaleCache } from './bestPartialFill.js'
import type { SaleRoute } from '../dex/bestSale.js'

/** The search as it was: every ledger in turn, every valuation working its sale out again. */
function uncached(p: BestPartialFillParameters): PartialFillValuation | null {
  const from = Math.max(p.fromBlock ?? p.auction.block, p.auction.block)
  const maxPercent = p.maxPercent ?? 100
  let block: number | undefined
  for (let b = from; b <= Math.max(from, p.auction.block + 400) && block === undefined; b++) {
    if (valuePartialFill(p, b, 1).feasible || valuePartialFill(p, b, maxPercent).feasible) block = b
  }
  if (block === undefined) return null
  if (p.basis === 'oracle') {
    for (let percent = maxPercent; percent >= 1; percent--) {
      const v = valuePartialFill(p, block, percent)
      if (v.feasible) return v
    }
    return null
  }
  let best: PartialFillValuation | null = null
  for (let percent = 1; percent <= maxPercent; percent++) {
    const v = valuePartialFill(p, block, percent)
    if (v.feasible && (best === null || v.profit >= best.profit)) best = v
  }
  return best
}

const cp = (reserveIn: bigint, reserveOut: bigint) => ({ reserveIn, reserveOut })

describe('bestPartialFill: the search against a plain ledger-by-ledger one (sale cache, bisection after the ramp)', () => {
  const instance = fc.record({
    bid: fc.bigInt({ min: 1_0000000n, max: 10_000_0000000n }),
    lot: fc.bigInt({ min: 1_0000000n, max: 100_000_0000000n }),
    price: fc.bigInt({ min: 100000n, max: 5_0000000n }),
    depths: fc.array(fc.bigInt({ min: 10_0000000n, max: 1_000_000_0000000n }), { minLength: 1, maxLength: 3 }),
    skew: fc.integer({ min: 85, max: 115 }),
    weighted: fc.boolean(),
    minProfit: fc.bigInt({ min: 1_0000000n, max: 1_2000000n }),
    slippageBps: fc.integer({ min: 0, max: 2000 }),
    basis: fc.constantFrom('oracle' as const, 'executable' as const),
    from: fc.integer({ min: 0, max: 450 }),
    maxPercent: fc.integer({ min: 1, max: 100 }),
  })
  type Instance = typeof instance extends fc.Arbitrary<infer T> ? T : never
  const params = (i: Instance, depthScale = 1n): BestPartialFillParameters => {
    const routes: SaleRoute[] = i.depths.map((d) => ({ hops: [cp((d * depthScale * 10_000_000n) / i.price, (d * depthScale * BigInt(i.skew)) / 100n)] }))
    if (i.weighted) {
      const balanceIn = (i.depths[0]! * 10_000_000n) / i.price
      routes.push({ hops: [{ kind: 'weighted', balanceIn, balanceOut: i.depths[0]!, weightIn: 5_000_000n, weightOut: 5_000_000n, fee: 30_000n, maxIn: balanceIn / 3n }] })
    }
    return {
      auction: { bid: { USDC: i.bid }, lot: { XLM: i.lot }, block: 1000 },
      lotQuotes: { XLM: { price: i.price, decimals: 7 } },
      bidQuotes: { USDC: { price: 1_0000000n, decimals: 7 } },
      proceeds: { asset: 'USDC', quote: { price: 1_0000000n, decimals: 7 } },
      pools: {},
      routes: { XLM: routes },
      minProfit: i.minProfit,
      basis: i.basis,
      slippageBps: i.slippageBps,
      headroomBps: Math.floor(i.slippageBps / 4),
      fromBlock: 1000 + i.from,
      maxPercent: i.maxPercent,
    }
  }

  it('finds what the uncached search finds, with a cache shared across venue states, ledgers and percents', () => {
    fc.assert(
      fc.property(instance, (i) => {
        const cache: SaleCache = new Map()
        // Other states of the same venues and other searches fill the cache first.
        bestPartialFill({ ...params(i, 2n), saleCache: cache })
        bestPartialFill({ ...params(i), fromBlock: 1000, maxPercent: 100, saleCache: cache })
        const p = params(i)
        expect(bestPartialFill({ ...p, saleCache: cache })).toEqual(uncached(p))
        expect(bestPartialFill(p)).toEqual(uncached(p))
      }),
      { numRuns: 40 },
    )
  })

  it('finds the same first ledger after the ramp, where it bisects (thin pools, fills late on the curve)', () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 150, max: 420 }), (i, from) => {
        const p = { ...params({ ...i, from, depths: i.depths.map((d) => d / 50n + 1_0000000n) }) }
        expect(bestPartialFill(p)).toEqual(uncached(p))
      }),
      { numRuns: 40 },
    )
  })

  it('keys routes by every pool state it depends on', () => {
    const a = [{ hops: [cp(100n, 200n)] }]
    expect(routesKey(a)).toBe(routesKey([{ hops: [cp(100n, 200n)] }]))
    expect(routesKey(a)).not.toBe(routesKey([{ hops: [cp(100n, 201n)] }]))
    expect(routesKey(a)).not.toBe(routesKey([{ hops: [cp(100n, 200n), cp(1n, 1n)] }]))
    const w = { kind: 'weighted' as const, balanceIn: 1n, balanceOut: 2n, weightIn: 3n, weightOut: 4n, fee: 5n, maxIn: 6n }
    expect(routesKey([{ hops: [w] }])).not.toBe(routesKey([{ hops: [{ ...w, fee: 6n }] }]))
    expect(routesKey([{ hops: [w] }])).not.toBe(routesKey([{ hops: [{ ...w, maxIn: 7n }] }]))
  })
})
