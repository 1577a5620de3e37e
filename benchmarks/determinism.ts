/**
 * Determinism benchmark: does a seed give the same bytes run after run, idle or under load?
 *
 * For every shipped scenario (sim/scenarios/*.yaml) at its default seed and the two after it,
 * N runs (default 5) of `npm run sim -- run`, each its own process; the runs named by `--load`
 * (default: the last two of five, at least the last one of two or more) go while every core is
 * kept busy by burner processes (`node -e 'for(;;);'`, one per core). For each run the SHA-256 of
 * report.json, timeseries.csv and report.html (the report's tables); a scenario and seed pass
 * when every run gave the same three digests.
 *
 *   npx tsx benchmarks/determinism.ts [--scenarios a,b] [--seeds 1,2|default|others] [--runs 5] [--load 4,5|none] [--parallel 2]
 *
 * --seeds replaces the default seed and the two after it for every scenario (`default`: only the
 * scenario's own seed, `others`: only the two after it, to run it in pieces); --parallel runs
 * that many sims at once (runs of one scenario and seed, idle ones together and loaded ones
 * together). Everything shipped at the defaults takes hours: run it in pieces.
 *
 * Prints a markdown table (scenario, seed, runs idle / loaded, distinct digests per file, median
 * wall time idle / loaded) and a final JSON line; run directories go to target/bench/determinism/
 * (those whose files match the first run's are removed). Exit 1 when any scenario and seed gave
 * more than one digest or a run failed, 2 on bad options.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { REPO_ROOT } from '../sandbox/ts/launch.js'
import { compareRunFiles, RUN_OUTPUTS } from '../sim/src/determinism/outputs.js'
import { loadScenario } from '../sim/src/scenario/load.js'
import { startCpuLoad } from '../test/sim/cpuLoad.js'

const OUT = join(REPO_ROOT, 'target', 'bench', 'determinism')
const SCENARIOS = join(REPO_ROOT, 'sim', 'scenarios')
const log = (line: string) => process.stderr.write(`${line}\n`)

class OptionError extends Error {}

interface Options {
  scenarios: string[]
  /** Explicit seeds, or which of the scenario's own three: its default seed, or the two after it. */
  seeds: number[] | 'default' | 'others' | undefined
  runs: number
  loaded: Set<number>
  parallel: number
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback
  const v = Number(raw)
  if (!Number.isInteger(v) || v < 1) throw new OptionError(`--${name} must be an integer >= 1, got ${JSON.stringify(raw)}`)
  return v
}

/** `4,5`, `2-3`, `1,3-4` or `none`: run numbers from 1 to `runs`. */
function runList(raw: string, runs: number): Set<number> {
  if (raw === 'none') return new Set()
  const out = new Set<number>()
  for (const part of raw.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    const [from, to] = m === null ? [NaN, NaN] : [Number(m[1]), Number(m[2] ?? m[1])]
    if (!(from >= 1 && to >= from && to <= runs)) throw new OptionError(`--load ${raw}: run numbers from 1 to ${runs} (e.g. 4,5 or 2-3), or none`)
    for (let i = from; i <= to; i++) out.add(i)
  }
  return out
}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: { scenarios: { type: 'string' }, seeds: { type: 'string' }, runs: { type: 'string' }, load: { type: 'string' }, parallel: { type: 'string' } },
  })
  const shipped = readdirSync(SCENARIOS).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length)).sort()
  const scenarios = values.scenarios === undefined ? shipped : values.scenarios.split(',').map((s) => s.trim())
  for (const s of scenarios) if (!shipped.includes(s)) throw new OptionError(`--scenarios: no sim/scenarios/${s}.yaml (shipped: ${shipped.join(', ')})`)
  const seeds = values.seeds === 'default' || values.seeds === 'others' ? values.seeds : values.seeds?.split(',').map((s) => {
    const v = Number(s)
    if (!Number.isInteger(v) || v < 0) throw new OptionError(`--seeds: ${JSON.stringify(s)} is not a seed (an integer >= 0)`)
    return v
  })
  const runs = positive('runs', values.runs, 5)
  const loaded = values.load === undefined ? runList(runs >= 2 ? `${runs - Math.max(1, Math.floor((runs * 2) / 5)) + 1}-${runs}` : 'none', runs) : runList(values.load, runs)
  return { scenarios, seeds, runs, loaded, parallel: positive('parallel', values.parallel, 1) }
}

interface RunResult {
  run: number
  loaded: boolean
  dir: string
  ms: number
  /** Per output file, its SHA-256 (absent: not written). */
  digests: Record<string, string | undefined>
  /** Why the run counts as failed (the process crashed, or wrote no report). */
  error?: string
}

async function sha256(path: string): Promise<string | undefined> {
  try {
    return createHash('sha256').update(await readFile(path)).digest('hex')
  } catch {
    return undefined
  }
}

