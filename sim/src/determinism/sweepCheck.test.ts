/**
 * `sweep --check-determinism N` with the fake runner of test/sim/sweepFakeRunner.ts (no
 * sandbox, no trace: the outputs are compared): the seeded sample, the usage errors, a check
 * that passes and one that finds a stored report changed after the sweep.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FAKE_RUNNER, REPO, SWEEP_SCENARIO, tempDir } from '../../../test/sim/sweepHelpers.js'
import { expandGrid, expandJobs, parseSets, seedList, SweepError, validateGrid } from '../sweep/grid.js'
import { runSweep } from '../sweep/sweep.js'
import { checkSweepDeterminism, describeSweepCheck, sampleJobs } from './sweepCheck.js'

const tmp = tempDir('sim-sweep-check-')
afterAll(tmp.cleanup)

const SETS = ['keepers.count=1,2']
const points = expandGrid(parseSets(SETS))
const jobs = expandJobs(points, seedList(1, 3))

async function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'sim', 'src', 'cli.ts'), 'sweep', SWEEP_SCENARIO, ...args], {
    cwd: REPO,
    env: { ...process.env, SIM_SWEEP_RUNNER: FAKE_RUNNER },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const code = await new Promise<number | null>((r) => child.once('exit', r))
  return { code, stderr }
}

describe('the seeded sample of jobs to run again', () => {
  it('takes N jobs in job order, the same for the same seed', () => {
    const a = sampleJobs(jobs, 3, 1)
    expect(a).toHaveLength(3)
    expect(a.map((j) => j.index)).toEqual([...a.map((j) => j.index)].sort((x, y) => x - y))
    expect(sampleJobs(jobs, 3, 1)).toEqual(a)
    expect(sampleJobs(jobs, 6, 1)).toEqual(jobs)
    const seeds = [1, 2, 3, 4, 5].map((s) => sampleJobs(jobs, 2, s).map((j) => j.key).join())
    expect(new Set(seeds).size).toBeGreaterThan(1)
  })
})

describe('sweep --check-determinism N', () => {
  it('refuses N that is not an integer >= 1, or more than the jobs, before running anything (exit 2)', async () => {
    const out = join(tmp.dir, 'refused')
    for (const [n, message] of [
      ['0', '--check-determinism must be an integer >= 1, got "0"'],
      ['two', '--check-determinism must be an integer >= 1, got "two"'],
      ['1.5', '--check-determinism must be an integer >= 1, got "1.5"'],
      ['7', '--check-determinism 7: more than the 6 run(s) of this sweep'],
    ] as const) {
      const r = await cli([...SETS.flatMap((s) => ['--set', s]), '--seeds', '3', '--out', out, '--check-determinism', n])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toContain(message)
    }
    expect(existsSync(out)).toBe(false)
    await expect(runSweep({ file: SWEEP_SCENARIO, seeds: 2, shard: '0/2', out, runner: FAKE_RUNNER, progress: 'none', checkDeterminism: 2 })).rejects.toThrow(
      new SweepError('--check-determinism 2: more than the 1 run(s) of this shard'),
    )
  }, 60_000)

  it('runs N jobs again after the sweep and finds them identical; a stored report changed afterwards is named', async () => {
    const out = join(tmp.dir, 'checked')
    const lines: string[] = []
    const r = await runSweep({ file: SWEEP_SCENARIO, sets: SETS, seeds: 3, workers: 2, out, runner: FAKE_RUNNER, progress: 'none', checkDeterminism: 2, log: (l) => lines.push(l) })
    expect(r.failed).toEqual([])
    expect(r.determinism?.ok).toBe(true)
    const checked = r.determinism!.checks.map((c) => c.job.key)
    expect(checked).toEqual(sampleJobs(jobs, 2, 1).map((j) => j.key))
    expect(lines.join('\n')).toContain(`determinism check: running 2 of 6 finished run(s) again: ${checked.join(', ')}`)
    const text = describeSweepCheck(r.determinism!)
    expect(text).toContain(`deterministic: 2 run(s) re-run (${checked.join(', ')})`)
    expect(text).toContain('the runner recorded no trace: outputs compared only')
    for (const c of r.determinism!.checks) expect(existsSync(c.dir)).toBe(false)

    // The sweep's stored report of one job changed after the fact: the check names the job and the JSON path.
    const victim = jobs[4]!
    const report = join(out, 'runs', victim.key, 'report.json')
    const json = JSON.parse(readFileSync(report, 'utf8')) as { summary: { vaultProfit: number } }
    const was = json.summary.vaultProfit
    json.summary.vaultProfit = was + 1
    writeFileSync(report, JSON.stringify(json, null, 2) + '\n')
    const loaded = validateGrid(SWEEP_SCENARIO, points)
    const again = await checkSweepDeterminism({ outDir: out, finished: jobs, loaded, count: 6, sampleSeed: 1, runner: FAKE_RUNNER, tmpRoot: tmp.dir })
    expect(again.ok).toBe(false)
    expect(again.checks.filter((c) => !c.ok).map((c) => c.job.key)).toEqual([victim.key])
    const message = describeSweepCheck(again)
    expect(message).toContain('NOT deterministic: 1 of 6 re-run(s) differ')
    expect(message).toContain(`job ${victim.key} (keepers.count=2, seed 2):`)
    expect(message).toContain(`report.json differs: $.summary.vaultProfit: ${was + 1} vs ${was}`)
  }, 120_000)
})
