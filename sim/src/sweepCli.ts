/** `sweep` and `merge` on the command line (sim/src/sweep). */
import { parseArgs } from 'node:util'
import { mergeSweeps, runSweep, SweepError } from './sweep/index.js'

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
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      set: { type: 'string', multiple: true },
      seeds: { type: 'string' },
      'seed-base': { type: 'string' },
      workers: { type: 'string' },
      out: { type: 'string' },
      shard: { type: 'string' },
      resume: { type: 'boolean' },
      'no-resume': { type: 'boolean' },
      'check-determinism': { type: 'string' },
    },
  })
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
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, 'allow-missing': { type: 'boolean' } },
  })
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
