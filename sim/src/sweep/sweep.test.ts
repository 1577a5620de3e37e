/**
 * runSweep end to end on real worker processes (forked through tsx) with the fake runner of
 * test/sim/sweepFakeRunner.ts: every run directory and the aggregate are written, failures
 * (a throw, a worker that dies) are recorded and the sweep finishes, a second start resumes.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fakeSummary } from '../../../test/sim/sweepFakeRunner.js'
import { FAKE_RUNNER, SWEEP_SCENARIO, tempDir } from '../../../test/sim/sweepHelpers.js'
import type { RunErrorFile, RunSummaryFile } from './runFiles.js'
import { runSweep } from './sweep.js'

const tmp = tempDir()
afterAll(tmp.cleanup)

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

describe('runSweep with the fake runner on 2 workers', () => {
  const out = join(tmp.dir, 'grid')
  const lines: string[] = []
  const sweep = runSweep({
    file: SWEEP_SCENARIO,
    sets: ['keepers.count=1,2', 'keepers.minProfit=1.01,1.05'],
    seeds: 3,
    seedBase: 1,
    workers: 2,
    out,
    runner: FAKE_RUNNER,
    progress: 'lines',
    stream: { write: (s: string) => lines.push(s) === 0 } as unknown as NodeJS.WritableStream,
  })

  it('writes every run directory', async () => {
    const r = await sweep
    expect(r.outDir).toBe(out)
    expect(r.failed).toEqual([])
    const runs = readdirSync(join(out, 'runs')).sort()
    expect(runs).toHaveLength(12)
    expect(runs[0]).toBe('keepers.count=1,keepers.minProfit=1.01,seed=1')
    for (const run of runs) {
      for (const f of ['report.json', 'report.html', 'timeseries.csv', 'keepers.log', 'summary.json']) expect(existsSync(join(out, 'runs', run, f)), `${run}/${f}`).toBe(true)
      expect(existsSync(join(out, 'runs', run, 'error.json'))).toBe(false)
    }
    const s = readJson<RunSummaryFile>(join(out, 'runs', 'keepers.count=2,keepers.minProfit=1.05,seed=3', 'summary.json'))
    expect(s.seed).toBe(3)
    expect(s.overrides).toEqual([
      { path: 'keepers.count', value: 2 },
      { path: 'keepers.minProfit', value: 1.05 },
    ])
    expect(s.summary).toEqual(fakeSummary(3, 2, 1.05))
    expect(readJson<{ seed: number }>(join(out, 'runs', 'keepers.count=2,keepers.minProfit=1.05,seed=3', 'report.json')).seed).toBe(3)
  })

  it('writes the aggregate and the manifest', async () => {
    const r = await sweep
    expect(readFileSync(join(out, 'aggregate.json'), 'utf8')).toBe(JSON.stringify(r.aggregate, null, 2) + '\n')
    expect(existsSync(join(out, 'aggregate.csv'))).toBe(true)
    expect(existsSync(join(out, 'aggregate.html'))).toBe(true)
    const a = r.aggregate
    expect(a.points.map((p) => [p.id, p.runs])).toEqual([
      ['keepers.count=1,keepers.minProfit=1.01', 3],
      ['keepers.count=1,keepers.minProfit=1.05', 3],
      ['keepers.count=2,keepers.minProfit=1.01', 3],
      ['keepers.count=2,keepers.minProfit=1.05', 3],
    ])
    // vaultProfit = 10 × seed + count: seeds 1..3 with 2 keepers → 12, 22, 32
    expect(a.points[2]!.figures['vaultProfit']).toEqual({ mean: 22, p5: 13, p95: 31, n: 3 })
    // fill delay only on odd seeds (1 and 3)
    expect(a.points[0]!.figures['fillDelay.median']).toEqual({ mean: 2, p5: 1.1, p95: 2.9, n: 2 })
    const m = readJson<{ seeds: unknown; shard: unknown; jobs: number }>(join(out, 'sweep.json'))
    expect([m.seeds, m.shard, m.jobs]).toEqual([{ base: 1, count: 3 }, null, 12])
  })

  it('prints a line per finished job when stderr is not a terminal', async () => {
    await sweep
    const jobLines = lines.filter((l) => /^\[\s*\d+\/12\]/.test(l))
    expect(jobLines).toHaveLength(12)
    expect(jobLines.every((l) => / ok \(/.test(l))).toBe(true)
  })

  it('resumes: a second start keeps the finished runs', async () => {
    const first = await sweep
    const log: string[] = []
    const again = await runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.count=1,2', 'keepers.minProfit=1.01,1.05'], seeds: 3, workers: 2, out, runner: FAKE_RUNNER, progress: 'none', log: (l) => log.push(l) })
    expect(log[0]).toMatch(/12 already done; 0 to run/)
    expect(again.aggregate).toEqual(first.aggregate)
  })

  it('refuses to mix a different sweep into the directory', async () => {
    await sweep
    await expect(runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.count=1,3'], seeds: 3, out, runner: FAKE_RUNNER, progress: 'none' })).rejects.toThrow(/holds a different sweep \(grid differs/)
  })
})

describe('failing runs', () => {
  it('records a throwing run and a dying worker, and the sweep finishes', async () => {
    const out = join(tmp.dir, 'failing')
    const r = await runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.slippageBps=300,666,667'], seeds: 2, workers: 2, out, runner: FAKE_RUNNER, progress: 'none' })
    expect(r.failed.map((f) => [f.key, f.kind])).toEqual([
      ['keepers.slippageBps=666,seed=1', 'error'],
      ['keepers.slippageBps=666,seed=2', 'error'],
      ['keepers.slippageBps=667,seed=1', 'crash'],
      ['keepers.slippageBps=667,seed=2', 'crash'],
    ])
    const thrown = readJson<RunErrorFile>(join(out, 'runs', 'keepers.slippageBps=666,seed=2', 'error.json'))
    expect(thrown).toMatchObject({ seed: 2, point: 'keepers.slippageBps=666', overrides: [{ path: 'keepers.slippageBps', value: 666 }], kind: 'error', message: 'fake runner: slippage 666 is cursed' })
    const crash = readJson<RunErrorFile>(join(out, 'runs', 'keepers.slippageBps=667,seed=1', 'error.json'))
    expect(crash).toMatchObject({ seed: 1, kind: 'crash', message: 'the worker process exited with code 9', output: 'fake runner: about to die' })
    // the good point still ran on both seeds, after the crashes too
    expect(r.aggregate.points.map((p) => [p.id, p.runs, p.failed])).toEqual([
      ['keepers.slippageBps=300', 2, []],
      ['keepers.slippageBps=666', 0, [1, 2]],
      ['keepers.slippageBps=667', 0, [1, 2]],
    ])
    expect(existsSync(join(out, 'aggregate.json'))).toBe(true)
  })

  it('fails before any run when a grid point is not a valid scenario', async () => {
    const out = join(tmp.dir, 'invalid')
    await expect(runSweep({ file: SWEEP_SCENARIO, sets: ['keepers.count=2,0'], seeds: 2, out, runner: FAKE_RUNNER, progress: 'none' })).rejects.toThrow(/keepers.count=0:\n\s+- --set keepers\.count=0: keepers\.count: must be at least 1/)
    expect(existsSync(out)).toBe(false)
  })
})
