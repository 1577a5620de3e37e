/**
 * Parameter sweeps: a scenario over a grid of `--set` values × seeds on worker processes
 * (`runSweep`), split over machines with `--shard i/N` and combined with `mergeSweeps`.
 * Output layout and file formats: sweep.ts, runFiles.ts, aggregate.ts, manifest.ts.
 */
import { merge, type MergeOptions, type MergeResult } from './merge.js'

export { runSweep, type SweepOptions, type SweepResult } from './sweep.js'
export { merge, type MergeOptions, type MergeResult } from './merge.js'
export { parseSets, expandGrid, expandJobs, seedList, jobKey, validateGrid, SweepError, type SweepParam, type GridPoint, type SweepJob } from './grid.js'
export { parseShard, formatShard, selectShard, type Shard } from './shard.js'
export { computeAggregate, aggregateJson, aggregateCsv, PERCENTILE_METHOD, type SweepAggregate, type AggregatePoint } from './aggregate.js'
export { writeAggregate, type AggregatePaths } from './writeAggregate.js'
export { writeTables, describeTables, TABLE_NAMES, TABLES_SCHEMA_VERSION, type TableFiles } from './tables.js'
export { aggregateHtml } from './aggregateHtml.js'
export { FIGURES, figureStats, percentile, type FigureStats } from './stats.js'
export { MANIFEST_FILE, readManifest, type SweepManifest } from './manifest.js'
export { RUNS_DIR, SUMMARY_FILE, ERROR_FILE, runDir, type RunSummaryFile, type RunErrorFile } from './runFiles.js'
export { RUNNER_ENV } from './protocol.js'
export type { ProgressMode } from './progress.js'

/** Merges shard directories of one sweep into `out` (see merge.ts). */
export function mergeSweeps(dirs: readonly string[], out: string, opts: MergeOptions = {}): Promise<MergeResult> {
  return merge(dirs, out, opts)
}
