import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { bestSplit } from './bestSplit.js'
import { constantProductOut } from './constantProductOut.js'

const reserve = fc.bigInt({ min: 1000n, max: 10n ** 16n })
const pool = fc.record({ reserveIn: reserve, reserveOut: reserve })

describe('constantProductOut', () => {
  it('worked examples: the pair contract figures', () => {
    // contracts/dex-pair: 10 * 0.997 * 1000 / (1000 + 9.97) = 9.8715...
    expect(constantProductOut(10_0000000n, { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n })).toBe(9_8715803n)
    expect(constantProductOut(0n, { reserveIn: 1n, reserveOut: 1n })).toBe(0n)
    expect(constantProductOut(5n, { reserveIn: 0n, reserveOut: 100n })).toBe(0n)
  })
  it('rejects negative input', () => {
    expect(() => constantProductOut(-1n, { reserveIn: 1n, reserveOut: 1n })).toThrow(BaseError)
    expect(() => constantProductOut(1n, { reserveIn: -1n, reserveOut: 1n })).toThrow(BaseError)
  })
  it('keeps the product, pays less than the pool holds, and pays more for more (property)', () => {
    fc.assert(
      fc.property(pool, fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), (p, a, extra) => {
        const out = constantProductOut(a, p)
        expect(out >= 0n && out < p.reserveOut).toBe(true)
        // net of the fee the product never falls: (rIn*1000 + in*997) * (rOut - out) >= rIn*rOut*1000
        expect((p.reserveIn * 1000n + a * 997n) * (p.reserveOut - out) >= p.reserveIn * p.reserveOut * 1000n).toBe(true)
        // and the output is the largest that keeps it (one unit more would break it)
        if (out + 1n <= p.reserveOut) expect((p.reserveIn * 1000n + a * 997n) * (p.reserveOut - out - 1n) < p.reserveIn * p.reserveOut * 1000n).toBe(true)
        expect(constantProductOut(a + extra, p) >= out).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('bestSplit', () => {
  it('worked examples', () => {
    const deep = { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }
    const shallow = { reserveIn: 100_0000000n, reserveOut: 100_0000000n }
    const s = bestSplit(100_0000000n, deep, shallow)
    expect(s.out).toBe(91_4145202n)
    expect(s.first + s.second).toBe(100_0000000n)
    expect(s.out > constantProductOut(100_0000000n, deep)).toBe(true)
    // a pool with nothing to pay gets nothing
    expect(bestSplit(100n, deep, { reserveIn: 0n, reserveOut: 0n })).toMatchObject({ first: 100n, second: 0n })
    expect(bestSplit(0n, deep, shallow)).toEqual({ first: 0n, second: 0n, out: 0n })
  })
  it('rejects a negative amount', () => {
    expect(() => bestSplit(-1n, { reserveIn: 1n, reserveOut: 1n }, { reserveIn: 1n, reserveOut: 1n })).toThrow(BaseError)
  })
  it('beats either pool alone and every other split, to within the pools rounding (property)', () => {
    fc.assert(
      fc.property(pool, pool, fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b, amount, share) => {
        const s = bestSplit(amount, a, b)
        expect(s.first + s.second).toBe(amount)
        expect(s.first >= 0n && s.second >= 0n).toBe(true)
        expect(s.out).toBe(constantProductOut(s.first, a) + constantProductOut(s.second, b))
        expect(s.out >= constantProductOut(amount, a)).toBe(true)
        expect(s.out >= constantProductOut(amount, b)).toBe(true)
        const x = BigInt(Math.floor(Number(amount) * share))
        const other = constantProductOut(x, a) + constantProductOut(amount - x, b)
        expect(s.out + 2n >= other).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
