/**
 * A sweep survives its failures: a failed run is retried once (on a fresh worker when its worker
 * was killed) and recorded if it fails again, and a sweep whose parent process is killed with
 * SIGKILL midway resumes without redoing or losing a finished run, ending with the same
 * aggregate bytes as a sweep that was never interrupted. Real worker processes, the fake runner.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { REPO, SWEEP_SCENARIO, tempDir } from '../../../test/sim/sweepHelpers.js'
import type { RunErrorFile } from './runFiles.js'
import { runSweep } from './sweep.js'

const FLAKY_RUNNER = join(REPO, 'test', 'sim', 'sweepFlakyRunner.ts')
const ENV_KEYS = ['SIM_FAKE_CALLS', 'SIM_FAKE_DELAY_MS', 'SIM_FAKE_FLAKY', 'SIM_FAKE_KILLED', 'SIM_FAKE_PIDS'] as const

const tmp = tempDir('sim-resume-')
afterAll(tmp.cleanup)
afterEach(() => {
  for (const k of ENV_KEYS) delete process.env[k]
})

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T
const calls = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [])
const count = (xs: string[], x: string) => xs.filter((y) => y === x).length

describe('a failed run is retried once', () => {
  it('keeps a run that passes on its second attempt, after a throw or a SIGKILL of its worker', async () => {
    const out = join(tmp.dir, 'retry')
    const log = join(tmp.dir, 'retry-calls.txt')
    Object.assign(process.env, { SIM_FAKE_CALLS: log, SIM_FAKE_FLAKY: '301', SIM_FAKE_KILLED: '302' })
    const r = await runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.slippageBps=300,301,302,666'], seeds: 2, workers: 2, out, runner: FLAKY_RUNNER, progress: 'none' })

    expect(r.aggregate.points.map((p) => [p.id, p.runs, p.failed])).toEqual([
      ['keepers.slippageBps=300', 2, []],
      ['keepers.slippageBps=301', 2, []],
      ['keepers.slippageBps=302', 2, []],
      ['keepers.slippageBps=666', 0, [1, 2]],
    ])
    const c = calls(log)
    for (const seed of [1, 2]) {
      expect(count(c, `keepers.slippageBps=300,seed=${seed}`)).toBe(1)
      expect(count(c, `keepers.slippageBps=301,seed=${seed}`)).toBe(2)
      expect(count(c, `keepers.slippageBps=302,seed=${seed}`)).toBe(2)
      // tried twice, then recorded: the sweep went on
      expect(count(c, `keepers.slippageBps=666,seed=${seed}`)).toBe(2)
      expect(existsSync(join(out, 'runs', `keepers.slippageBps=302,seed=${seed}`, 'summary.json'))).toBe(true)
      expect(existsSync(join(out, 'runs', `keepers.slippageBps=302,seed=${seed}`, 'error.json'))).toBe(false)
    }
    const failed = readJson<RunErrorFile>(join(out, 'runs', 'keepers.slippageBps=666,seed=2', 'error.json'))
    expect(failed).toMatchObject({
      seed: 2,
      overrides: [{ path: 'keepers.slippageBps', value: 666 }],
      kind: 'error',
      message: 'fake runner: slippage 666 is cursed',
      attempts: 2,
      earlier: [{ kind: 'error', message: 'fake runner: slippage 666 is cursed' }],
    })
    expect(r.failed.map((f) => f.key)).toEqual(['keepers.slippageBps=666,seed=1', 'keepers.slippageBps=666,seed=2'])
  })

  it('records a run whose worker is killed on every attempt, and finishes the sweep', async () => {
    const out = join(tmp.dir, 'dying')
    const r = await runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.slippageBps=300,667'], seeds: 1, workers: 1, out, runner: FLAKY_RUNNER, progress: 'none' })
    const e = readJson<RunErrorFile>(join(out, 'runs', 'keepers.slippageBps=667,seed=1', 'error.json'))
    expect(e).toMatchObject({ kind: 'crash', message: 'the worker process exited with code 9', attempts: 2, earlier: [{ kind: 'crash' }] })
    expect(r.aggregate.points.map((p) => p.runs)).toEqual([1, 0])
  })
})

describe('worker processes have a bounded life', () => {
  it('replaces a worker after runsPerWorker runs', async () => {
    const pids = join(tmp.dir, 'pids.txt')
    process.env['SIM_FAKE_PIDS'] = pids
    const r = await runSweep({ file: SWEEP_SCENARIO, seeds: 7, workers: 1, runsPerWorker: 3, out: join(tmp.dir, 'recycled'), runner: FLAKY_RUNNER, progress: 'none' })
    expect(r.aggregate.points[0]!.runs).toBe(7)
    const seen = calls(pids)
    // 3 + 3 + 1 runs on three processes, in turn
    expect(seen).toHaveLength(7)
    expect(new Set(seen).size).toBe(3)
    expect([seen[0], seen[1], seen[2]].every((p) => p === seen[0])).toBe(true)
    expect(seen[3]).not.toBe(seen[0])
    expect(seen[6]).not.toBe(seen[3])
  })
})

/** Every file of every finished run, with its bytes' hash and modification time. */
function finishedRuns(out: string): Map<string, string> {
  const seen = new Map<string, string>()
  const runs = join(out, 'runs')
  if (!existsSync(runs)) return seen
  for (const key of readdirSync(runs)) {
    const dir = join(runs, key)
    if (!existsSync(join(dir, 'summary.json'))) continue
    for (const f of readdirSync(dir).sort()) {
      const path = join(dir, f)
      seen.set(`${key}/${f}`, `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`)
    }
  }
  return seen
}

