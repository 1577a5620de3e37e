import { describe, expect, it } from 'vitest'
import { summaryRun } from '../../../test/sim/riskRuns.js'
import { bootstrapInterval, bootstrapStream } from './bootstrap.js'
import { es99, es99Count, keeperCountOf, pct, pointRisk, RISK_FIGURES, riskFigures, riskStats } from './risk.js'

/**
 * Five runs (seeds 1..5), every figure's input chosen to be hand-computable:
 *
 *   seed  insolvent  borrowed  liquidated  lpReturn  filled missed expired  delay med/p95  slashes  keepers (profit/vault/winRate)
 *   1     0          1000      100          0.01    2      0      1        2 / 3          0        k0 10/20/1
 *   2     50         1000      300         -0.02    4      1      0        – / –          1        k0 0/0/0.5, k1 5/6/0.5
 *   3     10         2000      200          0.03    3      0      0        4 / 9          0        k0 30/40/1
 *   4     200        1000      500         -0.01    1      2      2        6 / 5          2        k0 5/10/0, k1 15/30/1
 *   5     0          0         400          0.02    0      0      0        – / –          0        none
 */
const runs = [
  summaryRun({
    seed: 1,
    summary: { insolventDebt: 0, borrowedStart: 1000, liquidatedCollateral: 100, lpReturn: 0.01, auctions: { created: 3, filled: 2, expired: 1, open: 0 }, missed: 0, fillDelay: { median: 2, p95: 3, max: 3 }, slashes: 0 },
    keepers: [{ profit: 10, vaultProfit: 20, winRate: 1 }],
  }),
  summaryRun({
    seed: 2,
    summary: { insolventDebt: 50, borrowedStart: 1000, liquidatedCollateral: 300, lpReturn: -0.02, auctions: { created: 4, filled: 4, expired: 0, open: 0 }, missed: 1, fillDelay: { median: null, p95: null, max: null }, slashes: 1 },
    keepers: [
      { profit: 0, vaultProfit: 0, winRate: 0.5 },
      { profit: 5, vaultProfit: 6, winRate: 0.5 },
    ],
  }),
  summaryRun({
    seed: 3,
    summary: { insolventDebt: 10, borrowedStart: 2000, liquidatedCollateral: 200, lpReturn: 0.03, auctions: { created: 3, filled: 3, expired: 0, open: 0 }, missed: 0, fillDelay: { median: 4, p95: 9, max: 9 }, slashes: 0 },
    keepers: [{ profit: 30, vaultProfit: 40, winRate: 1 }],
  }),
  summaryRun({
    seed: 4,
    summary: { insolventDebt: 200, borrowedStart: 1000, liquidatedCollateral: 500, lpReturn: -0.01, auctions: { created: 3, filled: 1, expired: 2, open: 0 }, missed: 2, fillDelay: { median: 6, p95: 5, max: 6 }, slashes: 2 },
    keepers: [
      { profit: 5, vaultProfit: 10, winRate: 0 },
      { profit: 15, vaultProfit: 30, winRate: 1 },
    ],
  }),
  summaryRun({
    seed: 5,
    summary: { insolventDebt: 0, borrowedStart: 0, liquidatedCollateral: 400, lpReturn: 0.02, auctions: { created: 0, filled: 0, expired: 0, open: 0 }, missed: 0, fillDelay: { median: null, p95: null, max: null }, slashes: 0 },
  }),
]

const HASH = 'c'.repeat(64)
const POINT = 'keepers.count=2'
const risk = pointRisk(riskFigures(keeperCountOf(runs)), runs, HASH, POINT)
const value = (name: string) => [risk[name]!.value, risk[name]!.n]

