import { describe, expect, it } from 'vitest'
import { expandGrid, expandJobs, parseSets, seedList } from './grid.js'
import { parseShard, selectShard } from './shard.js'

describe('parseShard', () => {
  it('reads i/N with shards numbered from 0', () => {
    expect(parseShard('0/4')).toEqual({ index: 0, count: 4 })
    expect(parseShard(' 3 / 4 ')).toEqual({ index: 3, count: 4 })
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 })
  })

  it.each([
    ['4/4', /numbered from 0/],
    ['1/1', /numbered from 0/],
    ['0/0', /N must be at least 1/],
    ['-1/4', /expected i\/N/],
    ['1', /expected i\/N/],
    ['a/b', /expected i\/N/],
    ['1.5/4', /expected i\/N/],
  ])('rejects %s', (text, message) => {
    expect(() => parseShard(text)).toThrow(message)
  })
})

describe('selectShard', () => {
  const jobs = expandJobs(expandGrid(parseSets(['keepers.count=1,2,4,8', 'keepers.minProfit=1.005,1.02,1.05'])), seedList(1, 5))

  it('covers every job exactly once over N shards', () => {
    for (const n of [1, 2, 3, 4, 7, 60, 61, 100]) {
      const seen = new Map<number, number>()
      for (let i = 0; i < n; i++) for (const j of selectShard(jobs, { index: i, count: n })) seen.set(j.index, (seen.get(j.index) ?? 0) + 1)
      expect(seen.size, `N=${n}`).toBe(jobs.length)
      expect([...seen.values()].every((c) => c === 1), `N=${n}`).toBe(true)
    }
  })

  it('takes the jobs whose index is i modulo N, in job order', () => {
    expect(selectShard(jobs, { index: 1, count: 4 }).map((j) => j.index)).toEqual([1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57])
    expect(selectShard(jobs, undefined)).toEqual(jobs)
  })

  it('balances shards within one job', () => {
    const sizes = Array.from({ length: 7 }, (_, i) => selectShard(jobs, { index: i, count: 7 }).length)
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
  })
})
