/**
 * A sweep's aggregate: per grid point, every figure of stats.ts over the point's seeds and the
 * risk figures of risk.ts with their seeded bootstrap intervals, built from the runs' summary
 * files alone. aggregate.json and aggregate.csv are deterministic bytes
 * (grid order, seeds ascending, fixed key order, no times or paths), so a merge of shard
 * directories writes exactly what one machine running the whole sweep writes.
 */
import { csvNumber } from '../report/csv.js'
import { expandGrid, formatValue, type SweepJob, type SweepParam } from './grid.js'
import type { SweepManifest } from './manifest.js'
import { BOOTSTRAP_LEVEL, BOOTSTRAP_RESAMPLES, BOOTSTRAP_STREAM } from './bootstrap.js'
import { keeperCountOf, pointRisk, riskFigureInfo, riskFigures, type RiskFigureInfo, type RiskStats } from './risk.js'
import type { RunRecord, RunSummaryFile } from './runFiles.js'
import type { Shard } from './shard.js'
import { FIGURES, figureStats, type FigureStats } from './stats.js'

export const AGGREGATE_SCHEMA_VERSION = 2
export const PERCENTILE_METHOD = 'linear interpolation between closest ranks (Hyndman-Fan type 7): h = (n-1)p, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])'
export const BOOTSTRAP_METHOD = 'percentile bootstrap: resample the runs that gave a value (n of them) with replacement, n draws per resample, statistic per resample; interval = type-7 percentiles (1-level)/2 and (1+level)/2 of the resample statistics'

export interface AggregatePoint {
  id: string
  /** The point's value of each swept parameter, in `params` order. */
  values: unknown[]
  /** Runs that finished (their summaries are in the statistics). */
  runs: number
  /** Seeds whose run failed (error.json). */
  failed: number[]
  /** Seeds with neither a summary nor an error (the sweep was interrupted). */
  missing: number[]
  figures: Record<string, FigureStats>
  /** Every risk figure (in `risk.figures` order): value, 95 % bootstrap interval, n. */
  risk: Record<string, RiskStats>
}

/** How the risk figures and their intervals were computed, and what each one is. */
export interface RiskMethod {
  bootstrap: { method: string; resamples: number; level: number; stream: string }
  figures: RiskFigureInfo[]
}

export interface SweepAggregate {
  schemaVersion: typeof AGGREGATE_SCHEMA_VERSION
  scenario: { name: string; hash: string }
  params: SweepParam[]
  seeds: { base: number; count: number }
  /** The share of the jobs aggregated; null for the whole sweep. */
  shard: Shard | null
  percentiles: string
  /** Figure names in column order (see stats.ts FIGURES). */
  figures: string[]
  risk: RiskMethod
  points: AggregatePoint[]
}

/**
 * Aggregates the jobs of `jobs` (one shard's or all) from their records (keyed by job index).
 * Points are in grid order; within a point, runs are taken seeds ascending.
 */
export function computeAggregate(m: SweepManifest, jobs: readonly SweepJob[], records: ReadonlyMap<number, RunRecord>): SweepAggregate {
  const byPoint = new Map<number, SweepJob[]>()
  for (const job of jobs) byPoint.set(job.point.index, [...(byPoint.get(job.point.index) ?? []), job])
  const grid = expandGrid(m.grid)
  const perPoint = m.points.map((pt, index) => {
    const mine = [...(byPoint.get(index) ?? [])].sort((a, b) => a.seed - b.seed)
    const runs: RunSummaryFile[] = []
    const failed: number[] = []
    const missing: number[] = []
    for (const job of mine) {
      const r = records.get(job.index)
      if (r === undefined) missing.push(job.seed)
      else if (r.ok) runs.push(r.file)
      else failed.push(job.seed)
    }
    return { pt, index, runs, failed, missing }
  })
  const risk = riskFigures(keeperCountOf(perPoint.flatMap((p) => p.runs)))
  const points: AggregatePoint[] = perPoint.map(({ pt, index, runs, failed, missing }) => {
    const values = grid[index]!.overrides.map((o) => o.value)
    const figures: Record<string, FigureStats> = {}
    for (const f of FIGURES) figures[f.name] = figureStats(runs.map((r) => f.read(r.summary)))
    return { id: pt.id, values, runs: runs.length, failed, missing, figures, risk: pointRisk(risk, runs, m.scenario.hash, pt.id) }
  })
  return {
    schemaVersion: AGGREGATE_SCHEMA_VERSION,
    scenario: { name: m.scenario.name, hash: m.scenario.hash },
    params: m.grid,
    seeds: m.seeds,
    shard: m.shard,
    percentiles: PERCENTILE_METHOD,
    figures: FIGURES.map((f) => f.name),
    risk: {
      bootstrap: { method: BOOTSTRAP_METHOD, resamples: BOOTSTRAP_RESAMPLES, level: BOOTSTRAP_LEVEL, stream: BOOTSTRAP_STREAM },
      figures: risk.map(riskFigureInfo),
    },
    points,
  }
}

/** aggregate.json: two-space indented, keys in a fixed order, a final newline. */
export function aggregateJson(a: SweepAggregate): string {
  return JSON.stringify(a, null, 2) + '\n'
}

/**
 * aggregate.csv: one row per grid point: `point`, one column per swept parameter, `runs`,
 * `failed`, `missing`, then `<figure>.mean`, `.p5`, `.p95`, `.n` per figure, then
 * `risk.<name>.value`, `.lo`, `.hi`, `.n` per risk figure (empty cells for null).
 */
export function aggregateCsv(a: SweepAggregate): string {
  const riskNames = a.risk.figures.map((f) => f.name)
  const head = [
    'point',
    ...a.params.map((p) => p.path),
    'runs',
    'failed',
    'missing',
    ...a.figures.flatMap((f) => [`${f}.mean`, `${f}.p5`, `${f}.p95`, `${f}.n`]),
    ...riskNames.flatMap((f) => [`risk.${f}.value`, `risk.${f}.lo`, `risk.${f}.hi`, `risk.${f}.n`]),
  ]
  const rows = a.points.map((pt) => [
    csvText(pt.id),
    ...pt.values.map((v) => (typeof v === 'number' ? csvNumber(v) : csvText(formatValue(v)))),
    String(pt.runs),
    String(pt.failed.length),
    String(pt.missing.length),
    ...a.figures.flatMap((f) => {
      const s = pt.figures[f]!
      return [csvNumber(s.mean), csvNumber(s.p5), csvNumber(s.p95), String(s.n)]
    }),
    ...riskNames.flatMap((f) => {
      const r = pt.risk[f]!
      return [csvNumber(r.value), csvNumber(r.lo), csvNumber(r.hi), String(r.n)]
    }),
  ])
  return [head.map(csvText), ...rows].map((r) => r.join(',')).join('\n') + '\n'
}

/** A text cell, quoted when it holds a comma, quote or line break (point ids always hold commas when more than one parameter is swept). */
function csvText(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}
