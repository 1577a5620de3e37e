/**
 * The sim runs and sweeps under a folder: a folder holding report.json is a run, one holding
 * aggregate.json a sweep (its own runs/… stay inside it). The walk is bounded (MAX_DEPTH folders
 * deep), skips node_modules, .git and other dot-folders, and never follows a symbolic link.
 * Each file's entry is cached by path, size and mtime, so a re-scan reads only what changed.
 */
import type { Dirent, Stats } from 'node:fs'
import { lstat, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { SweepAggregate } from '../../sim/src/sweep/aggregate.js'
import type { Report } from '../../sim/src/report/types.js'
import { entryFile, newestFirst, type RunEntry, type RunsListing } from '../src/logic/runsApi.js'

/** How many folders below the runs folder are searched. */
export const MAX_DEPTH = 4

const SKIPPED = new Set(['node_modules', '.git'])

const cache = new Map<string, { size: number; mtimeMs: number; entry: RunEntry }>()

async function regularFile(path: string): Promise<Stats | undefined> {
  try {
    const s = await lstat(path)
    return s.isFile() ? s : undefined
  } catch {
    return undefined
  }
}

function runFigures(r: Report): string {
  const a = r.summary.auctions
  return `LP ${r.summary.lpApy.text} · ${a.filled} of ${a.created} auction${a.created === 1 ? '' : 's'} filled`
}

function sweepFigures(a: SweepAggregate): string {
  const runs = a.points.reduce((n, p) => n + p.runs, 0)
  const swept = a.params.length === 0 ? 'nothing swept' : `over ${a.params.map((p) => p.path).join(', ')}`
  return `${a.points.length} grid point${a.points.length === 1 ? '' : 's'} × ${a.seeds.count} seed${a.seeds.count === 1 ? '' : 's'}, ${runs} runs finished, ${swept}`
}

/** The entry of one run or sweep folder from its file (what it is, or why it cannot be read). */
async function readEntry(kind: RunEntry['kind'], id: string, file: string, stats: Stats): Promise<RunEntry> {
  const hit = cache.get(file)
  if (hit !== undefined && hit.size === stats.size && hit.mtimeMs === stats.mtimeMs) return hit.entry
  const base: RunEntry = { kind, id, name: id.split('/').pop() ?? id, seed: null, seeds: null, when: stats.mtime.toISOString(), figures: '' }
  let entry: RunEntry
  try {
    const json: unknown = JSON.parse(await readFile(file, 'utf8'))
    if (kind === 'run') {
      const r = json as Report
      entry = { ...base, name: r.scenario.name, seed: r.seed, figures: runFigures(r) }
    } else {
      const a = json as SweepAggregate
      entry = { ...base, name: a.scenario.name, seeds: { base: a.seeds.base, count: a.seeds.count }, figures: sweepFigures(a) }
    }
  } catch (err) {
    entry = { ...base, figures: `${entryFile(kind)} could not be read (${err instanceof Error ? err.message : String(err)})` }
  }
  cache.set(file, { size: stats.size, mtimeMs: stats.mtimeMs, entry })
  return entry
}

async function walk(root: string, rel: string[], out: RunEntry[]): Promise<void> {
  const dir = join(root, ...rel)
  const id = rel.join('/')
  if (rel.length > 0) {
    for (const kind of ['sweep', 'run'] as const) {
      const file = join(dir, entryFile(kind))
      const stats = await regularFile(file)
      if (stats !== undefined) {
        out.push(await readEntry(kind, id, file, stats))
        return
      }
    }
  }
  if (rel.length >= MAX_DEPTH) return
  let children: Dirent[]
  try {
    children = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const c of children.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!c.isDirectory() || c.isSymbolicLink() || SKIPPED.has(c.name) || c.name.startsWith('.')) continue
    await walk(root, [...rel, c.name], out)
  }
}

/** Every run and sweep under `dir`, newest first (`exists: false` when there is no such folder). */
export async function scanRuns(dir: string): Promise<RunsListing> {
  const exists = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  )
  const entries: RunEntry[] = []
  if (exists) await walk(dir, [], entries)
  return { dir, exists, entries: newestFirst(entries) }
}