describe('risk figures on a hand-computed sample', () => {
  it('VaR95 and ES99 of bad debt, in USD and as a share of borrowed', () => {
    // insolvent debt sorted 0 0 10 50 200: h = 4 × 0.95 = 3.8 → 50 + 0.8 × 150 = 170; ES99: k = 1 → 200
    expect(value('badDebt.var95')).toEqual([170, 5])
    expect(value('badDebt.es99')).toEqual([200, 5])
    // shares 0, 0.05, 0.005, 0.2 (seed 5 borrowed nothing: left out), sorted 0 0.005 0.05 0.2:
    // h = 3 × 0.95 = 2.85 → 0.05 + 0.85 × 0.15 = 0.1775; ES99 = 0.2
    expect(value('badDebtShare.var95')).toEqual([0.1775, 4])
    expect(value('badDebtShare.es99')).toEqual([0.2, 4])
  })

  it('LaR95 of liquidated collateral', () => {
    // 100 200 300 400 500: h = 3.8 → 400 + 0.8 × 100 = 480
    expect(value('liquidated.lar95')).toEqual([480, 5])
  })

  it('LP return percentiles and P(loss)', () => {
    // sorted −0.02 −0.01 0.01 0.02 0.03: p5 h = 0.2 → −0.02 + 0.2 × 0.01; p50 = 0.01; p95 h = 3.8 → 0.02 + 0.8 × 0.01
    expect(value('lpReturn.p5')).toEqual([-0.018, 5])
    expect(value('lpReturn.p50')).toEqual([0.01, 5])
    expect(value('lpReturn.p95')).toEqual([0.028, 5])
    // two of five runs lost
    expect(value('lpReturn.pLoss')).toEqual([0.4, 5])
  })

  it('auction means, fill delays over the runs that filled, slashes', () => {
    expect(value('auctions.filled')).toEqual([2, 5])
    expect(value('auctions.missed')).toEqual([0.6, 5])
    expect(value('auctions.expired')).toEqual([0.6, 5])
    // run medians 2, 4, 6 → their median 4; run p95s 3, 9, 5 → sorted 3 5 9, h = 1.9 → 5 + 0.9 × 4 = 8.6
    expect(value('fillDelay.p50')).toEqual([4, 3])
    expect(value('fillDelay.p95')).toEqual([8.6, 3])
    expect(value('slashes')).toEqual([0.6, 5])
  })

  it('per-keeper means by keeper index, over the runs that had that keeper', () => {
    expect(keeperCountOf(runs)).toBe(2)
    expect(value('keeper.0.profit')).toEqual([11.25, 4])
    expect(value('keeper.0.vaultProfit')).toEqual([17.5, 4])
    expect(value('keeper.0.winShare')).toEqual([0.625, 4])
    expect(value('keeper.1.profit')).toEqual([10, 2])
    expect(value('keeper.1.vaultProfit')).toEqual([18, 2])
    expect(value('keeper.1.winShare')).toEqual([0.75, 2])
  })

  it('lists the fixed figures, then three per keeper index, in one order for every point', () => {
    expect(Object.keys(risk)).toEqual([...RISK_FIGURES.map((f) => f.name), 'keeper.0.profit', 'keeper.0.vaultProfit', 'keeper.0.winShare', 'keeper.1.profit', 'keeper.1.vaultProfit', 'keeper.1.winShare'])
  })
})

describe('risk intervals', () => {
  it('are the seeded bootstrap of the runs’ values in seed order, keyed by scenario, point and figure', () => {
    const f = RISK_FIGURES.find((x) => x.name === 'badDebt.var95')!
    const ci = bootstrapInterval([0, 50, 10, 200, 0], pct(0.95), bootstrapStream(HASH, POINT, 'badDebt.var95'))!
    expect([risk['badDebt.var95']!.lo, risk['badDebt.var95']!.hi]).toEqual([ci.lo, ci.hi])
    expect(ci.lo).toBeLessThanOrEqual(170)
    expect(ci.hi).toBeLessThanOrEqual(200)
    // the same runs always give the same bytes; another point id draws another stream
    expect(riskStats(f, runs, HASH, POINT)).toEqual(risk['badDebt.var95'])
    expect(riskStats(f, [...runs, ...runs], HASH, 'other')).not.toEqual(riskStats(f, [...runs, ...runs], HASH, POINT))
  })

  it('keep P(loss) inside 0..1, on multiples of 1/n', () => {
    const p = risk['lpReturn.pLoss']!
    expect(p.lo! >= 0 && p.lo! <= 0.4 && p.hi! >= 0.4 && p.hi! <= 1).toBe(true)
    // no run had a pLoss of other than 0 or 1: the resample shares are k/5
    expect(Number.isInteger(p.lo! * 5) && Number.isInteger(p.hi! * 5)).toBe(true)
  })

  it('are null with one run, and everything is null with none', () => {
    const one = pointRisk(RISK_FIGURES, runs.slice(0, 1), HASH, POINT)
    expect(one['liquidated.lar95']).toEqual({ value: 100, lo: null, hi: null, n: 1 })
    expect(pointRisk(RISK_FIGURES, [], HASH, POINT)['badDebt.var95']).toEqual({ value: null, lo: null, hi: null, n: 0 })
    // keeper 1 exists in two runs only: its interval rests on two seeds
    expect(risk['keeper.1.profit']!.n).toBe(2)
    expect(risk['keeper.1.profit']!.lo).not.toBeNull()
  })
})

describe('ES99', () => {
  it('averages the k = max(1, ceil(n / 100)) largest values', () => {
    expect([1, 99, 100, 101, 200, 201, 300].map(es99Count)).toEqual([1, 1, 1, 2, 2, 3, 3])
    expect(es99([1, 2, 3])).toBe(3)
    // 150 values 1..150: k = 2 → (149 + 150) / 2
    expect(es99(Array.from({ length: 150 }, (_, i) => i + 1))).toBe(149.5)
  })
})
