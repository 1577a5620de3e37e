import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { bestPartialFill, valuePartialFill, type BestPartialFillParameters } from './bestPartialFill.js'
import { firstProfitableBlock } from './firstProfitableBlock.js'
import { scaleAuction } from './scaleAuction.js'
import { slippageFloor } from '../vault/slippageFloor.js'

const usdc = { price: 1_0000000n, decimals: 7 }
const base = (over: Partial<BestPartialFillParameters> = {}): BestPartialFillParameters => ({
  auction: { bid: { USDC: 1000_0000000n }, lot: { XLM: 10000_0000000n }, block: 100 },
  lotQuotes: { XLM: { price: 1500000n, decimals: 7 } },
  bidQuotes: { USDC: usdc },
  proceeds: { asset: 'USDC', quote: usdc },
  pools: { XLM: { reserveIn: 20000_0000000n, reserveOut: 3000_0000000n } },
  minProfit: 1_0200000n,
  slippageBps: 500,
  ...over,
})

describe('bestPartialFill: worked examples', () => {
  it('a pool a fifth the size of the lot: 1 % at the first ledger the pool pays 1.02 for it', () => {
    const r = bestPartialFill(base())!
    expect(r).toMatchObject({ block: 237, delta: 137, percent: 1, bidCost: 10_0000000n, feasible: true })
    const { bid, lot } = scaleAuction({ auction: base().auction, block: 237, percent: 1 }).filled
    expect(r.filled).toEqual({ bid, lot })
    // the whole auction clears 1.02 at the oracle a ledger earlier, but its sale would not
    const oracle = firstProfitableBlock({ auction: base().auction, percent: 100, lotQuotes: base().lotQuotes, bidQuotes: base().bidQuotes, minProfit: 1_0200000n })!
    expect(oracle.block).toBe(236)
    expect(valuePartialFill(base(), 236, 1).feasible).toBe(false)
  })
  it('a deep pool takes the whole auction, one ledger after the oracle says so (the 0.3 % fee)', () => {
    const deep = base({ pools: { XLM: { reserveIn: 10n ** 18n, reserveOut: 15n * 10n ** 16n } } })
    const r = bestPartialFill(deep)!
    expect(r).toMatchObject({ percent: 100, block: 237 })
  })
  it('past block 400 the bid is free: the most the slippage floor allows', () => {
    const r = bestPartialFill(base({ fromBlock: 600 }))!
    expect(r.block).toBe(600)
    expect(r.bidCost).toBe(0n)
    expect(r.profit).toBe(r.executableValue)
    // one percent more would sell below the floor
    expect(r.percent).toBeLessThan(100)
    expect(valuePartialFill(base(), 600, r.percent + 1).feasible).toBe(false)
  })
  it('a lot of the proceeds token counts at face value; a lot asset without a pool adds nothing', () => {
    const auction = { bid: { USDC: 100_0000000n }, lot: { USDC: 150_0000000n, XLM: 10_0000000n }, block: 0 }
    const p = base({ auction, lotQuotes: { USDC: usdc, XLM: { price: 1500000n, decimals: 7 } }, pools: {} })
    const v = valuePartialFill(p, 200, 100)
    expect(v.proceedsOut).toBe(150_0000000n)
    expect(v.sales).toEqual({})
  })
  it('maxPercent caps the fill', () => {
    const deep = base({ pools: { XLM: { reserveIn: 10n ** 18n, reserveOut: 15n * 10n ** 16n } }, maxPercent: 40 })
    expect(bestPartialFill(deep)).toMatchObject({ percent: 40, block: 237 })
    expect(() => bestPartialFill(base({ maxPercent: 0 }))).toThrow(BaseError)
  })
  it('headroom sizes the free-lot fill smaller, each sale clearing the tighter floor; minOut stays at the slippage floor', () => {
    const wide = bestPartialFill(base({ fromBlock: 600 }))!
    const kept = bestPartialFill(base({ fromBlock: 600, headroomBps: 200 }))!
    expect(kept.percent).toBeLessThan(wide.percent)
    const sale = kept.sales.XLM!
    const oracleOut = (sale.amountIn * 1500000n) / 10_000_000n
    expect(sale.minOut).toBe(slippageFloor(oracleOut, 500))
    expect(sale.out).toBeGreaterThanOrEqual(slippageFloor(oracleOut, 300))
    expect(valuePartialFill(base({ headroomBps: 200 }), 600, kept.percent + 1).feasible).toBe(false)
    expect(() => bestPartialFill(base({ headroomBps: 501 }))).toThrow(BaseError)
    expect(() => bestPartialFill(base({ headroomBps: -1 }))).toThrow(BaseError)
  })
  it('never: a lot nobody buys; bad slippage', () => {
    expect(bestPartialFill(base({ pools: {} }))).toBeNull()
    expect(bestPartialFill(base({ pools: { XLM: { reserveIn: 1n, reserveOut: 0n } } }))).toBeNull()
    expect(() => bestPartialFill(base({ slippageBps: 10_001 }))).toThrow(BaseError)
  })
})

