import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { feeBumpBid } from './feeBumpBid.js'
import { inclusionFeeBid } from './inclusionFeeBid.js'
import { FEE_BUMP_MULTIPLIER, FEE_PERCENTILES, type FeeStrategy } from './types.js'

const fixed: FeeStrategy = { kind: 'fixed' }
const profit = (bps: number): FeeStrategy => ({ kind: 'profit', bps })
const feestats: FeeStrategy = { kind: 'feestats', percentile: 'p90' }

const strategy = fc.oneof(
  fc.constant(fixed),
  fc.constantFrom(...FEE_PERCENTILES).map((percentile): FeeStrategy => ({ kind: 'feestats', percentile })),
  fc.integer({ min: 1, max: 10_000 }).map(profit),
)
const bounds = fc.integer({ min: 100, max: 1_000_000_000 }).chain((inclusionFee) => fc.tuple(fc.constant(inclusionFee), fc.integer({ min: inclusionFee, max: 4_294_967_295 })))
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined })

describe('inclusionFeeBid', () => {
  it('worked examples', () => {
    expect(inclusionFeeBid({ strategy: fixed, inclusionFee: 1000, maxFee: 10_000_000 })).toBe(1000)
    expect(inclusionFeeBid({ strategy: feestats, inclusionFee: 100, maxFee: 10_000_000, percentileFee: 4321 })).toBe(4321)
    expect(inclusionFeeBid({ strategy: feestats, inclusionFee: 500, maxFee: 10_000_000, percentileFee: 100 })).toBe(500)
    expect(inclusionFeeBid({ strategy: feestats, inclusionFee: 100, maxFee: 1000, percentileFee: 50_000 })).toBe(1000)
    // 10 % of 5 USDC at 0.25 USDC per XLM: 2 XLM.
    expect(inclusionFeeBid({ strategy: profit(1000), inclusionFee: 100, maxFee: 100_000_000, expectedProfit: 5_0000000n, xlmPrice: 2500000n })).toBe(20_000_000)
    // ... capped at MAX_FEE (1 XLM).
    expect(inclusionFeeBid({ strategy: profit(1000), inclusionFee: 100, maxFee: 10_000_000, expectedProfit: 5_0000000n, xlmPrice: 2500000n })).toBe(10_000_000)
    // 1 bp of 1 USDC at 0.10 USDC per XLM: 0.001 XLM = 10 000 stroops.
    expect(inclusionFeeBid({ strategy: profit(1), inclusionFee: 100, maxFee: 10_000_000, expectedProfit: 1_0000000n, xlmPrice: 1000000n })).toBe(10_000)
  })

  it('falls back to INCLUSION_FEE when an input is missing', () => {
    const base = { inclusionFee: 700, maxFee: 10_000_000 }
    expect(inclusionFeeBid({ ...base, strategy: feestats })).toBe(700)
    expect(inclusionFeeBid({ ...base, strategy: profit(100), expectedProfit: 10n ** 12n })).toBe(700)
    expect(inclusionFeeBid({ ...base, strategy: profit(100), xlmPrice: 1000000n })).toBe(700)
    expect(inclusionFeeBid({ ...base, strategy: profit(100), expectedProfit: 10n ** 12n, xlmPrice: 0n })).toBe(700)
    expect(inclusionFeeBid({ ...base, strategy: profit(100), expectedProfit: -(10n ** 12n), xlmPrice: 1000000n })).toBe(700)
  })

  it('rejects bad input', () => {
    expect(() => inclusionFeeBid({ strategy: fixed, inclusionFee: 99, maxFee: 1000 })).toThrow(BaseError)
    expect(() => inclusionFeeBid({ strategy: fixed, inclusionFee: 100.5, maxFee: 1000 })).toThrow(BaseError)
    expect(() => inclusionFeeBid({ strategy: fixed, inclusionFee: 1000, maxFee: 999 })).toThrow(BaseError)
    expect(() => inclusionFeeBid({ strategy: profit(0), inclusionFee: 100, maxFee: 1000 })).toThrow(BaseError)
    expect(() => inclusionFeeBid({ strategy: profit(10_001), inclusionFee: 100, maxFee: 1000 })).toThrow(BaseError)
    expect(() => inclusionFeeBid({ strategy: feestats, inclusionFee: 100, maxFee: 1000, percentileFee: -1 })).toThrow(BaseError)
  })

  it('is always an integer within [INCLUSION_FEE, MAX_FEE] (property)', () => {
    fc.assert(
      fc.property(strategy, bounds, maybe(fc.integer({ min: 0, max: 10 ** 12 })), maybe(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n })), maybe(fc.bigInt({ min: -10n, max: 10n ** 12n })), (s, [inclusionFee, maxFee], percentileFee, expectedProfit, xlmPrice) => {
        const bid = inclusionFeeBid({ strategy: s, inclusionFee, maxFee, percentileFee, expectedProfit, xlmPrice })
        expect(Number.isSafeInteger(bid)).toBe(true)
        expect(bid).toBeGreaterThanOrEqual(inclusionFee)
        expect(bid).toBeLessThanOrEqual(maxFee)
      }),
      { numRuns: 1000 },
    )
  })

  it('profit: non-decreasing in the profit and the share, non-increasing in the XLM price (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        bounds,
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        (bps, [inclusionFee, maxFee], a, b, xlmPrice) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a]
          const bid = (expectedProfit: bigint, share = bps, price = xlmPrice) =>
            inclusionFeeBid({ strategy: profit(share), inclusionFee, maxFee, expectedProfit, xlmPrice: price })
          expect(bid(lo)).toBeLessThanOrEqual(bid(hi))
          if (bps < 10_000) expect(bid(hi, bps)).toBeLessThanOrEqual(bid(hi, bps + 1))
          expect(bid(hi, bps, xlmPrice + 1n)).toBeLessThanOrEqual(bid(hi))
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('profit: exactly the share of the profit in XLM, floored, until the cap (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (bps, expectedProfit, xlmPrice) => {
        const bid = inclusionFeeBid({ strategy: profit(bps), inclusionFee: 100, maxFee: 4_294_967_295, expectedProfit, xlmPrice })
        const exact = (expectedProfit * BigInt(bps) * 1000n) / xlmPrice
        const expected = exact < 100n ? 100n : exact > 4_294_967_295n ? 4_294_967_295n : exact
        expect(BigInt(bid)).toBe(expected)
        // The bid's XLM, valued at xlmPrice, never exceeds the share of the profit (unless it is the floor).
        if (bid > 100) expect(BigInt(bid) * xlmPrice <= expectedProfit * BigInt(bps) * 1000n).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })

  it('a profit large enough always bids MAX_FEE (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), bounds, fc.bigInt({ min: 1n, max: 10n ** 10n }), (bps, [inclusionFee, maxFee], xlmPrice) => {
        const expectedProfit = (BigInt(maxFee) * xlmPrice) / 1000n + xlmPrice
        expect(inclusionFeeBid({ strategy: profit(bps), inclusionFee, maxFee, expectedProfit: expectedProfit * 10_000n, xlmPrice })).toBe(maxFee)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('feeBumpBid', () => {
  it('worked examples', () => {
    expect(feeBumpBid({ queuedInclusionFee: 1000, operations: 1, freshBid: 1000, maxFee: 10_000_000 })).toBe(10_000)
    expect(feeBumpBid({ queuedInclusionFee: 100, operations: 1, freshBid: 5000, maxFee: 10_000_000 })).toBe(5000)
    // Three operations bidding 300 in all (100 each): 1000 per operation, 4000 in all.
    expect(feeBumpBid({ queuedInclusionFee: 300, operations: 3, freshBid: 100, maxFee: 10_000_000 })).toBe(1000)
    expect(feeBumpBid({ queuedInclusionFee: 301, operations: 3, freshBid: 100, maxFee: 10_000_000 })).toBe(1004)
    expect(feeBumpBid({ queuedInclusionFee: 1_000_000, operations: 1, freshBid: 100, maxFee: 10_000_000 })).toBe(10_000_000)
    expect(feeBumpBid({ queuedInclusionFee: 1_000_001, operations: 1, freshBid: 100, maxFee: 10_000_000 })).toBeNull()
    expect(feeBumpBid({ queuedInclusionFee: 100, operations: 1, freshBid: 100, maxFee: 999 })).toBeNull()
  })

  it('rejects bad input', () => {
    expect(() => feeBumpBid({ queuedInclusionFee: -1, operations: 1, freshBid: 100, maxFee: 1000 })).toThrow(BaseError)
    expect(() => feeBumpBid({ queuedInclusionFee: 100, operations: 0, freshBid: 100, maxFee: 1000 })).toThrow(BaseError)
    expect(() => feeBumpBid({ queuedInclusionFee: 100, operations: 1, freshBid: 1.5, maxFee: 1000 })).toThrow(BaseError)
  })

  it("is the smallest bid stellar-core's replace-by-fee accepts, at least the fresh bid, at most MAX_FEE (property)", () => {
    const accepted = (bid: bigint, queued: bigint, ops: bigint) => bid * (ops + 1n) * ops >= BigInt(FEE_BUMP_MULTIPLIER) * queued * (ops + 1n)
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 10 ** 9 }), fc.integer({ min: 0, max: 2 ** 40 }), (queued, operations, freshBid, maxFee) => {
        const bid = feeBumpBid({ queuedInclusionFee: queued, operations, freshBid, maxFee })
        const ops = BigInt(operations)
        let smallest = BigInt(freshBid)
        while (!accepted(smallest, queued, ops)) smallest = (BigInt(FEE_BUMP_MULTIPLIER) * queued + ops - 1n) / ops
        if (smallest > BigInt(maxFee)) expect(bid).toBeNull()
        else {
          expect(bid).not.toBeNull()
          expect(BigInt(bid!)).toBe(smallest)
          expect(accepted(BigInt(bid!), queued, ops)).toBe(true)
          expect(bid!).toBeGreaterThanOrEqual(freshBid)
          if (bid! > freshBid) expect(accepted(BigInt(bid!) - 1n, queued, ops)).toBe(false)
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('a bid that is a whole multiple: ten times the queued bid per operation (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 10 ** 8 }), fc.integer({ min: 1, max: 100 }), (perOp, operations) => {
        expect(feeBumpBid({ queuedInclusionFee: perOp * operations, operations, freshBid: 100, maxFee: 2 ** 40 })).toBe(perOp * FEE_BUMP_MULTIPLIER)
      }),
      { numRuns: 1000 },
    )
  })
})