/** One `npm run sim -- run` as its own process (exit 1 — replay or audit failed — still wrote its files). */
async function simRun(scenario: string, seed: number, run: number, loaded: boolean): Promise<RunResult> {
  const dir = join(OUT, `${scenario}-seed${seed}-run${run}`)
  await rm(dir, { recursive: true, force: true })
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'sim', 'src', 'cli.ts'), 'run', scenario, '--seed', String(seed), '--out', dir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  const ms = performance.now() - t0
  const digests: RunResult['digests'] = {}
  for (const f of RUN_OUTPUTS) digests[f] = await sha256(join(dir, f))
  const error = code !== 0 && code !== 1 ? `exit ${String(code)}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : digests['report.json'] === undefined ? 'no report.json' : undefined
  log(`  ${scenario} seed ${seed} run ${run}${loaded ? ' (loaded)' : ''}: ${(ms / 1000).toFixed(1)} s${error ? `, FAILED: ${error}` : ''}`)
  return { run, loaded, dir, ms, digests, ...(error === undefined ? {} : { error }) }
}

/** Runs `tasks` `parallel` at a time. */
async function pool<T>(tasks: (() => Promise<T>)[], parallel: number): Promise<T[]> {
  const out: T[] = []
  let next = 0
  const lane = async () => {
    for (let i = next++; i < tasks.length; i = next++) out[i] = await tasks[i]!()
  }
  await Promise.all(Array.from({ length: Math.min(parallel, tasks.length) }, lane))
  return out
}

interface Row {
  scenario: string
  seed: number
  idle: number
  loaded: number
  /** Distinct digests per output file. */
  distinct: Record<string, number>
  idleMedianS: number | null
  loadedMedianS: number | null
  failed: number
  /** The first run that differs from run 1, and how. */
  difference?: string
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return Math.round((s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2) / 100) / 10
}

async function scenarioSeed(o: Options, scenario: string, seed: number): Promise<Row> {
  const numbers = Array.from({ length: o.runs }, (_, i) => i + 1)
  const idle = numbers.filter((n) => !o.loaded.has(n))
  const busy = numbers.filter((n) => o.loaded.has(n))
  log(`${scenario} seed ${seed}: ${idle.length} idle, ${busy.length} loaded run(s)`)
  const results = await pool(idle.map((n) => () => simRun(scenario, seed, n, false)), o.parallel)
  if (busy.length > 0) {
    const load = startCpuLoad()
    try {
      results.push(...(await pool(busy.map((n) => () => simRun(scenario, seed, n, true)), o.parallel)))
    } finally {
      await load.stop()
    }
  }
  results.sort((a, b) => a.run - b.run)
  const ok = results.filter((r) => r.error === undefined)
  const distinct: Record<string, number> = {}
  for (const f of RUN_OUTPUTS) distinct[f] = new Set(ok.map((r) => r.digests[f] ?? 'missing')).size
  const first = ok[0]
  let difference: string | undefined
  for (const r of ok.slice(1)) {
    const same = RUN_OUTPUTS.every((f) => r.digests[f] === first!.digests[f])
    if (same) await rm(r.dir, { recursive: true, force: true })
    else if (difference === undefined) {
      const d = await compareRunFiles(first!.dir, r.dir)
      difference = `run ${r.run} vs run ${first!.run}: ${d.map((x) => `${x.file} ${x.detail}`).join('; ')}`
    }
  }
  if (difference !== undefined) log(`  DIFFERS: ${difference}`)
  return {
    scenario,
    seed,
    idle: idle.length,
    loaded: busy.length,
    distinct,
    idleMedianS: median(results.filter((r) => !r.loaded).map((r) => r.ms)),
    loadedMedianS: median(results.filter((r) => r.loaded).map((r) => r.ms)),
    failed: results.length - ok.length,
    ...(difference === undefined ? {} : { difference }),
  }
}

function table(rows: Row[]): string {
  const head = ['scenario', 'seed', 'runs idle / loaded', 'distinct digests (report.json / timeseries.csv / report.html)', 'wall s median idle / loaded', 'result']
  const lines = [head, head.map(() => '---')]
  for (const r of rows) {
    const same = RUN_OUTPUTS.every((f) => r.distinct[f] === 1) && r.failed === 0
    lines.push([
      r.scenario,
      String(r.seed),
      `${r.idle} / ${r.loaded}`,
      RUN_OUTPUTS.map((f) => r.distinct[f]).join(' / '),
      `${r.idleMedianS ?? '–'} / ${r.loadedMedianS ?? '–'}`,
      r.failed > 0 ? `${r.failed} run(s) failed` : same ? 'same bytes' : '**differs**',
    ])
  }
  return lines.map((l) => `| ${l.join(' | ')} |`).join('\n')
}

async function main(): Promise<number> {
  let o: Options
  try {
    o = options(process.argv.slice(2))
  } catch (err) {
    if (err instanceof OptionError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(err as Error).message}\nusage: npx tsx benchmarks/determinism.ts [--scenarios a,b] [--seeds 1,2|default|others] [--runs 5] [--load 4,5|none] [--parallel 2]\n`)
      return 2
    }
    throw err
  }
  const rows: Row[] = []
  const t0 = performance.now()
  for (const scenario of o.scenarios) {
    const base = loadScenario(join(SCENARIOS, `${scenario}.yaml`)).scenario.run.seed
    const seeds = o.seeds === 'default' ? [base] : o.seeds === 'others' ? [base + 1, base + 2] : (o.seeds ?? [base, base + 1, base + 2])
    for (const seed of seeds) rows.push(await scenarioSeed(o, scenario, seed))
  }
  process.stdout.write(`\n${table(rows)}\n\n`)
  for (const r of rows) if (r.difference !== undefined) process.stdout.write(`${r.scenario} seed ${r.seed}: ${r.difference}\n`)
  const bad = rows.filter((r) => r.failed > 0 || RUN_OUTPUTS.some((f) => r.distinct[f] !== 1))
  process.stdout.write(`${bad.length === 0 ? 'every run of every scenario and seed gave the same bytes' : `${bad.length} of ${rows.length} scenario/seed pair(s) NOT deterministic or failed`}; ${((performance.now() - t0) / 60_000).toFixed(1)} min\n`)
  process.stdout.write(`${JSON.stringify({ runs: o.runs, loaded: [...o.loaded], parallel: o.parallel, rows })}\n`)
  return bad.length === 0 ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  },
)
