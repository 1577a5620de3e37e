/**
 * merge of shard directories: the same aggregate and table bytes as one machine running the whole sweep,
 * and clear refusals for missing, duplicated or foreign shards.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RUNNER, SWEEP_SCENARIO, tempDir } from '../../../test/sim/sweepHelpers.js'
import { merge } from './merge.js'
import { runSweep, type SweepOptions } from './sweep.js'
import { TABLE_NAMES } from './tables.js'

const tmp = tempDir()
afterAll(tmp.cleanup)

const base: SweepOptions = {
  file: SWEEP_SCENARIO,
  sets: ['keepers.count=1,2,4', 'keepers.minProfit=1.005,1.05', 'keepers.slippageBps=300,666'],
  seeds: 3,
  seedBase: 7,
  workers: 2,
  runner: FAKE_RUNNER,
  progress: 'none',
}
const dir = (name: string) => join(tmp.dir, name)
const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8')
const bytes = (d: string, f: string) => readFileSync(join(d, f))
const TABLE_FILES = TABLE_NAMES.flatMap((t) => [`${t}.parquet`, `${t}.csv`])

beforeAll(async () => {
  await runSweep({ ...base, out: dir('single') })
  await runSweep({ ...base, out: dir('shard0'), shard: '0/2' })
  await runSweep({ ...base, out: dir('shard1'), shard: '1/2' })
  await runSweep({ ...base, out: dir('third0'), shard: '0/3', workers: 1 })
}, 120_000)

describe('merge', () => {
  it('gives byte-identical aggregate files to a single-machine sweep', async () => {
    const r = await merge([dir('shard1'), dir('shard0')], dir('merged'))
    for (const f of ['aggregate.json', 'aggregate.csv', 'aggregate.html']) expect(read(dir('merged'), f) === read(dir('single'), f), f).toBe(true)
    for (const f of TABLE_FILES) expect(bytes(dir('merged'), f).equals(bytes(dir('single'), f)), f).toBe(true)
    expect(r.failed).toHaveLength(18)
    expect(readdirSync(join(dir('merged'), 'runs')).sort()).toEqual(readdirSync(join(dir('single'), 'runs')).sort())
    const m = JSON.parse(read(dir('merged'), 'sweep.json')) as { shard: unknown; jobs: number }
    expect([m.shard, m.jobs]).toEqual([null, 36])
    // each shard's own aggregate covers its half only
    const half = JSON.parse(read(dir('shard0'), 'aggregate.json')) as { shard: unknown; points: { runs: number; failed: number[] }[] }
    expect(half.shard).toEqual({ index: 0, count: 2 })
    expect(half.points.reduce((n, p) => n + p.runs + p.failed.length, 0)).toBe(18)
  })

  it('can write the aggregate without copying the runs', async () => {
    await merge([dir('shard0'), dir('shard1')], dir('lean'), { copyRuns: false })
    expect(read(dir('lean'), 'aggregate.json') === read(dir('single'), 'aggregate.json')).toBe(true)
    expect(readdirSync(dir('lean')).sort()).toEqual(['aggregate.csv', 'aggregate.html', 'aggregate.json', 'sweep.json', ...TABLE_FILES].sort())
    // the tables read the reports where the shards keep them
    for (const f of TABLE_FILES) expect(bytes(dir('lean'), f).equals(bytes(dir('single'), f)), f).toBe(true)
  })

  it('names the missing runs and the shard that should have them', async () => {
    await expect(merge([dir('shard0')], dir('m1'))).rejects.toThrow(/18 of 36 run\(s\) are missing\n\s+keepers.count=1,keepers.minProfit=1.005,keepers.slippageBps=300,seed=8: no directory's shard covers it \(shard 1\/2 not given\?\)/)
    const partial = dir('partial')
    await runSweep({ ...base, out: partial, shard: '1/2' })
    rmSync(join(partial, 'runs', 'keepers.count=4,keepers.minProfit=1.05,keepers.slippageBps=300,seed=8'), { recursive: true })
    await expect(merge([dir('shard0'), partial], dir('m2'))).rejects.toThrow(/1 of 36 run\(s\) are missing\n\s+keepers.count=4,keepers.minProfit=1.05,keepers.slippageBps=300,seed=8: expected in .*partial \(not finished\?\)/)
    const r = await merge([dir('shard0'), partial], dir('m3'), { allowMissing: true })
    expect(r.aggregate.points.find((p) => p.id === 'keepers.count=4,keepers.minProfit=1.05,keepers.slippageBps=300')!.missing).toEqual([8])
  })

  it('refuses runs recorded in two directories', async () => {
    await expect(merge([dir('shard0'), dir('shard1'), dir('third0')], dir('m4'))).rejects.toThrow(/12 run\(s\) are recorded in more than one directory \(overlapping shards\?\)\n\s+\S+: .*shard0, .*third0/)
  })

  it('refuses directories of different sweeps', async () => {
    const other = dir('other')
    await runSweep({ ...base, seeds: 2, out: other, shard: '1/2' })
    await expect(merge([dir('shard0'), other], dir('m5'))).rejects.toThrow(/not shards of one sweep\n.*seeds differ \(3 from 7 vs 2 from 7\)/)
    await expect(merge([dir('shard0'), tmp.dir], dir('m6'))).rejects.toThrow(/is not a sweep directory \(no sweep.json\)/)
    await expect(merge([dir('shard0'), dir('shard1')], dir('shard0'))).rejects.toThrow(/is one of the directories to merge/)
  })
})
