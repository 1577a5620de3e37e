import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { auctionModifiers } from './auctionModifiers.js'
import { scaleAuction } from './scaleAuction.js'

// Worked examples: the same numbers as Blend v2's own scale_auction unit tests.
describe('scaleAuction: worked examples', () => {
  const full = { bid: { A: 100_0000000n }, lot: { B: 100_0000000n }, block: 1000 }
  it('100 % fill along the curve', () => {
    expect(scaleAuction({ auction: full, block: 1000, percent: 100 })).toEqual({ filled: { bid: { A: 100_0000000n }, lot: {}, block: 1000 }, remaining: null })
    expect(scaleAuction({ auction: full, block: 1100, percent: 100 }).filled).toEqual({ bid: { A: 100_0000000n }, lot: { B: 50_0000000n }, block: 1000 })
    expect(scaleAuction({ auction: full, block: 1200, percent: 100 }).filled).toEqual({ bid: { A: 100_0000000n }, lot: { B: 100_0000000n }, block: 1000 })
    expect(scaleAuction({ auction: full, block: 1300, percent: 100 }).filled).toEqual({ bid: { A: 50_0000000n }, lot: { B: 100_0000000n }, block: 1000 })
    expect(scaleAuction({ auction: full, block: 1400, percent: 100 }).filled).toEqual({ bid: {}, lot: { B: 100_0000000n }, block: 1000 })
  })

  const odd = { bid: { A: 25_0000005n }, lot: { B: 25_0000005n }, block: 1000 }
  it('partial fills: bid rounds up, lot rounds down, remainder exact', () => {
    expect(scaleAuction({ auction: odd, block: 1000, percent: 50 })).toEqual({
      filled: { bid: { A: 12_5000003n }, lot: {}, block: 1000 },
      remaining: { bid: { A: 12_5000002n }, lot: { B: 12_5000003n }, block: 1000 },
    })
    expect(scaleAuction({ auction: odd, block: 1100, percent: 60 })).toEqual({
      filled: { bid: { A: 15_0000003n }, lot: { B: 7_5000001n }, block: 1000 },
      remaining: { bid: { A: 10_0000002n }, lot: { B: 10_0000002n }, block: 1000 },
    })
    expect(scaleAuction({ auction: odd, block: 1300, percent: 60 }).filled).toEqual({ bid: { A: 7_5000002n }, lot: { B: 15_0000003n }, block: 1000 })
    expect(scaleAuction({ auction: odd, block: 1400, percent: 50 }).filled).toEqual({ bid: {}, lot: { B: 12_5000002n }, block: 1000 })
  })

  it('dust: a 1-unit bid is always paid, a 1-unit lot only at 100 %', () => {
    const dust = { bid: { A: 1n }, lot: { B: 1n }, block: 1000 }
    expect(scaleAuction({ auction: dust, block: 1000, percent: 99 })).toEqual({ filled: { bid: { A: 1n }, lot: {}, block: 1000 }, remaining: { bid: {}, lot: { B: 1n }, block: 1000 } })
    expect(scaleAuction({ auction: dust, block: 1300, percent: 100 })).toEqual({ filled: { bid: { A: 1n }, lot: { B: 1n }, block: 1000 }, remaining: null })
    expect(scaleAuction({ auction: dust, block: 1400, percent: 100 })).toEqual({ filled: { bid: {}, lot: { B: 1n }, block: 1000 }, remaining: null })
  })

  it('rejects percent outside 1..100 and a block before the start', () => {
    for (const percent of [0, 101, 50.5, -1]) expect(() => scaleAuction({ auction: odd, block: 1000, percent })).toThrow(BaseError)
    expect(() => scaleAuction({ auction: odd, block: 999, percent: 50 })).toThrow(BaseError)
  })
})

describe('scaleAuction: properties', () => {
  const amount = fc.bigInt({ min: 1n, max: 10n ** 24n })
  it('a fill never yields more lot or less bid than the curve allows, and the split is exact', () => {
    fc.assert(
      fc.property(amount, amount, fc.integer({ min: 1, max: 100 }), fc.nat({ max: 500 }), (bid, lot, percent, delta) => {
        const { filled, remaining } = scaleAuction({ auction: { bid: { X: bid }, lot: { Y: lot }, block: 10 }, block: 10 + delta, percent })
        const m = auctionModifiers(delta)
        const p = BigInt(percent)
        const paid = filled.bid.X ?? 0n
        const got = filled.lot.Y ?? 0n
        // exact curve values: bid * p/100 * m/1e7 and lot * p/100 * m/1e7 (denominator 1e9)
        expect(paid * 1_000_000_000n >= bid * p * m.bid).toBe(true)
        expect(got * 1_000_000_000n <= lot * p * m.lot).toBe(true)
        // and never by more than the two rounding steps (< 2 units each way)
        expect(paid * 1_000_000_000n - bid * p * m.bid < 2n * 1_000_000_000n).toBe(true)
        expect(lot * p * m.lot - got * 1_000_000_000n < 2n * 1_000_000_000n).toBe(true)
        // remaining + the filled base add back up to the stored amounts
        const remBid = remaining?.bid.X ?? 0n
        const remLot = remaining?.lot.Y ?? 0n
        expect(remBid + (bid * p + 99n) / 100n).toBe(bid)
        expect(remLot + (lot * p) / 100n).toBe(lot)
        if (percent === 100) expect(remaining).toBeNull()
      }),
      { numRuns: 1000 },
    )
  })

  it('for a fixed fill, the lot received never falls and the bid paid never rises as blocks pass', () => {
    fc.assert(
      fc.property(amount, amount, fc.integer({ min: 1, max: 100 }), fc.nat({ max: 450 }), fc.nat({ max: 50 }), (bid, lot, percent, d, step) => {
        const auction = { bid: { X: bid }, lot: { Y: lot }, block: 0 }
        const a = scaleAuction({ auction, block: d, percent }).filled
        const b = scaleAuction({ auction, block: d + step, percent }).filled
        expect((b.lot.Y ?? 0n) >= (a.lot.Y ?? 0n)).toBe(true)
        expect((b.bid.X ?? 0n) <= (a.bid.X ?? 0n)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
