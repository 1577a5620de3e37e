/**
 * What the dashboard server says about the sim runs and sweeps under its `--runs` folder
 * (`GET /api/runs`, dashboard/server/runs.ts), and the URLs of their files. Ids are folder paths
 * relative to that folder, `/`-separated; each segment is URL-encoded in a file's URL.
 */

/** A sim run (a folder with report.json) or a sweep (a folder with aggregate.json). */
export interface RunEntry {
  kind: 'run' | 'sweep'
  /** The folder relative to the runs folder, `/`-separated (`crash-30-seed7`, `sweeps/fees`). */
  id: string
  /** The scenario's name (the folder's name when the file could not be read). */
  name: string
  /** A run's seed. */
  seed: number | null
  /** A sweep's seeds: `base` to `base + count − 1` at every grid point. */
  seeds: { base: number; count: number } | null
  /** When report.json / aggregate.json was last written (ISO 8601). */
  when: string
  /** A few figures in words (`LP 0.12% cumulative · 2 of 4 auctions filled`), or why there are none. */
  figures: string
}

/** `GET /api/runs`: the folder (as given to --runs), whether it exists, and its entries, newest first. */
export interface RunsListing {
  dir: string
  exists: boolean
  entries: RunEntry[]
}

/** The file a run or sweep is opened from. */
export function entryFile(kind: RunEntry['kind']): 'report.json' | 'aggregate.json' {
  return kind === 'run' ? 'report.json' : 'aggregate.json'
}

/** The URL of an entry's file, next to the listing's URL (`…/api/runs` → `…/api/runs/<id>/report.json`). */
export function entryFileUrl(runsUrl: string, kind: RunEntry['kind'], id: string): string {
  const path = id.split('/').map(encodeURIComponent).join('/')
  return `${runsUrl.replace(/\/+$/, '')}/${path}/${entryFile(kind)}`
}

/** Newest first; ties by id, so the order is stable. */
export function newestFirst(entries: readonly RunEntry[]): RunEntry[] {
  return [...entries].sort((a, b) => (a.when === b.when ? a.id.localeCompare(b.id) : a.when < b.when ? 1 : -1))
}

/** What a Research deep link opens: `#/research?run=<id>` or `#/research?sweep=<id>`. */
export type ResearchTarget = { kind: RunEntry['kind']; id: string } | undefined

/** The run or sweep named in the query part of a hash (`#/research?run=crash-30-seed7`). */
export function researchTarget(hash: string): ResearchTarget {
  const q = hash.indexOf('?')
  if (q < 0) return undefined
  const params = new URLSearchParams(hash.slice(q + 1))
  const run = params.get('run')
  if (run) return { kind: 'run', id: run }
  const sweep = params.get('sweep')
  if (sweep) return { kind: 'sweep', id: sweep }
  return undefined
}

/** The hash of a deep link to a run or sweep (`#/research?run=…`), or to Research itself. */
export function researchHash(target: ResearchTarget): string {
  if (target === undefined) return '#/research'
  return `#/research?${new URLSearchParams({ [target.kind]: target.id }).toString()}`
}
