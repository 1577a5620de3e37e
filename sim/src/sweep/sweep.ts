/**
 * `sweep`: one scenario over a grid of `--set` values × a range of seeds, run on worker
 * processes, each run in its own directory, then aggregated per grid point.
 *
 *   <out>/sweep.json                   the manifest (scenario file + hash, grid, seeds, shard)
 *   <out>/runs/<job key>/…             each run: report.json, timeseries.csv, report.html,
 *                                      keepers.log, and summary.json or error.json
 *   <out>/aggregate.json|csv|html      per grid point: mean, p5, p95, n of every figure
 *
 * With `checkDeterminism: N` every run also writes its determinism trace (trace.jsonl) and N
 * finished runs are run again afterwards and compared (sim/src/determinism/sweepCheck.ts).
 *
 * Every grid point is loaded (and so validated) before the first run. Starting a sweep again
 * in the same directory resumes it: runs with a summary.json are kept, failed and missing ones
 * run again (`resume: false` runs everything again; `resume: 'required'`, the CLI's `--resume`,
 * also refuses a directory with no sweep to resume). A directory holding a different sweep
 * is refused.
 */
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import type { SweepCheckResult } from '../determinism/sweepCheck.js'
import { computeAggregate, type SweepAggregate } from './aggregate.js'
import { writeAggregate } from './writeAggregate.js'
import { expandGrid, expandJobs, parseSets, seedList, SweepError, validateGrid } from './grid.js'
import { buildManifest, describeShard, readManifest, sweepDifferences, writeManifest } from './manifest.js'
import { runPool } from './pool.js'
import { createProgress, type ProgressMode } from './progress.js'
import { RUNNER_ENV } from './protocol.js'
import { collectRuns, type RunErrorFile, type RunRecord } from './runFiles.js'
import { formatShard, parseShard, selectShard, type Shard } from './shard.js'
import { describeTables, writeTables } from './tables.js'

export interface SweepOptions {
  /** The scenario file. */
  file: string
  /** `path=v1,v2,...` per swept parameter (the CLI's `--set`); the first varies slowest. */
  sets?: readonly string[]
  /** Seeds per grid point (`--seeds`). */
  seeds: number
  /** The first seed (`--seed-base`, default 1). */
  seedBase?: number
  /** Worker processes (`--workers`, default os.availableParallelism()). */
  workers?: number
  /** Output directory (`--out`, default runs/sweep-<scenario name>[-shard-<i>of<N>]). */
  out?: string
  /** `i/N` with 0 <= i < N (`--shard`): only the jobs whose index is i modulo N. */
  shard?: string | Shard
  /** Keep runs already finished in `out` (default true); 'required': and there must be a sweep there. */
  resume?: boolean | 'required'
  /** A module exporting `runScenario` to run jobs with (default sim/src/run.ts, or $SIM_SWEEP_RUNNER). */
  runner?: string
  /** Runs per worker process before it is replaced (default 50, see pool.ts). */
  runsPerWorker?: number
  /**
   * Re-run this many of the finished runs afterwards (a sample seeded by the seed base) and
   * compare them with the stored ones (`--check-determinism N`); every run records its
   * determinism trace (trace.jsonl) for it. At most the number of jobs of this directory.
   */
  checkDeterminism?: number
  /** Progress on stderr: a bar on a terminal, lines otherwise ('auto', the default). */
  progress?: ProgressMode
  /** Where progress and log lines go (default process.stderr). */
  stream?: NodeJS.WritableStream & { isTTY?: boolean }
  log?: (line: string) => void
}

export interface SweepResult {
  outDir: string
  /** What aggregate.json holds. */
  aggregate: SweepAggregate
  /** Every failed run of this directory (error.json contents), in job order. */
  failed: RunErrorFile[]
  /** The determinism check's outcome (with `checkDeterminism`). */
  determinism?: SweepCheckResult
}

function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new SweepError(`--${name} must be an integer >= 1, got ${v}`)
  return v
}

