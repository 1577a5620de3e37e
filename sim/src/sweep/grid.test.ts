import { describe, expect, it } from 'vitest'
import { SWEEP_SCENARIO } from '../../../test/sim/sweepHelpers.js'
import { expandGrid, expandJobs, jobKey, parseSets, seedList, splitValues, SweepError, validateGrid } from './grid.js'

describe('parseSets', () => {
  it('parses each value as a YAML scalar, in the order given', () => {
    expect(parseSets(['keepers.count=1,2,4,8', 'keepers.minProfit=1.005,1.02', 'keepers.path=atomic,two-step'])).toEqual([
      { path: 'keepers.count', values: [1, 2, 4, 8] },
      { path: 'keepers.minProfit', values: [1.005, 1.02] },
      { path: 'keepers.path', values: ['atomic', 'two-step'] },
    ])
  })

  it('keeps commas inside flow collections and quotes', () => {
    expect(splitValues('[1,2],{a: 1, b: 2}, "x,y" ,z')).toEqual(['[1,2]', '{a: 1, b: 2}', '"x,y"', 'z'])
    expect(parseSets(['a.b=[1,2],[3]'])[0]!.values).toEqual([[1, 2], [3]])
  })

  it('accepts a single value (it applies to every point)', () => {
    expect(parseSets(['keepers.count=3'])).toEqual([{ path: 'keepers.count', values: [3] }])
  })

  it.each([
    ['keepers.count', /expected path=v1,v2/],
    ['=1,2', /expected path=v1,v2/],
    ['keepers.count=1,,2', /empty value/],
    ['keepers.count=', /empty value/],
    ['keepers.count=1,2,1', /value 1 is listed twice/],
    ['keepers.minProfit=1.02,1.020', /value 1.02 is listed twice/],
    ['run.seed=1,2', /--seeds and --seed-base/],
  ])('rejects --set %s', (arg, message) => {
    expect(() => parseSets([arg])).toThrow(SweepError)
    expect(() => parseSets([arg])).toThrow(message)
  })

  it('rejects the same path twice', () => {
    expect(() => parseSets(['keepers.count=1', 'keepers.count=2'])).toThrow(/keepers.count is given twice/)
  })
})

describe('expandGrid and expandJobs', () => {
  const params = parseSets(['keepers.count=1,2', 'keepers.minProfit=1.005,1.02,1.05'])

  it('is the cartesian product with the first parameter varying slowest', () => {
    const points = expandGrid(params)
    expect(points.map((p) => p.id)).toEqual([
      'keepers.count=1,keepers.minProfit=1.005',
      'keepers.count=1,keepers.minProfit=1.02',
      'keepers.count=1,keepers.minProfit=1.05',
      'keepers.count=2,keepers.minProfit=1.005',
      'keepers.count=2,keepers.minProfit=1.02',
      'keepers.count=2,keepers.minProfit=1.05',
    ])
    expect(points[4]).toEqual({
      index: 4,
      id: 'keepers.count=2,keepers.minProfit=1.02',
      overrides: [
        { path: 'keepers.count', value: 2 },
        { path: 'keepers.minProfit', value: 1.02 },
      ],
    })
  })

  it('has one point, base, without parameters', () => {
    expect(expandGrid([])).toEqual([{ index: 0, id: 'base', overrides: [] }])
    expect(expandJobs(expandGrid([]), [5]).map((j) => j.key)).toEqual(['seed=5'])
  })

  it('makes points × seeds jobs, point-major, with stable keys', () => {
    const jobs = expandJobs(expandGrid(params), seedList(1, 3))
    expect(jobs).toHaveLength(18)
    expect(jobs.map((j) => j.index)).toEqual([...Array(18).keys()])
    expect(jobs.slice(0, 4).map((j) => j.key)).toEqual([
      'keepers.count=1,keepers.minProfit=1.005,seed=1',
      'keepers.count=1,keepers.minProfit=1.005,seed=2',
      'keepers.count=1,keepers.minProfit=1.005,seed=3',
      'keepers.count=1,keepers.minProfit=1.02,seed=1',
    ])
    expect(new Set(jobs.map((j) => j.key)).size).toBe(18)
    expect(expandJobs(expandGrid(params), seedList(1, 3))).toEqual(jobs)
  })

  it('makes keys safe directory names, cutting long ones with a hash', () => {
    const [point] = expandGrid(parseSets(['market.note=a b/c']))
    expect(jobKey(point!, 2)).toBe('market.note=a_b_c,seed=2')
    const long = expandGrid(parseSets([`x=${'v'.repeat(300)},${'v'.repeat(299)}w`]))
    const keys = long.map((p) => jobKey(p, 1))
    for (const k of keys) expect(k.length).toBeLessThanOrEqual(180)
    expect(keys[0]).not.toBe(keys[1])
  })

  it('refuses points whose directory names collide', () => {
    expect(() => expandJobs(expandGrid(parseSets(['x=a b,a_b'])), [1])).toThrow(/same run directory/)
  })

  it('lists seeds from the base', () => {
    expect(seedList(1, 4)).toEqual([1, 2, 3, 4])
    expect(seedList(0, 1)).toEqual([0])
    expect(() => seedList(1, 0)).toThrow(/--seeds/)
    expect(() => seedList(-1, 2)).toThrow(/--seed-base/)
    expect(() => seedList(1.5, 2)).toThrow(/--seed-base/)
  })
})

describe('validateGrid', () => {
  it('loads every point of a valid grid', () => {
    const loaded = validateGrid(SWEEP_SCENARIO, expandGrid(parseSets(['keepers.count=1,4', 'keepers.minProfit=1.01,1.05'])))
    expect(loaded.map((l) => [l.scenario.keepers.count, l.scenario.keepers.minProfit])).toEqual([
      [1, 1.01],
      [1, 1.05],
      [4, 1.01],
      [4, 1.05],
    ])
    expect(new Set(loaded.map((l) => l.hash)).size).toBe(4)
  })

  it('names every bad point and its problem before anything runs', () => {
    const points = expandGrid(parseSets(['keepers.count=0,2,99', 'keepers.minProfit=1.02']))
    let error: Error | undefined
    try {
      validateGrid(SWEEP_SCENARIO, points)
    } catch (err) {
      error = err as Error
    }
    expect(error).toBeInstanceOf(SweepError)
    expect(error!.message).toMatch(/2 of 3 grid point\(s\) are not valid scenarios/)
    expect(error!.message).toMatch(/keepers.count=0,keepers.minProfit=1.02:\n\s+- --set keepers\.count=0: keepers\.count: must be at least 1, got 0\n/)
    expect(error!.message).toMatch(/keepers.count=99,keepers.minProfit=1.02:\n\s+- --set keepers\.count=99: keepers\.count: must be at most 16, got 99$/)
    expect(error!.message).not.toMatch(/keepers.count=2,/)
  })
})
