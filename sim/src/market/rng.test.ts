import { describe, expect, it } from 'vitest'
import { MarketModelError } from './errors.js'
import { derive } from './rng.js'
import { meanAndStd } from '../../../test/sim/marketStats.js'

function draws(n: number, next: () => number): Float64Array {
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) out[i] = next()
  return out
}

describe('derive', () => {
  it('gives the same draws for the same seed and labels', () => {
    const a = derive(42, 'price', 'WETH')
    const b = derive(42, 'price', 'WETH')
    expect(draws(1000, () => a.uniform())).toEqual(draws(1000, () => b.uniform()))
  })

  it('gives unrelated draws for another seed, another label, or labels split differently', () => {
    const base = draws(8, () => derive(42, 'price', 'WETH').uniform())
    for (const other of [derive(43, 'price', 'WETH'), derive(42, 'price', 'WBTC'), derive(42, 'priceWETH'), derive(42, 'price', 'WETH', 'x'), derive(42)]) {
      expect(draws(8, () => other.uniform())).not.toEqual(base)
    }
  })

  it('names the same stream with a number label or its decimal string', () => {
    expect(derive(1, 'keeper', 2).uniform()).toBe(derive(1, 'keeper', '2').uniform())
  })

  it('is pinned: the first draws of a stream never change (across machines and refactors)', () => {
    const rng = derive(1, 'price', 'WETH')
    const pinned = [rng.uniform(), rng.uniform(), rng.normal(), rng.poisson(3)]
    expect(pinned).toEqual([0.1348122670762687, 0.6828936309123047, 1.1031492425106069, 5])
  })

  it('keeps a stream unchanged when other streams are made and drawn from', () => {
    const alone = derive(9, 'price', 'WETH')
    const expected = draws(100, () => alone.normal())
    const other = derive(9, 'price', 'WBTC')
    const weth = derive(9, 'price', 'WETH')
    const got = new Float64Array(100)
    for (let i = 0; i < 100; i++) {
      other.normal()
      got[i] = weth.normal()
      other.poisson(5)
    }
    expect(got).toEqual(expected)
  })

  it('rejects a seed that is not a safe integer, and a fractional numeric label', () => {
    expect(() => derive(1.5)).toThrow(MarketModelError)
    expect(() => derive(Number.NaN)).toThrow(MarketModelError)
    expect(() => derive(1, 0.5)).toThrow(/safe integer/)
  })
})

describe('Rng distributions', () => {
  const n = 200_000

  it('uniform lies in [0, 1) with mean 1/2 and variance 1/12', () => {
    const rng = derive(3, 'uniform')
    const xs = draws(n, () => rng.uniform())
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true)
    const { mean, std } = meanAndStd(xs)
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.003)
    expect(Math.abs(std * std - 1 / 12)).toBeLessThan(0.001)
  })

  it('normal has mean 0, std 1 and 95 % of draws within ±1.96', () => {
    const rng = derive(4, 'normal')
    const xs = draws(n, () => rng.normal())
    const { mean, std } = meanAndStd(xs)
    expect(Math.abs(mean)).toBeLessThan(0.01)
    expect(Math.abs(std - 1)).toBeLessThan(0.01)
    const inside = xs.filter((x) => Math.abs(x) < 1.96).length / n
    expect(Math.abs(inside - 0.95)).toBeLessThan(0.003)
    let fourth = 0
    for (const x of xs) fourth += x ** 4
    expect(Math.abs(fourth / n - 3)).toBeLessThan(0.1)
  })

  it.each([0.02, 3, 1234.5])('poisson(%d) has mean and variance lambda', (lambda) => {
    const rng = derive(5, 'poisson', String(lambda))
    const count = lambda > 1000 ? 2000 : 50_000
    const xs = draws(count, () => rng.poisson(lambda))
    expect(xs.every((x) => Number.isInteger(x) && x >= 0)).toBe(true)
    const { mean, std } = meanAndStd(xs)
    const tolerance = 5 * Math.sqrt(lambda / count)
    expect(Math.abs(mean - lambda)).toBeLessThan(tolerance)
    expect(Math.abs(std * std - lambda) / lambda).toBeLessThan(0.1)
  })

  it('poisson(0) is 0 and a bad lambda throws', () => {
    const rng = derive(6)
    expect(rng.poisson(0)).toBe(0)
    expect(() => rng.poisson(-1)).toThrow(MarketModelError)
    expect(() => rng.poisson(Number.POSITIVE_INFINITY)).toThrow(MarketModelError)
  })

  it('int covers [min, max] evenly', () => {
    const rng = derive(7)
    const counts = [0, 0, 0, 0, 0, 0]
    for (let i = 0; i < 60_000; i++) counts[rng.int(0, 5)]! += 1
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500)
    expect(() => rng.int(3, 2)).toThrow(MarketModelError)
  })
})

describe('Rng.fork and clone', () => {
  it('fork does not advance the parent and gives a distinct, repeatable stream per label', () => {
    const parent = derive(8)
    const twin = derive(8)
    const a = parent.fork('diffusion')
    const a2 = parent.fork('diffusion')
    const b = parent.fork('jumps')
    expect(parent.uniform()).toBe(twin.uniform())
    const fromA = draws(10, () => a.uniform())
    expect(draws(10, () => a2.uniform())).toEqual(fromA)
    expect(draws(10, () => b.uniform())).not.toEqual(fromA)
  })

  it('clone continues with the same draws, independently', () => {
    const rng = derive(10)
    rng.normal()
    const copy = rng.clone()
    const x = rng.uniform()
    expect(copy.uniform()).toBe(x)
  })
})
