/**
 * The aggregate's risk figures from a fake-runner sweep (test/sim/sweepFakeRunner.ts, real
 * worker processes): values hand-computed from `fakeSummary` / `fakeKeepers`, intervals equal to
 * the seeded bootstrap of the runs' values, and the CSV's risk columns.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FAKE_RUNNER, SWEEP_SCENARIO, tempDir } from '../../../test/sim/sweepHelpers.js'
import { AGGREGATE_SCHEMA_VERSION } from './aggregate.js'
import { bootstrapInterval, bootstrapStream } from './bootstrap.js'
import { pct } from './risk.js'
import { runSweep } from './sweep.js'

const tmp = tempDir()
afterAll(tmp.cleanup)

const out = join(tmp.dir, 'risk')
const sweep = runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.count=1,2', 'keepers.minProfit=1.01,1.05'], seeds: 4, seedBase: 1, workers: 2, out, runner: FAKE_RUNNER, progress: 'none' })

describe('the risk figures of a fake-runner sweep', () => {
  it('lists every figure once, with three per keeper index up to the largest keeper count', async () => {
    const a = (await sweep).aggregate
    expect(a.schemaVersion).toBe(2)
    expect(AGGREGATE_SCHEMA_VERSION).toBe(2)
    expect(a.risk.bootstrap).toMatchObject({ resamples: 1000, level: 0.95 })
    expect(a.risk.figures.map((f) => f.name)).toEqual([
      'badDebt.var95',
      'badDebt.es99',
      'badDebtShare.var95',
      'badDebtShare.es99',
      'liquidated.lar95',
      'lpReturn.p5',
      'lpReturn.p50',
      'lpReturn.p95',
      'lpReturn.pLoss',
      'auctions.filled',
      'auctions.missed',
      'auctions.expired',
      'fillDelay.p50',
      'fillDelay.p95',
      'slashes',
      'fees.shareOfVaultProfit',
      'fees.inclusionDelay.p95',
      'keeper.0.profit',
      'keeper.0.vaultProfit',
      'keeper.0.winShare',
      'keeper.1.profit',
      'keeper.1.vaultProfit',
      'keeper.1.winShare',
    ])
    for (const p of a.points) expect(Object.keys(p.risk)).toEqual(a.risk.figures.map((f) => f.name))
  })

  it('computes each value from the seeds’ summaries (2 keepers, minProfit 1.01, seeds 1..4)', async () => {
    const pt = (await sweep).aggregate.points[2]!
    expect(pt.id).toBe('keepers.count=2,keepers.minProfit=1.01')
    const v = (name: string) => [pt.risk[name]!.value, pt.risk[name]!.n]
    // insolvent debt 100·s²/2 = 50 200 450 800: h = 3 × 0.95 = 2.85 → 450 + 0.85 × 350 = 747.5; ES99 = 800
    expect(v('badDebt.var95')).toEqual([747.5, 4])
    expect(v('badDebt.es99')).toEqual([800, 4])
    // ÷ 20,000 borrowed: 0.0025 0.01 0.0225 0.04 → 0.0225 + 0.85 × 0.0175 = 0.037375
    expect(v('badDebtShare.var95')).toEqual([0.037375, 4])
    // liquidated 1,000·s + 20 = 1020 2020 3020 4020 → 3020 + 0.85 × 1000 = 3870
    expect(v('liquidated.lar95')).toEqual([3870, 4])
    // lpReturn 0.0011 0.0021 −0.0019 (seed 3 loses 0.5 %) 0.0041: median of −0.0019 0.0011 0.0021 0.0041 = 0.0016
    expect(v('lpReturn.p50')).toEqual([0.0016, 4])
    expect(v('lpReturn.pLoss')).toEqual([0.25, 4])
    // fills on odd seeds only: medians 1, 3 → 2; p95s 2, 6 → 2 + 0.95 × 4 = 5.8
    expect(v('fillDelay.p50')).toEqual([2, 2])
    expect(v('fillDelay.p95')).toEqual([5.8, 2])
    expect(v('auctions.filled')).toEqual([2.5, 4])
    expect(v('auctions.expired')).toEqual([2, 4])
    expect(v('slashes')).toEqual([0.25, 4])
    // keeper 1's profit 2·s → mean 5; keeper 0 wins every fill on odd seeds and half on even ones
    expect(v('keeper.1.profit')).toEqual([5, 4])
    expect(v('keeper.1.vaultProfit')).toEqual([10, 4])
    expect(v('keeper.0.winShare')).toEqual([0.75, 4])
    // one keeper at point 0: keeper 1 has no value
    expect((await sweep).aggregate.points[0]!.risk['keeper.1.profit']).toEqual({ value: null, lo: null, hi: null, n: 0 })
  })

  it('gives each value the seeded bootstrap interval of its runs', async () => {
    const a = (await sweep).aggregate
    const pt = a.points[2]!
    const ci = bootstrapInterval([50, 200, 450, 800], pct(0.95), bootstrapStream(a.scenario.hash, pt.id, 'badDebt.var95'))!
    expect(pt.risk['badDebt.var95']).toEqual({ value: 747.5, lo: ci.lo, hi: ci.hi, n: 4 })
    expect(ci.lo).toBeLessThan(ci.hi)
  })

  it('writes value, lo, hi and n per risk figure into aggregate.csv', async () => {
    const a = (await sweep).aggregate
    const [head, ...rows] = readFileSync(join(out, 'aggregate.csv'), 'utf8').trimEnd().split('\n')
    const cols = head!.split(',')
    const at = cols.indexOf('risk.badDebt.var95.value')
    expect(cols.slice(at, at + 4)).toEqual(['risk.badDebt.var95.value', 'risk.badDebt.var95.lo', 'risk.badDebt.var95.hi', 'risk.badDebt.var95.n'])
    expect(cols.at(-1)).toBe('risk.keeper.1.winShare.n')
    // the point id is quoted and holds one comma: cells shift by one after splitting on commas
    const cells = rows[2]!.split(',')
    const r = a.points[2]!.risk['badDebt.var95']!
    expect(cells.slice(at + 1, at + 5)).toEqual([String(r.value), String(r.lo), String(r.hi), '4'])
  })
})
