import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { APY_MIN_SPAN_SECONDS, apyDisplay } from './apyDisplay.js'
import { formatPercent } from './formatPercent.js'

const DAY = 86_400

describe('formatPercent', () => {
  it('two decimals, em-dash when missing', () => {
    expect(formatPercent(0.1234)).toBe('12.34%')
    expect(formatPercent(-0.032)).toBe('-3.20%')
    expect(formatPercent(-0.000001)).toBe('0.00%')
    expect(formatPercent(null)).toBe('—')
    expect(formatPercent(undefined)).toBe('—')
    expect(formatPercent(Number.NaN)).toBe('—')
  })
})

describe('apyDisplay', () => {
  it('under 7 days: cumulative, not annualized', () => {
    const r = apyDisplay([{ timestamp: 0, price: 10_000_000n }, { timestamp: DAY, price: 10_040_000n }])
    expect(r).toMatchObject({ kind: 'cumulative', spanSeconds: DAY, text: '0.40% cumulative' })
    expect(r.value).toBeCloseTo(0.004, 12)
  })
  it('exactly 7 days: annualized', () => {
    // 1.001 over 7 days -> 1.001^(365/7) - 1 = 5.3529..%
    const r = apyDisplay([{ timestamp: 100, price: 10_000_000n }, { timestamp: 100 + 7 * DAY, price: 10_010_000n }])
    expect(r.kind).toBe('annualized')
    expect(r.value).toBeCloseTo(1.001 ** (365 / 7) - 1, 12)
    expect(r.text).toBe('5.35% APY')
  })
  it('a full year of 5 % growth is 5 % APY; a loss is negative; order of points does not matter', () => {
    expect(apyDisplay([{ timestamp: 365 * DAY, price: 10_500_000n }, { timestamp: 0, price: 10_000_000n }]).text).toBe('5.00% APY')
    expect(apyDisplay([{ timestamp: 0, price: 10_000_000n }, { timestamp: 3 * DAY, price: 9_680_000n }]).text).toBe('-3.20% cumulative')
  })
  it('missing values render as an em-dash', () => {
    expect(apyDisplay([]).text).toBe('—')
    expect(apyDisplay([{ timestamp: 0, price: 10_000_000n }]).text).toBe('—')
    expect(apyDisplay([{ timestamp: 5, price: 10_000_000n }, { timestamp: 5, price: 11_000_000n }]).kind).toBe('missing')
    expect(apyDisplay([{ timestamp: 0, price: 0n }, { timestamp: 30 * DAY, price: 11_000_000n }]).text).toBe('—')
  })
  it('the label follows the span: annualized iff span >= 7 days (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 * DAY }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: 10n ** 9n }), (span, p0, p1) => {
        const r = apyDisplay([{ timestamp: 1_700_000_000, price: p0 }, { timestamp: 1_700_000_000 + span, price: p1 }])
        if (r.kind === 'missing') expect(r.text).toBe('—')
        else {
          expect(r.kind).toBe(span >= APY_MIN_SPAN_SECONDS ? 'annualized' : 'cumulative')
          expect(r.text.endsWith(span >= APY_MIN_SPAN_SECONDS ? ' APY' : ' cumulative')).toBe(true)
          // sign of the return follows the sign of the price change
          if (p1 > p0) expect(r.value! > 0).toBe(true)
          if (p1 < p0) expect(r.value! < 0).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })
})
