import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { I128_MAX } from '../fixed/constants.js'
import { profitOf } from './profitOf.js'
import { slippageFloor } from './slippageFloor.js'

describe('slippageFloor', () => {
  it('worked examples', () => {
    expect(slippageFloor(100_0000000n, 50)).toBe(99_5000000n)
    expect(slippageFloor(999n, 50)).toBe(995n) // 994.005 -> 995
    expect(slippageFloor(1000n, 0)).toBe(1000n)
    expect(slippageFloor(1000n, 10_000n)).toBe(0n)
    expect(slippageFloor(I128_MAX, 1)).toBe(I128_MAX - I128_MAX / 10_000n)
  })
  it('rejects bad input', () => {
    for (const bps of [-1, 10_001, 0.5]) expect(() => slippageFloor(1n, bps)).toThrow(BaseError)
    expect(() => slippageFloor(-1n, 1)).toThrow(BaseError)
  })
  it('never tolerates more loss than the bps allow, and no stricter than one unit (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 10_000 }), (ref, bps) => {
        const min = slippageFloor(ref, bps)
        // (ref - min) / ref <= bps / 10000, exactly
        expect((ref - min) * 10_000n <= ref * BigInt(bps)).toBe(true)
        expect((ref - min + 1n) * 10_000n > ref * BigInt(bps)).toBe(true)
        expect(min <= ref).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('profitOf', () => {
  it('worked examples', () => {
    expect(profitOf(1050_0000000n, 1000_0000000n)).toBe(50_0000000n)
    expect(profitOf(990_0000000n, 1000_0000000n)).toBe(0n)
    expect(profitOf(0n, 0n)).toBe(0n)
    expect(() => profitOf(-1n, 0n)).toThrow(BaseError)
    expect(() => profitOf(I128_MAX + 1n, 0n)).toThrow(BaseError)
  })
  it('is max(0, proceeds - drew) and never exceeds proceeds (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: I128_MAX }), fc.bigInt({ min: 0n, max: I128_MAX }), (p, d) => {
        const profit = profitOf(p, d)
        expect(profit >= 0n && profit <= p).toBe(true)
        expect(profit).toBe(p > d ? p - d : 0n)
      }),
      { numRuns: 1000 },
    )
  })
})
