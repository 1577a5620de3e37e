/**
 * The fake runner (sweepFakeRunner.ts) with failures that go away on a second attempt and a
 * record of every call, for the sweep's retry and kill tests. Set through the environment,
 * which worker processes inherit:
 *
 *   SIM_FAKE_CALLS=<file>      append "<job key>" to the file at the start of every run
 *   SIM_FAKE_PIDS=<file>       append the worker's process id to the file in every run
 *   SIM_FAKE_DELAY_MS=<ms>     sleep this long in every run (so a test can kill a sweep midway)
 *   SIM_FAKE_FLAKY=<slippage>  for runs with this keepers.slippageBps, the first attempt
 *                              throws ("flaky: first attempt"); the next one finishes
 *   SIM_FAKE_KILLED=<slippage> the same, but the first attempt kills its own worker with SIGKILL
 *
 * "First attempt" is told by a marker file in the run directory, which the sweep keeps across
 * attempts.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Report } from '../../sim/src/report/types.js'
import type { RunOptions } from '../../sim/src/run.js'
import { runScenario as fakeRun } from './sweepFakeRunner.js'

const MARKER = 'attempted'

/** The run directory's name is the job's key. */
const runKey = (opts: RunOptions): string => (opts.outDir === undefined ? `seed=${opts.seed}` : basename(opts.outDir))

export async function runScenario(opts: RunOptions): Promise<Report> {
  const calls = process.env['SIM_FAKE_CALLS']
  if (calls) appendFileSync(calls, `${runKey(opts)}\n`)
  const pids = process.env['SIM_FAKE_PIDS']
  if (pids) appendFileSync(pids, `${process.pid}\n`)
  const delay = Number(process.env['SIM_FAKE_DELAY_MS'] ?? 0)
  if (delay > 0) await new Promise((r) => setTimeout(r, delay))
  const slippage = String(opts.loaded.scenario.keepers.slippageBps)
  const firstAttempt = opts.outDir !== undefined && !existsSync(join(opts.outDir, MARKER))
  if (opts.outDir !== undefined) writeFileSync(join(opts.outDir, MARKER), '')
  if (firstAttempt && slippage === process.env['SIM_FAKE_FLAKY']) throw new Error('flaky: first attempt')
  if (firstAttempt && slippage === process.env['SIM_FAKE_KILLED']) process.kill(process.pid, 'SIGKILL')
  return fakeRun(opts)
}
