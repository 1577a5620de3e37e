import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DivisionByZeroError, OverflowError } from '../errors.js'
import { assertI128 } from './assertI128.js'
import { checkedMul } from './checkedMul.js'
import { I128_MAX, I128_MIN } from './constants.js'
import { divRound } from './divRound.js'
import { mulDiv } from './mulDiv.js'

const RUNS = { numRuns: 1000 }
const i128 = fc.bigInt({ min: I128_MIN, max: I128_MAX })
const nonZero = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).filter((d) => d !== 0n)

describe('assertI128', () => {
  it('accepts the bounds and rejects one past them', () => {
    expect(assertI128(I128_MAX)).toBe(I128_MAX)
    expect(assertI128(I128_MIN)).toBe(I128_MIN)
    expect(() => assertI128(I128_MAX + 1n, 'x')).toThrow(OverflowError)
    expect(() => assertI128(I128_MIN - 1n, 'x')).toThrow(OverflowError)
  })
})

describe('checkedMul', () => {
  it('multiplies and throws Overflow past i128', () => {
    expect(checkedMul(-3n, 4n)).toBe(-12n)
    expect(checkedMul(I128_MAX, 1n)).toBe(I128_MAX)
    expect(() => checkedMul(I128_MAX, 2n)).toThrow(OverflowError)
    expect(() => checkedMul(1n << 64n, 1n << 63n)).toThrow(OverflowError)
    expect(checkedMul(1n << 63n, 1n << 63n)).toBe(1n << 126n)
  })
})

describe('divRound', () => {
  it('worked examples for every sign', () => {
    expect(divRound(7n, 2n, 'floor')).toBe(3n)
    expect(divRound(7n, 2n, 'ceil')).toBe(4n)
    expect(divRound(-7n, 2n, 'floor')).toBe(-4n)
    expect(divRound(-7n, 2n, 'ceil')).toBe(-3n)
    expect(divRound(7n, -2n, 'floor')).toBe(-4n)
    expect(divRound(-7n, -2n, 'ceil')).toBe(4n)
    expect(divRound(6n, 3n, 'ceil')).toBe(2n)
    expect(() => divRound(1n, 0n, 'floor')).toThrow(DivisionByZeroError)
  })

  it('floor <= n/d <= ceil, within one of each other (property)', () => {
    fc.assert(
      fc.property(i128, nonZero, (n, d) => {
        const f = divRound(n, d, 'floor')
        const c = divRound(n, d, 'ceil')
        // f*d <= n <= c*d when d > 0 (reversed when d < 0)
        if (d > 0n) expect(f * d <= n && n <= c * d).toBe(true)
        else expect(f * d >= n && n >= c * d).toBe(true)
        expect(c - f).toBe(n % d === 0n ? 0n : 1n)
      }),
      RUNS,
    )
  })
})

describe('mulDiv', () => {
  it('worked examples', () => {
    expect(mulDiv(10n, 3n, 4n, 'floor')).toBe(7n)
    expect(mulDiv(10n, 3n, 4n, 'ceil')).toBe(8n)
    // the intermediate product may exceed i128, the result may not
    expect(mulDiv(I128_MAX, 10n, 10n, 'floor')).toBe(I128_MAX)
    expect(() => mulDiv(I128_MAX, 10n, 9n, 'floor')).toThrow(OverflowError)
    expect(() => mulDiv(1n, 1n, 0n, 'ceil')).toThrow(DivisionByZeroError)
  })

  it('ceil - floor is 0 exactly when the division is exact (property)', () => {
    const small = fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n })
    fc.assert(
      fc.property(small, small, nonZero, (a, b, d) => {
        const f = mulDiv(a, b, d, 'floor')
        const c = mulDiv(a, b, d, 'ceil')
        expect(c - f).toBe((a * b) % d === 0n ? 0n : 1n)
      }),
      RUNS,
    )
  })
})
