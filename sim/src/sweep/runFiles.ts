/**
 * The per-run files a sweep keeps next to each run's report: `summary.json` when the run
 * finished, `error.json` when it threw or its worker died. The aggregate is computed from
 * these files alone (never from reports held in memory), which is what lets `merge` of shard
 * directories reproduce a single machine's aggregate byte for byte.
 *
 *   <out>/runs/<job key>/report.json, timeseries.csv, report.html, keepers.log   (the run)
 *   <out>/runs/<job key>/summary.json                                           (finished)
 *   <out>/runs/<job key>/error.json                                             (failed)
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { KeeperResult, Report, Summary } from '../report/types.js'
import type { Override } from '../scenario/load.js'
import type { SweepJob } from './grid.js'

export const RUNS_DIR = 'runs'
export const SUMMARY_FILE = 'summary.json'
export const ERROR_FILE = 'error.json'

/** What identifies a run in its files. */
export interface RunIdentity {
  key: string
  point: string
  overrides: Override[]
  seed: number
}

/** summary.json: the run's summary and a compact line per keeper. */
export interface RunSummaryFile extends RunIdentity {
  /** SHA-256 of the resolved scenario the run used. */
  scenarioHash: string
  summary: Summary
  keepers: Pick<
    KeeperResult,
    'index' | 'name' | 'path' | 'minProfit' | 'wins' | 'losses' | 'missed' | 'unprofitable' | 'abandoned' | 'profit' | 'vaultProfit' | 'winRate' | 'feesPaid' | 'crashed' | 'slashed'
  >[]
}

/** error.json: why a run produced no summary. */
export interface RunErrorFile extends RunIdentity {
  /** `error`: the run threw; `crash`: its worker process died during the run. */
  kind: 'error' | 'crash'
  message: string
  stack?: string
  /** The worker's last output lines (crashes only). */
  output?: string
  /** Attempts made (present when the run was retried). */
  attempts?: number
  /** Why the attempts before the last one failed (present when the run was retried). */
  earlier?: RunAttempt[]
}

/** A failed attempt of a run that was tried again. */
export interface RunAttempt {
  kind: RunErrorFile['kind']
  message: string
}

/** What a run directory holds: a finished run, a failed one, or nothing yet. */
export type RunRecord = { ok: true; file: RunSummaryFile } | { ok: false; file: RunErrorFile }

export function runDir(outDir: string, key: string): string {
  return join(outDir, RUNS_DIR, key)
}

export function identityOf(job: SweepJob): RunIdentity {
  return { key: job.key, point: job.point.id, overrides: job.point.overrides, seed: job.seed }
}

/** The summary file's content for a finished run. */
export function summaryFileOf(job: SweepJob, report: Report): RunSummaryFile {
  return {
    ...identityOf(job),
    scenarioHash: report.scenario.hash,
    summary: report.summary,
    keepers: report.keepers.map((k) => ({
      index: k.index,
      name: k.name,
      path: k.path,
      minProfit: k.minProfit,
      wins: k.wins,
      losses: k.losses,
      missed: k.missed,
      unprofitable: k.unprofitable,
      abandoned: k.abandoned,
      profit: k.profit,
      vaultProfit: k.vaultProfit,
      winRate: k.winRate,
      feesPaid: k.feesPaid,
      crashed: k.crashed,
      slashed: k.slashed,
    })),
  }
}

/** Writes through a temporary file and a rename, so a half-written file never looks finished. */
async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const tmp = `${path}.tmp`
  await writeFile(tmp, JSON.stringify(value, null, 2) + '\n')
  await rename(tmp, path)
}

/** Records a finished run (and drops an error left by an earlier attempt). */
export async function writeRunSummary(dir: string, file: RunSummaryFile): Promise<void> {
  await rm(join(dir, ERROR_FILE), { force: true })
  await writeJsonAtomic(join(dir, SUMMARY_FILE), file)
}

/** Records a failed run (and drops a summary left by an earlier attempt). */
export async function writeRunError(dir: string, file: RunErrorFile): Promise<void> {
  await rm(join(dir, SUMMARY_FILE), { force: true })
  await writeJsonAtomic(join(dir, ERROR_FILE), file)
}

/** Forgets a run's outcome before it runs again. */
export async function clearRunRecord(dir: string): Promise<void> {
  await rm(join(dir, SUMMARY_FILE), { force: true })
  await rm(join(dir, ERROR_FILE), { force: true })
}

/** Reads a run directory's outcome; undefined when it has neither file. A summary wins over an error. */
export async function readRunRecord(dir: string): Promise<RunRecord | undefined> {
  const summary = join(dir, SUMMARY_FILE)
  if (existsSync(summary)) return { ok: true, file: JSON.parse(await readFile(summary, 'utf8')) as RunSummaryFile }
  const error = join(dir, ERROR_FILE)
  if (existsSync(error)) return { ok: false, file: JSON.parse(await readFile(error, 'utf8')) as RunErrorFile }
  return undefined
}

/** Where each job's record was found across sweep directories. */
export interface CollectedRuns {
  /** Per job index: the record and the directory it came from (absent: found nowhere). */
  records: Map<number, { record: RunRecord; dir: string }>
  /** Jobs recorded in more than one directory. */
  duplicates: { job: SweepJob; dirs: string[] }[]
}

/** Looks up every job in every directory's `runs/`. */
export async function collectRuns(dirs: readonly string[], jobs: readonly SweepJob[]): Promise<CollectedRuns> {
  const records: CollectedRuns['records'] = new Map()
  const duplicates: CollectedRuns['duplicates'] = []
  for (const job of jobs) {
    const found: { record: RunRecord; dir: string }[] = []
    for (const dir of dirs) {
      const record = await readRunRecord(runDir(dir, job.key))
      if (record) found.push({ record, dir })
    }
    if (found.length > 1) duplicates.push({ job, dirs: found.map((f) => f.dir) })
    if (found[0]) records.set(job.index, found[0])
  }
  return { records, duplicates }
}