const summaries = (out: string) => [...finishedRuns(out).keys()].filter((k) => k.endsWith('/summary.json')).map((k) => k.slice(0, -'/summary.json'.length))

async function waitFor(test: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms
  while (!test()) {
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('kill -9 of the sweep process', () => {
  const SETS = ['keepers.count=1,2,3', 'keepers.minProfit=1.01,1.05']
  const SEEDS = 3

  it('resumes: no finished run is redone or lost, and the aggregate is byte-identical', async () => {
    const out = join(tmp.dir, 'killed')
    const log = join(tmp.dir, 'killed-calls.txt')
    const env = { ...process.env, SIM_SWEEP_RUNNER: FLAKY_RUNNER, SIM_FAKE_CALLS: log, SIM_FAKE_DELAY_MS: '150' }
    const args = ['--import', 'tsx', join(REPO, 'sim', 'src', 'cli.ts'), 'sweep', SWEEP_SCENARIO, ...SETS.flatMap((s) => ['--set', s]), '--seeds', String(SEEDS), '--workers', '2', '--out', out]
    const parent = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] })
    const exited = new Promise<NodeJS.Signals | null>((r) => parent.once('exit', (_code, signal) => r(signal)))
    await waitFor(() => summaries(out).length >= 4, 60_000)
    parent.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    // The workers notice their parent is gone and exit; wait until nothing more is written.
    let last = -1
    await waitFor(() => {
      const n = calls(log).length + summaries(out).length
      const still = n === last
      last = n
      return still
    }, 10_000)
    await new Promise((r) => setTimeout(r, 500))

    const before = finishedRuns(out)
    const done = summaries(out)
    expect(done.length).toBeGreaterThanOrEqual(4)
    expect(done.length).toBeLessThan(18)
    expect(existsSync(join(out, 'aggregate.json'))).toBe(false)
    const callsBefore = calls(log).length

    // What the user types next: the same command with --resume.
    const resumed = spawn(process.execPath, [...args, '--resume'], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    resumed.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    expect(await new Promise<number | null>((r) => resumed.once('exit', (code) => r(code))), stderr).toBe(0)
    expect(stderr).toContain(`${done.length} already done; ${18 - done.length} to run`)
    const aggregate = readJson<{ points: { runs: number; failed: number[] }[] }>(join(out, 'aggregate.json'))
    expect(aggregate.points.reduce((n, p) => n + p.runs, 0)).toBe(18)
    // Finished runs are untouched: same bytes, same modification times, never run again.
    const after = finishedRuns(out)
    for (const [file, stamp] of before) expect(after.get(file), file).toBe(stamp)
    const resumedCalls = calls(log).slice(callsBefore)
    for (const key of done) expect(resumedCalls).not.toContain(key)
    expect(new Set(resumedCalls).size).toBe(18 - done.length)

    const whole = join(tmp.dir, 'whole')
    await runSweep({ file: SWEEP_SCENARIO, sets: SETS, seeds: SEEDS, workers: 2, out: whole, runner: FLAKY_RUNNER, progress: 'none' })
    for (const f of ['aggregate.json', 'aggregate.csv', 'aggregate.html']) expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(whole, f), 'utf8'))
  }, 120_000)

  it('--resume refuses a directory with no sweep in it', async () => {
    const out = join(tmp.dir, 'nothing-here')
    const args = ['--import', 'tsx', join(REPO, 'sim', 'src', 'cli.ts'), 'sweep', SWEEP_SCENARIO, '--seeds', '2', '--out', out, '--resume']
    const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, SIM_SWEEP_RUNNER: FLAKY_RUNNER }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    expect(await new Promise<number | null>((r) => child.once('exit', (code) => r(code)))).toBe(2)
    expect(stderr).toContain('holds no sweep to resume (no sweep.json)')
    expect(existsSync(out)).toBe(false)
  }, 60_000)
})