describe('bestPartialFill: properties (brute force over every ledger and percent)', () => {
  const instance = fc.record({
    bid: fc.bigInt({ min: 1_0000000n, max: 10_000_0000000n }),
    lot: fc.bigInt({ min: 1_0000000n, max: 100_000_0000000n }),
    price: fc.bigInt({ min: 100000n, max: 5_0000000n }),
    depthUsd: fc.bigInt({ min: 10_0000000n, max: 1_000_000_0000000n }),
    poolSkew: fc.integer({ min: 80, max: 120 }),
    minProfit: fc.bigInt({ min: 1_0000000n, max: 1_2000000n }),
    slippageBps: fc.integer({ min: 0, max: 2000 }),
    /** Share of the slippage allowance kept as headroom, percent. */
    headroomShare: fc.integer({ min: 0, max: 100 }),
    from: fc.integer({ min: 0, max: 450 }),
  })
  const params = (i: typeof instance extends fc.Arbitrary<infer T> ? T : never) =>
    base({
      auction: { bid: { USDC: i.bid }, lot: { XLM: i.lot }, block: 1000 },
      lotQuotes: { XLM: { price: i.price, decimals: 7 } },
      // the pool's price is the oracle's give or take 20 %
      pools: { XLM: { reserveIn: (i.depthUsd * 10_000_000n) / i.price, reserveOut: (i.depthUsd * BigInt(i.poolSkew)) / 100n } },
      minProfit: i.minProfit,
      slippageBps: i.slippageBps,
      headroomBps: Math.floor((i.slippageBps * i.headroomShare) / 100),
      fromBlock: 1000 + i.from,
    })
  it('is feasible, nothing earlier is, and no percent at its ledger makes more', () => {
    fc.assert(
      fc.property(instance, (i) => {
        const p = params(i)
        const r = bestPartialFill(p)
        const from = p.fromBlock!
        let first: number | undefined
        for (let b = from; b <= Math.max(from, 1400) && first === undefined; b += 1) {
          for (const percent of [1, 100]) if (valuePartialFill(p, b, percent).feasible) first = b
        }
        if (first === undefined) {
          expect(r).toBeNull()
          return
        }
        expect(r).not.toBeNull()
        expect(r!.feasible).toBe(true)
        expect(r!.block).toBe(first)
        // every sale clears the floor with the headroom kept; the transaction's minOut is the wider floor
        for (const sale of Object.values(r!.sales)) expect(sale.out >= sale.minOut).toBe(true)
        for (let percent = 1; percent <= 100; percent++) {
          const v = valuePartialFill(p, first, percent)
          if (v.feasible) expect(v.profit <= r!.profit).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })
})

describe('bestPartialFill: the oracle basis', () => {
  it('a deep pool: the whole auction at the first ledger the oracle pays MIN_PROFIT (the executable basis waits a ledger)', () => {
    const deep = base({ pools: { XLM: { reserveIn: 10n ** 18n, reserveOut: 15n * 10n ** 16n } } })
    const oracle = firstProfitableBlock({ auction: deep.auction, percent: 100, lotQuotes: deep.lotQuotes, bidQuotes: deep.bidQuotes, minProfit: 1_0200000n })!
    expect(bestPartialFill({ ...deep, basis: 'oracle' })).toMatchObject({ percent: 100, block: oracle.block })
    expect(bestPartialFill(deep)!.block).toBe(oracle.block + 1)
  })
  it('a pool a fifth the size of the lot: fires at the oracle ledger with the largest part whose sale clears the floor and covers the bid', () => {
    const p = base({ basis: 'oracle' })
    const r = bestPartialFill(p)!
    expect(r.block).toBe(236)
    expect(r.feasible).toBe(true)
    expect(r.proceedsOut >= r.bidCost).toBe(true)
    for (const s of Object.values(r.sales)) expect(s.out >= s.minOut).toBe(true)
    expect(valuePartialFill(p, 236, r.percent + 1).feasible).toBe(false)
    // the executable basis takes 1 % a ledger later
    expect(bestPartialFill(base())).toMatchObject({ block: 237, percent: 1 })
  })
  it('with headroom the sale covers the bid with the headroom to spare (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 100, max: 700 }), (slippageBps, share, from) => {
        const headroomBps = Math.floor((slippageBps * share) / 100)
        const r = bestPartialFill(base({ basis: 'oracle', slippageBps, headroomBps, fromBlock: from }))
        if (r === null) return
        expect(r.executableValue * BigInt(10_000 - headroomBps) >= r.bidCost * 10_000n).toBe(true)
      }),
      { numRuns: 200 },
    )
  })
  it('never fills what it cannot sell for the bid, nor below the floor (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 100_0000000n, max: 10n ** 13n }),
        fc.bigInt({ min: 100_0000000n, max: 10n ** 13n }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 100, max: 700 }),
        (rIn, rOut, slippageBps, from) => {
          const p = base({ basis: 'oracle', pools: { XLM: { reserveIn: rIn, reserveOut: rOut } }, slippageBps, fromBlock: from })
          const r = bestPartialFill(p)
          if (r === null) return
          expect(r.proceedsOut >= r.bidCost).toBe(true)
          for (const s of Object.values(r.sales)) expect(s.out >= s.minOut).toBe(true)
          if (r.percent < 100) expect(valuePartialFill(p, r.block, r.percent + 1).feasible).toBe(false)
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('bestPartialFill: sales across routes', () => {
  it('a second venue takes a larger part at the same ledger, each part with its own floor', () => {
    const primary = { reserveIn: 200000_0000000n, reserveOut: 30000_0000000n }
    const fallback = { reserveIn: 100000_0000000n, reserveOut: 15000_0000000n }
    const one = bestPartialFill(base({ basis: 'oracle', slippageBps: 100, pools: { XLM: primary } }))!
    const two = bestPartialFill(base({ basis: 'oracle', slippageBps: 100, pools: {}, routes: { XLM: [{ hops: [primary] }, { hops: [fallback] }] } }))!
    expect(two.block).toBe(one.block)
    expect(two.percent).toBeGreaterThan(one.percent)
    const parts = two.sales.XLM!.parts!
    expect(parts.map((x) => x.route)).toEqual([0, 1])
    expect(parts.reduce((t, x) => t + x.amountIn, 0n)).toBe(two.sales.XLM!.amountIn)
    for (const x of parts) expect(x.out >= x.minOut).toBe(true)
  })
  it('an asset whose routes pay nothing is not feasible', () => {
    const v = valuePartialFill(base({ pools: {}, routes: { XLM: [{ hops: [{ reserveIn: 0n, reserveOut: 0n }] }] } }), 300, 10)
    expect(v.feasible).toBe(false)
  })
})
