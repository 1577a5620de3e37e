import { describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { FIGURES, figureStats, finiteValues, mean, percentile, tidy } from './stats.js'

describe('percentile (linear interpolation between closest ranks)', () => {
  // Sorted sample 1, 2, 3, 4, 10 (n = 5):
  //   p5:  h = 4 × 0.05 = 0.2 → 1 + 0.2 × (2 − 1)  = 1.2
  //   p95: h = 4 × 0.95 = 3.8 → 4 + 0.8 × (10 − 4) = 8.8
  //   p50: h = 2            → 3
  const sample = [1, 2, 3, 4, 10]

  it('matches the hand-computed figures', () => {
    expect(percentile(sample, 0.05)).toBeCloseTo(1.2, 12)
    expect(percentile(sample, 0.95)).toBeCloseTo(8.8, 12)
    expect(percentile(sample, 0.5)).toBe(3)
    expect(percentile(sample, 0)).toBe(1)
    expect(percentile(sample, 1)).toBe(10)
  })

  it('gives a single value for every percentile', () => {
    expect(percentile([7], 0.05)).toBe(7)
    expect(percentile([7], 0.95)).toBe(7)
  })

  it('rejects no values and p outside 0..1', () => {
    expect(() => percentile([], 0.5)).toThrow(RangeError)
    expect(() => percentile([1], 1.5)).toThrow(RangeError)
  })
})

describe('figureStats', () => {
  it('gives mean, p5, p95 and n, in any input order', () => {
    expect(figureStats([10, 3, 1, 4, 2])).toEqual({ mean: 4, p5: 1.2, p95: 8.8, n: 5 })
  })

  it('leaves out nulls and non-finite values', () => {
    // 20 values 1..20 plus gaps: p5: h = 19 × 0.05 = 0.95 → 1.95; p95: h = 18.05 → 19.05
    const values: (number | null)[] = [null, ...Array.from({ length: 20 }, (_, i) => 20 - i), Number.NaN, null]
    expect(figureStats(values)).toEqual({ mean: 10.5, p5: 1.95, p95: 19.05, n: 20 })
  })

  it('is all null with n = 0 when nothing has a value', () => {
    expect(figureStats([null, null])).toEqual({ mean: null, p5: null, p95: null, n: 0 })
  })

  it('rounds binary noise away (12 significant digits)', () => {
    expect(figureStats([0.1, 0.2]).mean).toBe(0.15)
    expect(tidy(0.1 + 0.2)).toBe(0.3)
    expect(tidy(-0)).toBe(0)
  })
})

describe('mean and finiteValues', () => {
  it('average the values given, and keep the finite ones in order', () => {
    expect(mean([1, 2, 6])).toBe(3)
    expect(() => mean([])).toThrow(RangeError)
    expect(finiteValues([3, null, Number.NaN, -1, Number.POSITIVE_INFINITY, 0])).toEqual([3, -1, 0])
  })
})

describe('FIGURES', () => {
  it('reads every aggregated figure of a summary', () => {
    const s = reportFixture().summary
    expect(Object.fromEntries(FIGURES.map((f) => [f.name, f.read(s)]))).toEqual({
      lpReturn: 0.0012345,
      sharePriceEnd: 1.0012345,
      vaultProfit: 123.4567891,
      'auctions.created': 4,
      'auctions.filled': 2,
      'auctions.expired': 1,
      'auctions.open': 1,
      missed: 1,
      'fillDelay.median': 2.5,
      'fillDelay.p95': 4,
      'fillDelay.max': 4,
      badDebt: 17.25,
      slashes: 1,
      keeperProfit: 58.5,
      peakUtilisation: 0.6,
      replayMismatches: 1,
      auditHolds: 0,
      'fees.keepersXlm': 0.0580245,
      'fees.perWinXlm': 0.0290123,
      'fees.shareOfVaultProfit': 0.000141,
      'fees.inclusionDelay.p50': 0,
      'fees.inclusionDelay.p95': 2,
    })
  })
})
