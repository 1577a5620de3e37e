/**
 * `merge`: combines the output directories of a sweep's shards (or of several partial
 * attempts) into one sweep directory. The shards must describe the same sweep (scenario file
 * bytes, grid, resolved scenario per point, seeds); every job must be recorded — finished or
 * failed — in exactly one of them. The runs are copied into the output and the aggregate is
 * computed from their summary files, so it is byte-identical to one machine's sweep.
 */
import { cp, mkdir, rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { computeAggregate, type SweepAggregate } from './aggregate.js'
import { writeAggregate } from './writeAggregate.js'
import { SweepError, type SweepJob } from './grid.js'
import { describeShard, manifestJobs, readManifest, sweepDifferences, writeManifest, type SweepManifest } from './manifest.js'
import { collectRuns, runDir, type RunErrorFile, type RunRecord } from './runFiles.js'
import { formatShard } from './shard.js'
import { describeTables, writeTables } from './tables.js'

export interface MergeOptions {
  /** Copy every run directory into `<out>/runs` (default true); false writes only the manifest, the aggregate and the tables. */
  copyRuns?: boolean
  /** Aggregate even when jobs are missing (they are listed per point as `missing`); default false. */
  allowMissing?: boolean
  log?: (line: string) => void
}

export interface MergeResult {
  outDir: string
  aggregate: SweepAggregate
  failed: RunErrorFile[]
}

/** At most `n` items, then how many more. */
function listSome(items: readonly string[], n = 10): string {
  const shown = items.slice(0, n).map((s) => `  ${s}`)
  if (items.length > n) shown.push(`  … and ${items.length - n} more`)
  return shown.join('\n')
}

/** Which of the directories should have held a job (by their shards), for the missing-job message. */
function expectedIn(job: SweepJob, dirs: readonly string[], manifests: readonly SweepManifest[]): string {
  const owners = dirs.filter((_, i) => {
    const s = manifests[i]!.shard
    return s === null || job.index % s.count === s.index
  })
  if (owners.length > 0) return `expected in ${owners.join(', ')} (not finished?)`
  const counts = [...new Set(manifests.map((m) => m.shard?.count).filter((c): c is number => c !== undefined))]
  return `no directory's shard covers it${counts.length > 0 ? ` (shard ${counts.map((c) => formatShard({ index: job.index % c, count: c })).join(' or ')} not given?)` : ''}`
}

export async function merge(dirs: readonly string[], out: string, opts: MergeOptions = {}): Promise<MergeResult> {
  const log = opts.log ?? (() => {})
  if (dirs.length === 0) throw new SweepError('merge: give at least one sweep directory')
  const sources = dirs.map((d) => resolve(d))
  const outDir = resolve(out)
  if (new Set(sources).size !== sources.length) throw new SweepError('merge: a directory is given twice')
  if (sources.includes(outDir)) throw new SweepError(`merge: --out ${out} is one of the directories to merge; write the merge to a new directory`)

  const manifests: SweepManifest[] = []
  for (const dir of sources) {
    const m = await readManifest(dir)
    if (m === undefined) throw new SweepError(`merge: ${dir} is not a sweep directory (no sweep.json)`)
    manifests.push(m)
  }
  const first = manifests[0]!
  const mismatches = manifests.flatMap((m, i) => sweepDifferences(first, m).map((d) => `${sources[i]} vs ${sources[0]}: ${d}`))
  if (mismatches.length > 0) throw new SweepError(`merge: the directories are not shards of one sweep\n${listSome(mismatches)}`)
  const existing = await readManifest(outDir)
  if (existing !== undefined && sweepDifferences(first, existing).length > 0) throw new SweepError(`merge: ${outDir} already holds a different sweep`)
  log(`merging ${sources.length} director${sources.length === 1 ? 'y' : 'ies'} (${manifests.map(describeShard).join(', ')})`)

  const { jobs } = manifestJobs(first)
  const { records, duplicates } = await collectRuns(sources, jobs)
  if (duplicates.length > 0) {
    throw new SweepError(`merge: ${duplicates.length} run(s) are recorded in more than one directory (overlapping shards?)\n${listSome(duplicates.map((d) => `${d.job.key}: ${d.dirs.join(', ')}`))}`)
  }
  const missing = jobs.filter((j) => !records.has(j.index))
  if (missing.length > 0 && opts.allowMissing !== true) {
    throw new SweepError(`merge: ${missing.length} of ${jobs.length} run(s) are missing\n${listSome(missing.map((j) => `${j.key}: ${expectedIn(j, sources, manifests)}`))}`)
  }

  await mkdir(outDir, { recursive: true })
  const merged: SweepManifest = { ...first, shard: null, jobs: jobs.length }
  await writeManifest(outDir, merged)
  if (opts.copyRuns !== false) {
    for (const [index, { dir }] of records) {
      const key = jobs[index]!.key
      // Replace, not overlay: a stale summary.json or error.json from an earlier merge must not survive.
      await rm(runDir(outDir, key), { recursive: true, force: true })
      await cp(runDir(dir, key), runDir(outDir, key), { recursive: true })
    }
  }
  const byIndex = new Map<number, RunRecord>([...records].map(([i, r]) => [i, r.record]))
  const aggregate = computeAggregate(merged, jobs, byIndex)
  await writeAggregate(aggregate, outDir)
  const tables = await writeTables(outDir, merged, jobs, records)
  const failed = jobs.flatMap((j) => {
    const r = byIndex.get(j.index)
    return r !== undefined && !r.ok ? [r.file] : []
  })
  log(`${records.size - failed.length} finished, ${failed.length} failed, ${missing.length} missing → ${outDir}`)
  log(describeTables(tables))
  return { outDir, aggregate, failed }
}
