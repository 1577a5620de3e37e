/** `sweep` and `merge` on the command line (sim/src/sweep), with their usage (`--help`, `-h`). */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { wantsHelp } from '../../src/cli/help.js'
import { mergeSweeps, runSweep, SweepError } from './sweep/index.js'

export const SWEEP_OPTIONS = {
  set: { type: 'string', multiple: true },
  seeds: { type: 'string' },
  'seed-base': { type: 'string' },
  workers: { type: 'string' },
  out: { type: 'string' },
  shard: { type: 'string' },
  resume: { type: 'boolean' },
  'no-resume': { type: 'boolean' },
  'check-determinism': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig

export const MERGE_OPTIONS = {
  out: { type: 'string' },
  'allow-missing': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig

export const SWEEP_SYNOPSIS = 'npm run sim -- sweep <scenario> --set path=v1,v2 ... [options]'
export const MERGE_SYNOPSIS = 'npm run sim -- merge <dir...> --out DIR [--allow-missing]'

export const SWEEP_USAGE = `usage: ${SWEEP_SYNOPSIS}

Runs a scenario at every point of a grid (each --set with a comma list of values is one axis)
and for several seeds, then aggregates every figure per grid point (aggregate.html, .json, .csv).

options:
  --set path=v1,v2,...      one axis of the grid (repeatable; default: none, the scenario alone)
  --seeds N                 seeds per grid point (default 1)
  --seed-base N             the first seed; the others follow (default 1)
  --workers N               worker processes (default: the machine's available parallelism)
  --out DIR                 where the sweep is written (default runs/sweep-<name>, with
                            -shard-<i>of<N> for a shard)
  --shard i/N               run only the i-th of N shards of the jobs (default: all of them)
  --resume                  require a sweep in --out to resume (default: resume one when there)
  --no-resume               run every job again, even those already finished
  --check-determinism N     run N of the jobs again and compare them (default: off)
  -h, --help                this text

exit status: 0 every run finished, 1 a run failed or a re-run differs, 2 bad input

example:
  npm run sim -- sweep crash-30 --set keepers.count=1,3,5 --seeds 4 --workers 2`

export const MERGE_USAGE = `usage: ${MERGE_SYNOPSIS}

Merges the shard directories of one sweep into one aggregate in --out.

options:
  --out DIR                 where the merged sweep is written (required; no default)
  --allow-missing           aggregate even when some jobs have no run in any shard (default: refuse)
  -h, --help                this text

example:
  npm run sim -- merge runs/sweep-crash-30-shard-1of2 runs/sweep-crash-30-shard-2of2 --out runs/sweep-crash-30`

function int(name: string, raw: string | undefined, fallback: number | undefined, min: number): number | undefined {
  if (raw === undefined) return fallback
  const v = Number(raw)
  if (!Number.isInteger(v) || v < min) throw new SweepError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`)
  return v
}

/**
 * Exit 0 when every run finished, 1 when some failed (recorded in runs/<key>/error.json) or the
 * determinism check (`--check-determinism N`) found a re-run that differs, 2 on bad input.
 */
export async function sweepCommand(argv: string[], scenarioPath: (arg: string | undefined) => string): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(`${SWEEP_USAGE}\n`)
    return 0
  }
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: SWEEP_OPTIONS })
  try {
    const check = int('check-determinism', values['check-determinism'], undefined, 1)
    const seedBase = int('seed-base', values['seed-base'], 1, 0)!
    const workers = int('workers', values.workers, undefined, 1)
    if (values.resume === true && values['no-resume'] === true) throw new SweepError('--resume and --no-resume contradict each other')
    const result = await runSweep({
      file: scenarioPath(positionals[0]),
      sets: values.set ?? [],
      seeds: int('seeds', values.seeds, 1, 1)!,
      seedBase,
      ...(workers === undefined ? {} : { workers }),
      ...(values.out === undefined ? {} : { out: values.out }),
      ...(values.shard === undefined ? {} : { shard: values.shard }),
      resume: values.resume === true ? 'required' : values['no-resume'] !== true,
      ...(check === undefined ? {} : { checkDeterminism: check }),
      log: (line) => process.stderr.write(`${line}\n`),
    })
    process.stdout.write(`aggregate: ${result.outDir}/aggregate.html (json, csv beside it)\n`)
    if (result.failed.length > 0) process.stdout.write(`${result.failed.length} run(s) failed: see runs/<key>/error.json\n`)
    if (result.determinism !== undefined) {
      const { describeSweepCheck } = await import('./determinism/sweepCheck.js')
      process.stdout.write(`${describeSweepCheck(result.determinism)}\n`)
    }
    return result.failed.length > 0 || result.determinism?.ok === false ? 1 : 0
  } catch (err) {
    if (err instanceof SweepError) {
      process.stderr.write(`${err.message}\n`)
      return 2
    }
    throw err
  }
}

export async function mergeCommand(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(`${MERGE_USAGE}\n`)
    return 0
  }
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: MERGE_OPTIONS })
  try {
    if (values.out === undefined) throw new SweepError('merge: --out DIR is required')
    if (positionals.length === 0) throw new SweepError('merge: give the shard directories to merge')
    const r = await mergeSweeps(positionals, values.out, { allowMissing: values['allow-missing'] === true, log: (line) => process.stderr.write(`${line}\n`) })
    process.stdout.write(`aggregate: ${r.outDir}/aggregate.html\n`)
    return r.failed.length > 0 ? 1 : 0
  } catch (err) {
    if (err instanceof SweepError) {
      process.stderr.write(`${err.message}\n`)
      return 2
    }
    throw err
  }
}
