/**
 * A sweep's grid: `--set path=v1,v2,...` lists, their cartesian product (the grid points) and
 * the jobs (every point × every seed). Orders are stable — the first `--set` varies slowest,
 * seeds ascend within a point — because job indices decide shards and the aggregate's order.
 */
import { formatValue } from './paramValue.js'
import { loadScenario, parseValue, ScenarioError, type LoadedScenario, type Override } from '../scenario/load.js'

/** One swept parameter: a scenario path and the values it takes, in the order given. */
export interface SweepParam {
  path: string
  values: unknown[]
}

/** One combination of parameter values. */
export interface GridPoint {
  /** Position in grid order (0-based). */
  index: number
  /** `path=value` pairs joined by commas, e.g. `keepers.count=2,keepers.minProfit=1.02`; `base` for an empty grid. */
  id: string
  overrides: Override[]
}

/** One run: a grid point and a seed. */
export interface SweepJob {
  /** Position in job order (point-major, seeds ascending); shards select on it. */
  index: number
  /** Unique and stable; also the run's directory name under `runs/`. */
  key: string
  point: GridPoint
  seed: number
}

/** Bad sweep input (grid syntax, an invalid grid point, shard or seed options). */
export class SweepError extends Error {
  override name = 'SweepError'
}

/**
 * Splits `v1,v2,...` at top-level commas: commas inside `[...]`, `{...}` or quotes belong to
 * the value, so YAML flow lists (`--set x=[1,2],[3]`) and quoted strings still work.
 */
export function splitValues(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let quote: string | null = null
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quote !== null) {
      if (c === quote) quote = null
      continue
    }
    if (c === '"' || c === "'") quote = c
    else if (c === '[' || c === '{') depth++
    else if ((c === ']' || c === '}') && depth > 0) depth--
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i))
      start = i + 1
    }
  }
  out.push(text.slice(start))
  return out.map((v) => v.trim())
}

export { formatValue }

/**
 * Parses the `--set` arguments of a sweep. Each is `path=v1,v2,...` (one value is fine: it
 * applies to every point). Values go through `parseValue` (YAML scalars: `1.02` is a number).
 * Errors: no `=`, an empty value, the same value twice, the same path twice, and `run.seed`
 * (seeds come from `--seeds` / `--seed-base`).
 */
export function parseSets(sets: readonly string[]): SweepParam[] {
  const params: SweepParam[] = []
  for (const arg of sets) {
    const eq = arg.indexOf('=')
    if (eq <= 0) throw new SweepError(`--set ${arg}: expected path=v1,v2,...`)
    const path = arg.slice(0, eq).trim()
    if (params.some((p) => p.path === path)) throw new SweepError(`--set ${path} is given twice: list every value in one --set (${path}=v1,v2,...)`)
    if (path === 'run.seed') throw new SweepError('--set run.seed: a sweep takes its seeds from --seeds and --seed-base')
    const raw = splitValues(arg.slice(eq + 1))
    if (raw.some((v) => v === '')) throw new SweepError(`--set ${arg}: empty value in the list`)
    const values = raw.map(parseValue)
    const seen = new Set<string>()
    for (const v of values) {
      const f = formatValue(v)
      if (seen.has(f)) throw new SweepError(`--set ${path}: value ${f} is listed twice`)
      seen.add(f)
    }
    params.push({ path, values })
  }
  return params
}

/** The cartesian product of the parameters; the first varies slowest. No parameters: one point, `base`. */
export function expandGrid(params: readonly SweepParam[]): GridPoint[] {
  let combos: Override[][] = [[]]
  for (const p of params) combos = combos.flatMap((c) => p.values.map((value) => [...c, { path: p.path, value }]))
  return combos.map((overrides, index) => ({ index, id: pointId(overrides), overrides }))
}

function pointId(overrides: readonly Override[]): string {
  return overrides.length === 0 ? 'base' : overrides.map((o) => `${o.path}=${formatValue(o.value)}`).join(',')
}

/** `count` seeds from `base`: base, base+1, ... Both must be integers (count >= 1, base >= 0). */
export function seedList(base: number, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new SweepError(`--seeds must be an integer >= 1, got ${count}`)
  if (!Number.isSafeInteger(base) || base < 0 || !Number.isSafeInteger(base + count - 1)) throw new SweepError(`--seed-base must be an integer >= 0, got ${base}`)
  return Array.from({ length: count }, (_, i) => base + i)
}

/**
 * A job's key and directory name: the point id plus `,seed=N`, with every character outside
 * `A-Z a-z 0-9 . _ = , + -` replaced by `_`. Very long ids are cut and suffixed with a short
 * hash of the full id so names stay under file-system limits and unique.
 */
export function jobKey(point: GridPoint, seed: number): string {
  const base = point.overrides.length === 0 ? '' : `${point.id},`
  const safe = `${base}seed=${seed}`.replace(/[^A-Za-z0-9._=,+-]/g, '_')
  if (safe.length <= 180) return safe
  return `${safe.slice(0, 160)}~${fnv1a(`${point.id},seed=${seed}`)}`
}

/** 32-bit FNV-1a of a string, hex (a short, stable, dependency-free name suffix). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0')
}

/** Every point × every seed, point-major. Throws if two jobs would share a directory name. */
export function expandJobs(points: readonly GridPoint[], seeds: readonly number[]): SweepJob[] {
  const jobs: SweepJob[] = []
  const keys = new Map<string, SweepJob>()
  for (const point of points) {
    for (const seed of seeds) {
      const job: SweepJob = { index: jobs.length, key: jobKey(point, seed), point, seed }
      const other = keys.get(job.key)
      if (other) throw new SweepError(`grid points ${other.point.id} and ${point.id} map to the same run directory ${job.key}`)
      keys.set(job.key, job)
      jobs.push(job)
    }
  }
  return jobs
}

/**
 * Loads the scenario once per grid point (with that point's overrides), so a value the
 * scenario schema rejects fails before any run starts. Every bad point is reported, each
 * with its id and the loader's problems. Returns the loaded scenarios in grid order.
 */
export function validateGrid(file: string, points: readonly GridPoint[]): LoadedScenario[] {
  const loaded: LoadedScenario[] = []
  const bad: string[] = []
  for (const point of points) {
    try {
      loaded.push(loadScenario(file, point.overrides))
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err
      bad.push(`  ${point.id}:\n${err.problems.map((p) => `    - ${p}`).join('\n')}`)
    }
  }
  if (bad.length > 0) throw new SweepError(`${file}: ${bad.length} of ${points.length} grid point(s) are not valid scenarios\n${bad.join('\n')}`)
  return loaded
}
