import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { auctionModifiers } from './auctionModifiers.js'

describe('auctionModifiers', () => {
  it('hits the phase boundaries exactly', () => {
    expect(auctionModifiers(0)).toEqual({ bid: 10_000_000n, lot: 0n })
    expect(auctionModifiers(1)).toEqual({ bid: 10_000_000n, lot: 50_000n })
    expect(auctionModifiers(199)).toEqual({ bid: 10_000_000n, lot: 9_950_000n })
    expect(auctionModifiers(200)).toEqual({ bid: 10_000_000n, lot: 10_000_000n })
    expect(auctionModifiers(201)).toEqual({ bid: 9_950_000n, lot: 10_000_000n })
    expect(auctionModifiers(399)).toEqual({ bid: 50_000n, lot: 10_000_000n })
    expect(auctionModifiers(400)).toEqual({ bid: 0n, lot: 10_000_000n })
    expect(auctionModifiers(2 ** 32)).toEqual({ bid: 0n, lot: 10_000_000n })
  })

  it('rejects negative or fractional deltas', () => {
    expect(() => auctionModifiers(-1)).toThrow(BaseError)
    expect(() => auctionModifiers(1.5)).toThrow(BaseError)
  })

  it('curves are monotone: lot never falls, bid never rises, both within 0..100 % (property)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1000 }), fc.nat({ max: 1000 }), (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a]
        const m1 = auctionModifiers(early)
        const m2 = auctionModifiers(late)
        expect(m2.lot >= m1.lot).toBe(true)
        expect(m2.bid <= m1.bid).toBe(true)
        for (const m of [m1, m2]) {
          expect(m.lot >= 0n && m.lot <= 10_000_000n).toBe(true)
          expect(m.bid >= 0n && m.bid <= 10_000_000n).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })
})
