/**
 * `npm run sim -- <command>`: run, list, sweep, merge (usage.ts and sweepCli.ts hold each
 * command's options and usage; `--help` / `-h` prints them).
 * `run --check-determinism` runs the seed twice (the second into a temporary directory) and
 * compares the two runs' determinism traces (sim/src/determinism; trace.jsonl in the run
 * directory) and output files; `sweep --check-determinism N` runs N of the sweep's jobs again
 * (a seeded sample) and compares them with what the sweep stored.
 * Exit status: 0 done (a run whose core replay or audit failed, or whose determinism check found
 * a difference, exits 1), 2 bad input.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import cliProgress from 'cli-progress'
import { parseDocument } from 'yaml'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { summaryTable } from './report/summary.js'
import { loadNow, provenance, runFigures, upsertFigures } from './report/figures.js'
import { loadScenario, parseValue, ScenarioError, type Override } from './scenario/load.js'
import { didYouMean } from './scenario/suggest.js'
import { findScenario } from './scenario/find.js'
import { flagsOf, wantsHelp } from '../../src/cli/help.js'
import { MERGE_OPTIONS, SWEEP_OPTIONS } from './sweepCli.js'
import { LIST_USAGE, RUN_USAGE, SIM_USAGE, RUN_OPTIONS } from './usage.js'
import { checkSnapshotAt, parseSnapshotAt, SnapshotOptionError, type SnapshotFile, type SnapshotStep } from './record/snapshots.js'
import { runScenario, stepsOf } from './run.js'
import { FoundWorldError } from './found.js'

const SCENARIOS = join(REPO_ROOT, 'sim', 'scenarios')

class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string = SIM_USAGE,
  ) {
    super(message)
  }
}

const COMMANDS = ['run', 'list', 'sweep', 'merge']
const OPTIONS_OF: Record<string, ParseArgsOptionsConfig> = { run: RUN_OPTIONS, sweep: SWEEP_OPTIONS, merge: MERGE_OPTIONS }

function usageError(message: string): number {
  process.stderr.write(`${message}\n${SIM_USAGE}\n`)
  return 2
}

function overrides(list: string[] | undefined): Override[] {
  return (list ?? []).map((s) => {
    const eq = s.indexOf('=')
    if (eq <= 0) throw new UsageError(`--set ${s}: expected path=value`)
    return { path: s.slice(0, eq), value: parseValue(s.slice(eq + 1)), origin: `--set ${s}` }
  })
}

function intOption(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined) return fallback
  const v = Number(raw)
  if (!Number.isInteger(v) || v < min) throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`)
  return v
}

/**
 * `--snapshot FILE` / `--fork-url URL`: where a found world starts (world.from), instead of what
 * the scenario file says. A snapshot path is relative to the working folder.
 */
function startOverrides(snapshot: string | undefined, forkUrl: string | undefined): Override[] {
  if (snapshot !== undefined && forkUrl !== undefined) throw new UsageError('--snapshot and --fork-url both say where the world starts: give one')
  if (snapshot !== undefined) {
    return [
      { path: 'world.from.snapshot', value: resolve(snapshot), origin: `--snapshot ${snapshot}` },
      { path: 'world.from.fork', value: undefined },
      { path: 'world.from.ledger', value: undefined },
    ]
  }
  if (forkUrl !== undefined) return [{ path: 'world.from.fork', value: forkUrl, origin: `--fork-url ${forkUrl}` }, { path: 'world.from.snapshot', value: undefined }]
  return []
}

/** A scenario argument: a path, or a name from sim/scenarios; one that is neither is a usage error of one line. */
function scenarioPath(arg: string | undefined): string {
  if (arg === undefined) throw new UsageError('give a scenario file (npm run sim -- list shows the shipped ones)')
  const found = findScenario(arg, SCENARIOS)
  if (typeof found !== 'string') throw new UsageError(found.missing, '')
  return found
}

/** `--snapshot-at` checked against the run's length; a bad value is a usage error. */
function snapshotSteps(raw: string[] | undefined, steps: number, out: string): SnapshotStep[] {
  try {
    const at = raw === undefined ? [] : parseSnapshotAt(raw)
    checkSnapshotAt(at, steps, out)
    return at
  } catch (err) {
    throw err instanceof SnapshotOptionError ? new UsageError(err.message) : err
  }
}

