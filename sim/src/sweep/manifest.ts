/**
 * sweep.json, written first into every sweep directory: which scenario (file and hash), grid
 * and seeds the directory's runs belong to, and which shard of them it holds. `merge` reads it
 * to check that shard directories belong to one sweep and to rebuild the job list; a sweep
 * started again in the same directory reads it to refuse mixing two different sweeps.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedScenario } from '../scenario/load.js'
import { expandGrid, expandJobs, seedList, SweepError, type GridPoint, type SweepJob, type SweepParam } from './grid.js'
import { formatShard, type Shard } from './shard.js'

export const MANIFEST_FILE = 'sweep.json'
export const MANIFEST_SCHEMA_VERSION = 1

export interface SweepManifest {
  schemaVersion: typeof MANIFEST_SCHEMA_VERSION
  scenario: {
    /** The path as given (informative only: shards may see the file at different paths). */
    file: string
    name: string
    /** SHA-256 of the scenario file's bytes, hex. */
    hash: string
  }
  grid: SweepParam[]
  /** Per grid point, in grid order: its id and the SHA-256 of its resolved scenario. */
  points: { id: string; hash: string }[]
  seeds: { base: number; count: number }
  /** The share of the jobs this directory holds; null for all of them. */
  shard: Shard | null
  /** Jobs in this directory's share. */
  jobs: number
}

export function fileHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex')
}

export function buildManifest(p: {
  file: string
  fileText: string | Buffer
  loaded: readonly LoadedScenario[]
  grid: SweepParam[]
  points: readonly GridPoint[]
  seeds: { base: number; count: number }
  shard: Shard | null
  jobs: number
}): SweepManifest {
  return {
    schemaVersion: MANIFEST_SCHEMA_VERSION,
    scenario: { file: p.file, name: p.loaded[0]?.scenario.name ?? '', hash: fileHash(p.fileText) },
    grid: p.grid,
    points: p.points.map((pt, i) => ({ id: pt.id, hash: p.loaded[i]!.hash })),
    seeds: p.seeds,
    shard: p.shard,
    jobs: p.jobs,
  }
}

/** The grid points and every job of the sweep (all shards), rebuilt from the manifest. */
export function manifestJobs(m: SweepManifest): { points: GridPoint[]; jobs: SweepJob[] } {
  const points = expandGrid(m.grid)
  return { points, jobs: expandJobs(points, seedList(m.seeds.base, m.seeds.count)) }
}

/**
 * How two manifests differ as sweeps (shards aside); empty when they describe the same sweep:
 * same scenario bytes, grid, resolved scenario per point, and seeds.
 */
export function sweepDifferences(a: SweepManifest, b: SweepManifest): string[] {
  const out: string[] = []
  if (a.scenario.hash !== b.scenario.hash) out.push(`scenario file differs (sha256 ${a.scenario.hash.slice(0, 12)}… vs ${b.scenario.hash.slice(0, 12)}…)`)
  if (JSON.stringify(a.grid) !== JSON.stringify(b.grid)) out.push(`grid differs (${describeGrid(a)} vs ${describeGrid(b)})`)
  else if (JSON.stringify(a.points) !== JSON.stringify(b.points)) out.push('the resolved scenarios of the grid points differ (a different harness version or scenario defaults?)')
  if (a.seeds.base !== b.seeds.base || a.seeds.count !== b.seeds.count) out.push(`seeds differ (${describeSeeds(a)} vs ${describeSeeds(b)})`)
  return out
}

function describeGrid(m: SweepManifest): string {
  return m.grid.length === 0 ? 'no --set' : m.grid.map((p) => `${p.path}=${p.values.map((v) => JSON.stringify(v)).join(',')}`).join(' ')
}

function describeSeeds(m: SweepManifest): string {
  return `${m.seeds.count} from ${m.seeds.base}`
}

export function describeShard(m: SweepManifest): string {
  return m.shard === null ? 'all jobs' : `shard ${formatShard(m.shard)}`
}

export async function writeManifest(dir: string, m: SweepManifest): Promise<void> {
  await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(m, null, 2) + '\n')
}

/** Reads `<dir>/sweep.json`; undefined when the directory has none. */
export async function readManifest(dir: string): Promise<SweepManifest | undefined> {
  const path = join(dir, MANIFEST_FILE)
  if (!existsSync(path)) return undefined
  const m = JSON.parse(await readFile(path, 'utf8')) as SweepManifest
  if (m.schemaVersion !== MANIFEST_SCHEMA_VERSION) throw new SweepError(`${path}: sweep manifest schema ${String(m.schemaVersion)}, this version reads ${MANIFEST_SCHEMA_VERSION}`)
  return m
}
