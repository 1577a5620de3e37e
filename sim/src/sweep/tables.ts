/**
 * A sweep's tables, for pandas, polars and DuckDB: written into the sweep directory at the end
 * of a sweep and of a merge, each as Parquet and as CSV (columns: tablesColumns.ts).
 *
 *   <out>/runs.parquet|csv       one row per job (finished, failed or missing)
 *   <out>/auctions.parquet|csv   one row per auction of every finished run
 *   <out>/keepers.parquet|csv    one row per keeper of every finished run
 *
 * Rows are in job order (grid order, seeds ascending), then in the report's order. The runs
 * are read one at a time — the runs table from the records already collected, the auctions and
 * keepers from each run's report.json — so memory does not grow with the sweep. Like the
 * aggregate, the files are deterministic bytes: a merge of shard directories writes exactly
 * what one machine running the whole sweep writes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../report/types.js'
import { SweepError, type SweepJob } from './grid.js'
import type { SweepManifest } from './manifest.js'
import { runDir, type RunRecord } from './runFiles.js'
import { formatShard } from './shard.js'
import { sweepTables } from './tablesColumns.js'
import type { TableName } from './tablesSchema.js'
import { TableWriter, type TablePaths } from './tablesWriter.js'

/** Bumped when a column is renamed, removed or changes type (adding one does not). */
export const TABLES_SCHEMA_VERSION = 1
export const TABLE_NAMES: readonly TableName[] = ['runs', 'auctions', 'keepers']

/** The run's report in its directory (see report/write.ts). */
const REPORT_FILE = 'report.json'

export type TableFiles = Record<TableName, TablePaths>

export interface WriteTablesOptions {
  /** Rows per Parquet row group (default tablesWriter.ts ROW_GROUP_ROWS). */
  rowGroupRows?: number
}

/** Reads a finished run's report; a missing or foreign report is an error, not an empty table. */
async function readReport(dir: string, job: SweepJob): Promise<Report> {
  const path = join(runDir(dir, job.key), REPORT_FILE)
  let report: Report
  try {
    report = JSON.parse(await readFile(path, 'utf8')) as Report
  } catch (err) {
    throw new SweepError(`${path}: cannot read the finished run's report (${(err as Error).message})`)
  }
  if (report.seed !== job.seed) throw new SweepError(`${path}: the report is of seed ${report.seed}, the run's seed is ${job.seed}`)
  return report
}

/**
 * Writes the three tables of `jobs` (one shard's or all) into `outDir`. `records` holds, per job
 * index, the job's record and the sweep directory its run lives in (collectRuns's map); jobs
 * without one are listed in the runs table as missing.
 */
export async function writeTables(
  outDir: string,
  m: SweepManifest,
  jobs: readonly SweepJob[],
  records: ReadonlyMap<number, { record: RunRecord; dir: string }>,
  opts: WriteTablesOptions = {},
): Promise<TableFiles> {
  const specs = sweepTables(m.grid)
  const meta = (table: TableName) => [
    { key: 'sim.table', value: table },
    { key: 'sim.tablesSchemaVersion', value: String(TABLES_SCHEMA_VERSION) },
    { key: 'sim.scenario', value: m.scenario.name },
    { key: 'sim.scenarioFileHash', value: m.scenario.hash },
    { key: 'sim.shard', value: m.shard === null ? 'all' : formatShard(m.shard) },
  ]
  const opened: { abort(): Promise<void> }[] = []
  const track = <W extends { abort(): Promise<void> }>(w: W): W => (opened.push(w), w)
  try {
    const runs = track(await TableWriter.open(outDir, specs.runs, meta('runs'), opts.rowGroupRows))
    const auctions = track(await TableWriter.open(outDir, specs.auctions, meta('auctions'), opts.rowGroupRows))
    const keepers = track(await TableWriter.open(outDir, specs.keepers, meta('keepers'), opts.rowGroupRows))
    for (const job of [...jobs].sort((a, b) => a.index - b.index)) {
      const found = records.get(job.index)
      const point = m.points[job.point.index]
      if (point === undefined) throw new SweepError(`job ${job.key}: grid point ${job.point.index} is not in the manifest`)
      await runs.add({ job, pointHash: point.hash, record: found?.record })
      if (found === undefined || !found.record.ok) continue
      const report = await readReport(found.dir, job)
      for (const auction of report.auctions) await auctions.add({ job, auction })
      for (const keeper of report.keepers) await keepers.add({ job, keeper })
    }
    return { runs: await runs.finish(), auctions: await auctions.finish(), keepers: await keepers.finish() }
  } catch (err) {
    for (const w of opened) await w.abort()
    throw err
  }
}

/** The log line naming the tables written. */
export function describeTables(files: TableFiles): string {
  return `tables: ${TABLE_NAMES.map((t) => files[t].parquet).join(', ')} (and .csv beside each)`
}