export async function runSweep(opts: SweepOptions): Promise<SweepResult> {
  const stream = opts.stream ?? process.stderr
  const log = opts.log ?? (opts.progress === 'none' ? () => {} : (line: string) => void stream.write(`${line}\n`))
  const params = parseSets(opts.sets ?? [])
  const seedBase = opts.seedBase ?? 1
  const seeds = seedList(seedBase, opts.seeds)
  // A Shard object goes through the same checks as the CLI's text.
  const shard = opts.shard === undefined ? null : parseShard(typeof opts.shard === 'string' ? opts.shard : formatShard(opts.shard))
  const workers = positiveInt('workers', opts.workers ?? availableParallelism())
  let fileText: Buffer
  try {
    fileText = readFileSync(opts.file)
  } catch (err) {
    throw new SweepError(`${opts.file}: cannot read the scenario file: ${(err as Error).message}`)
  }

  const points = expandGrid(params)
  const loaded = validateGrid(opts.file, points)
  const jobs = expandJobs(points, seeds)
  const mine = selectShard(jobs, shard ?? undefined)
  const check = opts.checkDeterminism
  if (check !== undefined) {
    positiveInt('check-determinism', check)
    if (check > mine.length) throw new SweepError(`--check-determinism ${check}: more than the ${mine.length} run(s) of this ${shard ? 'shard' : 'sweep'}`)
  }
  const name = loaded[0]!.scenario.name
  const outDir = resolve(opts.out ?? join('runs', `sweep-${name}${shard ? `-shard-${shard.index}of${shard.count}` : ''}`))
  const manifest = buildManifest({ file: opts.file, fileText, loaded, grid: params, points, seeds: { base: seedBase, count: seeds.length }, shard, jobs: mine.length })

  const previous = await readManifest(outDir)
  if (previous !== undefined) {
    const diff = sweepDifferences(previous, manifest)
    if (JSON.stringify(previous.shard) !== JSON.stringify(shard)) diff.push(`shard differs (${describeShard(previous)} vs ${describeShard(manifest)})`)
    if (diff.length > 0) throw new SweepError(`${outDir} holds a different sweep (${diff.join('; ')}); choose another --out`)
  }
  if (previous === undefined && opts.resume === 'required') throw new SweepError(`${outDir} holds no sweep to resume (no sweep.json); leave out --resume to start one`)
  await mkdir(outDir, { recursive: true })
  await writeManifest(outDir, manifest)

  const kept = new Set<number>()
  if (opts.resume !== false) for (const [i, r] of (await collectRuns([outDir], mine)).records) if (r.record.ok) kept.add(i)
  const todo = mine.filter((j) => !kept.has(j.index))
  const runner = opts.runner ?? process.env[RUNNER_ENV]
  const n = Math.min(workers, Math.max(1, todo.length))
  log(
    `${name}: ${points.length} grid point(s) × ${seeds.length} seed(s) = ${jobs.length} run(s)` +
      `${shard ? `, shard ${formatShard(shard)}: ${mine.length}` : ''}` +
      `${todo.length < mine.length ? `, ${mine.length - todo.length} already done` : ''}; ${todo.length} to run on ${n} worker(s) → ${outDir}`,
  )

  const progress = createProgress(todo.length, opts.progress, stream)
  try {
    await runPool({
      jobs: todo,
      loaded,
      outDir,
      workers: n,
      ...(opts.runsPerWorker !== undefined ? { runsPerWorker: opts.runsPerWorker } : {}),
      ...(runner !== undefined ? { runner: resolve(runner) } : {}),
      ...(check !== undefined ? { trace: true } : {}),
      onRetry: (r, attempt) => log(`${r.job.key}: attempt ${attempt} failed (${r.file.kind}: ${r.file.message.split('\n')[0]}); running it once more`),
      onResult: (r) => progress.done({ key: r.job.key, ok: r.ok, seconds: r.seconds, ...(r.ok ? {} : { message: r.file.message }) }),
    })
  } finally {
    progress.stop()
  }

  const { records } = await collectRuns([outDir], mine)
  const byIndex = new Map<number, RunRecord>([...records].map(([i, r]) => [i, r.record]))
  const aggregate = computeAggregate(manifest, mine, byIndex)
  const paths = await writeAggregate(aggregate, outDir)
  const tables = await writeTables(outDir, manifest, mine, records)
  const failed = mine.flatMap((j) => {
    const r = byIndex.get(j.index)
    return r !== undefined && !r.ok ? [r.file] : []
  })
  log(`${aggregate.points.reduce((k, p) => k + p.runs, 0)} finished, ${failed.length} failed; ${paths.html}`)
  log(describeTables(tables))
  if (check === undefined) return { outDir, aggregate, failed }
  // Loaded only here: the re-runs pull in the SDK, which the sweep's parent process otherwise never needs.
  const { checkSweepDeterminism } = await import('../determinism/sweepCheck.js')
  const determinism = await checkSweepDeterminism({
    outDir,
    finished: mine.filter((j) => byIndex.get(j.index)?.ok === true),
    loaded,
    count: check,
    sampleSeed: seedBase,
    ...(runner !== undefined ? { runner: resolve(runner) } : {}),
    log,
  })
  return { outDir, aggregate, failed, determinism }
}