async function run(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) return help(RUN_USAGE)
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: RUN_OPTIONS })
  const file = scenarioPath(positionals[0])
  const loaded = loadScenario(file, [...overrides(values.set), ...startOverrides(values.snapshot, values['fork-url'])])
  const seed = intOption('seed', values.seed, loaded.scenario.run.seed)
  const out = resolve(values.out ?? join('runs', `${loaded.scenario.name}-seed${seed}`))
  const steps = stepsOf(loaded)
  const snapshotAt = snapshotSteps(values['snapshot-at'], steps, out)
  if (values.figures !== undefined && (values.set !== undefined || values['check-determinism'] === true))
    throw new UsageError('--figures records a shipped scenario as it is: not with --set or --check-determinism')
  if (values['check-determinism'] === true) {
    if (snapshotAt.length > 0) throw new UsageError('--check-determinism and --snapshot-at do not go together')
    return checkDeterminism(loaded, seed, out, steps)
  }
  process.stderr.write(`${loaded.scenario.name}: ${steps} ledgers, ${loaded.scenario.keepers.count} keeper(s), seed ${seed}\n`)
  const bar = new cliProgress.SingleBar(
    { format: 'ledgers {bar} {value}/{total} | {percentage}% | ETA {eta_formatted}', stream: process.stderr, noTTYOutput: false, hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  let started = false
  const t0 = Date.now()
  const loadStart = loadNow()
  const snapshots: SnapshotFile[] = []
  const report = await runScenario({
    loaded,
    seed,
    outDir: out,
    snapshotAt,
    onSnapshot: (f) => snapshots.push(f),
    log: (line) => {
      if (!started) process.stderr.write(`  ${line}\n`)
    },
    onProgress: (done, total) => {
      if (!started) {
        bar.start(total, 0)
        started = true
      }
      bar.update(done)
    },
  })
  if (started) bar.stop()
  process.stdout.write(`${summaryTable(report)}\n`)
  const wallSeconds = (Date.now() - t0) / 1000
  process.stdout.write(`wall time ${wallSeconds.toFixed(1)} s\nreport: ${join(out, 'report.html')}\n`)
  if (values.figures !== undefined) {
    upsertFigures(resolve(values.figures), runFigures(report, wallSeconds, provenance(figuresCommand(argv), loadStart)))
    process.stdout.write(`figures: ${values.figures}\n`)
  }
  for (const f of snapshots) process.stdout.write(`snapshot at step ${f.step}: ${f.path} (ledger ${f.ledger})\n`)
  return report.summary.replayMismatches > 0 || !report.summary.auditHolds ? 1 : 0
}

/** The run's command as a reader would retype it: `--out` and `--figures` (where it wrote, not what it measured) left out. */
function figuresCommand(argv: string[]): string {
  const kept: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--out' || a === '--figures') i++
    else if (!a.startsWith('--out=') && !a.startsWith('--figures=')) kept.push(a)
  }
  return ['npm run sim -- run', ...kept].join(' ')
}

/** `run --check-determinism`: the seed twice, then the comparison (exit 1 on a difference). */
async function checkDeterminism(loaded: ReturnType<typeof loadScenario>, seed: number, out: string, steps: number): Promise<number> {
  const { checkRunDeterminism, describeRunCheck } = await import('./determinism/checkRun.js')
  process.stderr.write(`${loaded.scenario.name}: ${steps} ledgers, ${loaded.scenario.keepers.count} keeper(s), seed ${seed}, run twice\n`)
  const bar = new cliProgress.SingleBar(
    { format: 'run {run} {bar} {value}/{total} ledgers | ETA {eta_formatted}', stream: process.stderr, noTTYOutput: false, hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  let current = 0
  const r = await checkRunDeterminism({
    loaded,
    seed,
    outDir: out,
    onProgress: (run, done, total) => {
      if (run !== current) {
        if (current !== 0) bar.stop()
        bar.start(total, 0, { run })
        current = run
      }
      bar.update(done)
    },
  })
  if (current !== 0) bar.stop()
  process.stdout.write(`${summaryTable(r.report)}\n`)
  process.stdout.write(`wall time ${(r.wallMs[0] / 1000).toFixed(1)} s + ${(r.wallMs[1] / 1000).toFixed(1)} s\nreport: ${join(out, 'report.html')}, trace: ${join(out, 'trace.jsonl')}\n`)
  process.stdout.write(`${describeRunCheck(r)}\n`)
  return !r.ok || r.report.summary.replayMismatches > 0 || !r.report.summary.auditHolds ? 1 : 0
}

function list(argv: string[]): number {
  if (wantsHelp(argv)) return help(LIST_USAGE)
  if (argv.length > 0) throw new UsageError(`list takes no arguments, got ${argv.join(' ')}`, LIST_USAGE)
  const files = readdirSync(SCENARIOS).filter((f) => f.endsWith('.yaml')).sort()
  for (const f of files) {
    const doc = parseDocument(readFileSync(join(SCENARIOS, f), 'utf8')).toJS() as { description?: string } | null
    process.stdout.write(`${f.replace(/\.yaml$/, '').padEnd(18)} ${(doc?.description ?? '').split('\n')[0]}\n`)
  }
  process.stdout.write(`\n${files.length} scenarios in ${relative(process.cwd(), SCENARIOS) || '.'}\n`)
  return 0
}

async function sweep(argv: string[]): Promise<number> {
  const { sweepCommand } = await import('./sweepCli.js')
  return sweepCommand(argv, scenarioPath)
}

async function merge(argv: string[]): Promise<number> {
  const { mergeCommand } = await import('./sweepCli.js')
  return mergeCommand(argv)
}

function help(text: string): number {
  process.stdout.write(`${text}\n`)
  return 0
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2)
  try {
    if (command === 'run') return await run(rest)
    if (command === 'list') return list(rest)
    if (command === undefined || command === 'help' || wantsHelp([command])) return command === undefined ? usageError('no command') : help(SIM_USAGE)
    if (command === 'sweep') return await sweep(rest)
    if (command === 'merge') return await merge(rest)
    throw new UsageError(`unknown command ${command}${didYouMean(command, COMMANDS)}`)
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      // Node's message advises on positionals; say which option is unknown and what is near it.
      const flag = /'([^']+)'/.exec((err as Error).message)?.[1] ?? '?'
      const known = flagsOf(OPTIONS_OF[command!] ?? {})
      process.stderr.write(`unknown option ${flag} for ${command}${didYouMean(flag, known)} (npm run sim -- ${command} --help lists the options)\n`)
      return 2
    }
    if (err instanceof ScenarioError || err instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(err as Error).message}\n${err instanceof UsageError && err.usage !== '' ? `${err.usage}\n` : ''}`)
      return 2
    }
    if (err instanceof FoundWorldError) {
      process.stderr.write(`${err.message}\n`)
      return 1
    }
    throw err
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  },
)

export { UsageError }
