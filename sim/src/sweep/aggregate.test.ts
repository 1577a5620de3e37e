import { describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { aggregateCsv, aggregateJson, computeAggregate } from './aggregate.js'
import { expandGrid, expandJobs, parseSets, seedList, type SweepJob } from './grid.js'
import type { SweepManifest } from './manifest.js'
import type { RunRecord } from './runFiles.js'

const grid = parseSets(['keepers.count=1,2', 'keepers.path=atomic,two-step'])
const points = expandGrid(grid)
const jobs = expandJobs(points, seedList(1, 3))

const manifest: SweepManifest = {
  schemaVersion: 1,
  scenario: { file: 'sim/scenarios/x.yaml', name: 'x', hash: 'f'.repeat(64) },
  grid,
  points: points.map((p) => ({ id: p.id, hash: p.id })),
  seeds: { base: 1, count: 3 },
  shard: null,
  jobs: jobs.length,
}

/** A finished run whose lpReturn is `lp` and whose fill delay median is `delay`. */
function ok(job: SweepJob, lp: number, delay: number | null): RunRecord {
  const summary = { ...reportFixture().summary, lpReturn: lp, fillDelay: { median: delay, p95: delay, max: delay } }
  return { ok: true, file: { key: job.key, point: job.point.id, overrides: job.point.overrides, seed: job.seed, scenarioHash: '', summary, keepers: [] } }
}

function failed(job: SweepJob): RunRecord {
  return { ok: false, file: { key: job.key, point: job.point.id, overrides: job.point.overrides, seed: job.seed, kind: 'error', message: 'boom' } }
}

describe('computeAggregate', () => {
  const records = new Map<number, RunRecord>()
  // point 0: three runs; point 1: one failed, one missing; point 2: one run; point 3: nothing finished
  records.set(0, ok(jobs[0]!, 0.03, 4))
  records.set(1, ok(jobs[1]!, 0.01, null))
  records.set(2, ok(jobs[2]!, 0.02, 2))
  records.set(3, ok(jobs[3]!, 0.5, 1))
  records.set(4, failed(jobs[4]!))
  records.set(6, ok(jobs[6]!, -0.1, 3))
  records.set(9, failed(jobs[9]!))
  records.set(10, failed(jobs[10]!))
  records.set(11, failed(jobs[11]!))
  const a = computeAggregate(manifest, jobs, records)

  it('gives each grid point its values, runs, failures and missing seeds', () => {
    expect(a.points.map((p) => [p.id, p.values, p.runs, p.failed, p.missing])).toEqual([
      ['keepers.count=1,keepers.path=atomic', [1, 'atomic'], 3, [], []],
      ['keepers.count=1,keepers.path=two-step', [1, 'two-step'], 1, [2], [3]],
      ['keepers.count=2,keepers.path=atomic', [2, 'atomic'], 1, [], [2, 3]],
      ['keepers.count=2,keepers.path=two-step', [2, 'two-step'], 0, [1, 2, 3], []],
    ])
  })

  it('computes each figure over the seeds that gave a value', () => {
    // lpReturn 0.03, 0.01, 0.02 → sorted 0.01 0.02 0.03: p5 = 0.01 + 0.1 × 0.01, p95 = 0.02 + 0.9 × 0.01
    expect(a.points[0]!.figures['lpReturn']).toEqual({ mean: 0.02, p5: 0.011, p95: 0.029, n: 3 })
    // fill delay 4, null, 2 → two values
    expect(a.points[0]!.figures['fillDelay.median']).toEqual({ mean: 3, p5: 2.1, p95: 3.9, n: 2 })
    expect(a.points[2]!.figures['lpReturn']).toEqual({ mean: -0.1, p5: -0.1, p95: -0.1, n: 1 })
    expect(a.points[3]!.figures['lpReturn']).toEqual({ mean: null, p5: null, p95: null, n: 0 })
  })

  it('does not depend on the order the records arrived in', () => {
    const reversed = new Map([...records].reverse())
    expect(aggregateJson(computeAggregate(manifest, [...jobs].reverse(), reversed))).toBe(aggregateJson(a))
  })

  it('aggregates one shard’s jobs only', () => {
    const shardJobs = jobs.filter((j) => j.index % 2 === 0)
    const s = computeAggregate({ ...manifest, shard: { index: 0, count: 2 } }, shardJobs, records)
    expect(s.shard).toEqual({ index: 0, count: 2 })
    expect(s.points.map((p) => [p.runs, p.failed, p.missing])).toEqual([
      [2, [], []],
      [0, [2], []],
      [1, [], [3]],
      [0, [2], []],
    ])
  })

  it('writes a CSV row per grid point with four columns per figure and per risk figure', () => {
    const lines = aggregateCsv(a).trimEnd().split('\n')
    expect(lines).toHaveLength(5)
    const head = lines[0]!.split(',')
    expect(head.slice(0, 6)).toEqual(['point', 'keepers.count', 'keepers.path', 'runs', 'failed', 'missing'])
    expect(head.slice(6, 10)).toEqual(['lpReturn.mean', 'lpReturn.p5', 'lpReturn.p95', 'lpReturn.n'])
    expect(head).toHaveLength(6 + 4 * a.figures.length + 4 * a.risk.figures.length)
    const risk = 6 + 4 * a.figures.length
    expect(head.slice(risk, risk + 4)).toEqual(['risk.badDebt.var95.value', 'risk.badDebt.var95.lo', 'risk.badDebt.var95.hi', 'risk.badDebt.var95.n'])
    expect(lines[1]!.startsWith('"keepers.count=1,keepers.path=atomic",1,atomic,3,0,0,0.02,0.011,0.029,3,')).toBe(true)
    // no value: empty cells, n = 0
    expect(lines[4]!.startsWith('"keepers.count=2,keepers.path=two-step",2,two-step,0,3,0,,,,0,')).toBe(true)
    expect(lines[4]!.endsWith(',,,,0')).toBe(true)
  })

  it('serialises with a fixed key order and no environment-dependent fields', () => {
    const json = aggregateJson(a)
    expect(Object.keys(JSON.parse(json) as object)).toEqual(['schemaVersion', 'scenario', 'params', 'seeds', 'shard', 'percentiles', 'figures', 'risk', 'points'])
    expect(json).not.toMatch(/x\.yaml/)
    expect(json.endsWith('}\n')).toBe(true)
  })
})
