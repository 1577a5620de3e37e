import { describe, expect, it } from 'vitest'
import { derive } from '../market/rng.js'
import { BOOTSTRAP_RESAMPLES, bootstrapInterval, bootstrapStream } from './bootstrap.js'

const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

describe('bootstrapStream', () => {
  it('is the rng stream named by scenario hash, point id and figure name', () => {
    const a = bootstrapStream('hash', 'point', 'figure')
    const b = derive(0, 'sweep-bootstrap', 'hash', 'point', 'figure')
    expect([a.uniform(), a.uniform()]).toEqual([b.uniform(), b.uniform()])
    expect(bootstrapStream('hash', 'point', 'other').uniform()).not.toBe(bootstrapStream('hash', 'point', 'figure').uniform())
  })
})

describe('bootstrapInterval', () => {
  it('matches a hand computation with B = 4', () => {
    // The stream's first 12 draws of int(0, 2), resample by resample (indices into the sorted values):
    const rng = bootstrapStream('hash', 'point', 'figure')
    const indices = Array.from({ length: 4 }, () => Array.from({ length: 3 }, () => rng.int(0, 2)))
    expect(indices).toEqual([
      [1, 2, 1],
      [1, 1, 0],
      [1, 2, 0],
      [0, 1, 2],
    ])
    // Values 1, 2, 4 → resamples {2, 4, 2}, {2, 2, 1}, {2, 4, 1}, {1, 2, 4}; means 8/3, 5/3, 7/3, 7/3.
    // Sorted: 5/3, 7/3, 7/3, 8/3. Type 7 at 0.025: h = 3 × 0.025 = 0.075 → 5/3 + 0.075 × 2/3 = 1.7166…
    // at 0.975: h = 2.925 → 7/3 + 0.925 × 1/3 = 2.6416…; both rounded to 12 significant digits.
    const ci = bootstrapInterval([1, 2, 4], meanOf, bootstrapStream('hash', 'point', 'figure'), 4)
    expect(ci).toEqual({ lo: 1.71666666667, hi: 2.64166666667 })
  })

  it('agrees with an independent resampling of B = 1000 means', () => {
    // indices point into the values sorted ascending
    const values = [0, 1, 3, 4, 7, 10]
    const rng = bootstrapStream('h', 'p', 'f')
    const means: number[] = []
    for (let b = 0; b < 1000; b++) {
      let sum = 0
      for (let i = 0; i < values.length; i++) sum += values[rng.int(0, values.length - 1)]!
      means.push(sum / values.length)
    }
    means.sort((a, b) => a - b)
    // type 7 at 0.025 and 0.975 of 1000 values: h = 24.975 and 974.025
    const lo = means[24]! + 0.975 * (means[25]! - means[24]!)
    const hi = means[974]! + 0.025 * (means[975]! - means[974]!)
    const ci = bootstrapInterval([3, 10, 0, 7, 1, 4], (s) => meanOf(s), bootstrapStream('h', 'p', 'f'))!
    expect(ci.lo).toBeCloseTo(lo, 9)
    expect(ci.hi).toBeCloseTo(hi, 9)
    expect(BOOTSTRAP_RESAMPLES).toBe(1000)
  })

  it('gives the same interval for the same values and key, every time', () => {
    const values = [0.5, -1, 2, 8, 3]
    const a = bootstrapInterval(values, meanOf, bootstrapStream('h', 'p', 'f'))
    const b = bootstrapInterval(values, meanOf, bootstrapStream('h', 'p', 'f'))
    expect(a).toEqual(b)
  })

  it('is null below two values and a point for a constant sample', () => {
    expect(bootstrapInterval([], meanOf, bootstrapStream('h', 'p', 'f'))).toBeNull()
    expect(bootstrapInterval([5], meanOf, bootstrapStream('h', 'p', 'f'))).toBeNull()
    expect(bootstrapInterval([5, 5, 5], meanOf, bootstrapStream('h', 'p', 'f'))).toEqual({ lo: 5, hi: 5 })
  })

  it('hands the statistic each resample sorted ascending', () => {
    const seen: number[][] = []
    bootstrapInterval([3, 1, 2], (s) => (seen.push([...s]), s[0]!), bootstrapStream('h', 'p', 'f'), 20)
    expect(seen).toHaveLength(20)
    for (const s of seen) expect(s).toEqual([...s].sort((a, b) => a - b))
  })

  it('rejects bad resample counts and levels', () => {
    expect(() => bootstrapInterval([1, 2], meanOf, bootstrapStream('h', 'p', 'f'), 0)).toThrow(RangeError)
    expect(() => bootstrapInterval([1, 2], meanOf, bootstrapStream('h', 'p', 'f'), 10, 1)).toThrow(RangeError)
  })
})
