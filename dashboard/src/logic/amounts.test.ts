import { describe, expect, it } from 'vitest'
import { AMOUNT_HINT, AmountInputError, formatAmount, parseAmount, parseAmountOrThrow } from './amounts.js'

describe('parseAmount', () => {
  it('reads whole and fractional amounts exactly', () => {
    expect(parseAmount('100')).toEqual({ ok: true, value: 1_000_000_000n })
    expect(parseAmount('0.5')).toEqual({ ok: true, value: 5_000_000n })
    expect(parseAmount(' .5 ')).toEqual({ ok: true, value: 5_000_000n })
    expect(parseAmount('5.')).toEqual({ ok: true, value: 50_000_000n })
    expect(parseAmount('0.0000001')).toEqual({ ok: true, value: 1n })
    expect(parseAmount('1234.5678901')).toEqual({ ok: true, value: 12_345_678_901n })
    expect(parseAmount('123456789012345678901234.1234567')).toEqual({ ok: true, value: 1_234_567_890_123_456_789_012_341_234_567n })
  })

  it('rejects what is not an amount with words', () => {
    const err = (t: string) => {
      const r = parseAmount(t)
      return r.ok ? 'ok' : r.error
    }
    expect(err('')).toBe('Enter an amount.')
    expect(err('0')).toBe('The amount must be greater than zero.')
    expect(err('0.0000000')).toBe('The amount must be greater than zero.')
    expect(err('-1')).toBe('The amount must be greater than zero.')
    expect(err('0.00000001')).toBe('At most 7 decimal places (the token has 7).')
    expect(err('1e3')).toMatch(/^Enter a number such as 100 or 0.5/)
    expect(err('1.2.3')).toMatch(/^Enter a number/)
    expect(err('.')).toMatch(/^Enter a number/)
    expect(err('1 000')).toMatch(/^Enter a number/)
    expect(err('abc')).toMatch(/^Enter a number/)
    expect(err('9'.repeat(40))).toBe('The amount is too large.')
  })

  it('refuses a “,” in words instead of reading 1,000 as a thousand or as one', () => {
    for (const t of ['1,000', '1,5', '12,34', '1,234.5678901']) {
      expect(parseAmount(t)).toEqual({ ok: false, error: `Type the amount without “,”: 1000 for a thousand, 1.5 for one and a half (not “${t}”).` })
    }
    expect(AMOUNT_HINT).toMatch(/no “,”/)
  })

  it('throws an AmountInputError from the OrThrow form', () => {
    expect(parseAmountOrThrow('2')).toBe(20_000_000n)
    expect(() => parseAmountOrThrow('x')).toThrow(AmountInputError)
  })
})

describe('formatAmount', () => {
  it('shows all 7 decimals with thousands separators', () => {
    expect(formatAmount(12_345_678_901n)).toBe('1,234.5678901')
    expect(formatAmount(0n)).toBe('0.0000000')
    expect(formatAmount(9_999_999_000n)).toBe('999.9999000')
    expect(formatAmount(1_000_000_000_000_000n)).toBe('100,000,000.0000000')
    expect(formatAmount(-5n)).toBe('-0.0000005')
  })

  it('round-trips through parseAmount without separators', () => {
    for (const v of [1n, 5_000_000n, 12_345_678_901n, 10n ** 30n + 7n]) {
      expect(parseAmount(formatAmount(v, { group: false }))).toEqual({ ok: true, value: v })
    }
  })
})
