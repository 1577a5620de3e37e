import { describe, expect, it } from 'vitest'
import { correlation as sampleCorrelation, meanAndStd, pathLogReturns } from '../../../test/sim/marketStats.js'
import { priceModel, type PriceModel } from '../scenario/schema.js'
import { cholesky, correlateShocks, correlationMatrix, correlationProblems, type CorrelationSpec } from './correlation.js'
import { MarketModelError } from './errors.js'
import { YEAR_SECONDS } from './grid.js'
import { marketTimeline } from './paths.js'

const gbm = (volatility: number, drift = 0): PriceModel => priceModel.parse({ model: 'gbm', volatility, drift })
const assets = [
  { code: 'WETH', price: 2000 },
  { code: 'WBTC', price: 60_000 },
  { code: 'XLM', price: 0.12 },
]
/** 200k ledgers of 5 s: the sample correlation's standard error is (1 − ρ²)/√n ≤ 0.0023. */
const long = { seed: 3, steps: 200_000, dtSeconds: 5 }

/** L·Lᵀ. */
function product(l: number[][]): number[][] {
  return l.map((row, i) => l.map((_, j) => row.reduce((sum, v, k) => sum + v * l[j]![k]!, 0 * i)))
}

function problemsOf(spec: CorrelationSpec): string[] {
  return correlationProblems(spec).map((p) => `${p.path.join('.')}: ${p.message}`)
}

describe('cholesky', () => {
  it('factors a 2 × 2 correlation into [[1, 0], [ρ, √(1 − ρ²)]]', () => {
    const r = cholesky([[1, 0.8], [0.8, 1]])
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.factor[0]).toEqual([1, 0])
    expect(r.factor[1]![0]).toBeCloseTo(0.8, 15)
    expect(r.factor[1]![1]).toBeCloseTo(0.6, 15)
  })

  it('reproduces a 3 × 3 matrix, and accepts singular ones (ρ = ±1)', () => {
    const m = [[1, 0.5, -0.3], [0.5, 1, 0.2], [-0.3, 0.2, 1]]
    const r = cholesky(m)
    expect(r.ok).toBe(true)
    if (r.ok) product(r.factor).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(m[i]![j]!, 14)))
    expect(cholesky([[1, 1], [1, 1]])).toEqual({ ok: true, factor: [[1, 0], [1, 0]] })
    expect(cholesky([[1, -1], [-1, 1]]).ok).toBe(true)
    // Three assets moving as one: two zero pivots, still a valid factor.
    expect(cholesky(correlationMatrix({ assets: ['A', 'B', 'C'], rho: 1 })).ok).toBe(true)
  })

  it('finds where a matrix stops being positive semi-definite', () => {
    expect(cholesky([[1, 0.9, -0.9], [0.9, 1, 0.9], [-0.9, 0.9, 1]])).toMatchObject({ ok: false, row: 2 })
    // A zero pivot with a nonzero entry below it: A ≡ B, yet B and C correlate and A and C do not.
    expect(cholesky([[1, 1, 0], [1, 1, 0.5], [0, 0.5, 1]])).toMatchObject({ ok: false, row: 2 })
  })
})

describe('correlationProblems', () => {
  const two = ['WETH', 'WBTC']

  it('accepts rho for every pair and a valid matrix', () => {
    expect(problemsOf({ assets: two, rho: 0.8 })).toEqual([])
    expect(problemsOf({ assets: two, matrix: [[1, -0.4], [-0.4, 1]] })).toEqual([])
    expect(correlationMatrix({ assets: ['A', 'B', 'C'], rho: 0.3 })).toEqual([[1, 0.3, 0.3], [0.3, 1, 0.3], [0.3, 0.3, 1]])
  })

  it('names an asymmetric pair, a bad diagonal and an entry outside [-1, 1]', () => {
    expect(problemsOf({ assets: two, matrix: [[1, 0.8], [0.5, 1]] })).toEqual([
      'matrix.0.1: the matrix must be symmetric: entry [0][1] (WETH, WBTC) is 0.8 but [1][0] is 0.5',
    ])
    expect(problemsOf({ assets: two, matrix: [[1, 0.5], [0.5, 0.9]] })).toEqual([
      'matrix.1.1: entry [1][1] (WBTC, WBTC) is 0.9; the diagonal must be 1 (an asset\'s correlation with itself)',
    ])
    expect(problemsOf({ assets: two, matrix: [[1, 1.5], [1.5, 1]] })[0]).toMatch(/^matrix\.0\.1: entry \[0\]\[1\] \(WETH, WBTC\) is 1\.5; correlations lie between -1 and 1/)
    expect(problemsOf({ assets: two, rho: -1.2 })).toEqual(['rho: a correlation between -1 and 1, got -1.2'])
  })

  it('names a matrix of the wrong size or not square', () => {
    expect(problemsOf({ assets: two, matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] })[0]).toBe('matrix: 2 assets need 2 rows, got 3')
    expect(problemsOf({ assets: two, matrix: [[1, 0.5], [0.5]] })).toEqual(['matrix.1: row 1 has 1 entries; the matrix must be square (2 × 2)'])
  })

  it('explains a matrix that is not positive semi-definite, and the bound on a common rho', () => {
    const assets3 = ['WETH', 'WBTC', 'XLM']
    expect(problemsOf({ assets: assets3, matrix: [[1, 0.9, -0.9], [0.9, 1, 0.9], [-0.9, 0.9, 1]] })).toEqual([
      'matrix: not positive semi-definite, so no assets can have these correlations: the Cholesky factorisation fails at row 2 (XLM), pivot -15.20',
    ])
    expect(problemsOf({ assets: assets3, rho: -0.6 })[0]).toMatch(/^rho: not positive semi-definite.*a common rho must be at least -1\/2 = -0\.5000$/)
    expect(problemsOf({ assets: assets3, rho: -0.5 })).toEqual([])
  })

  it('needs exactly one of rho and matrix, two or more assets, each once', () => {
    expect(problemsOf({ assets: two })).toEqual([': give exactly one of rho (every pair) or matrix (one row per asset)'])
    expect(problemsOf({ assets: two, rho: 0.5, matrix: [[1, 0.5], [0.5, 1]] })[0]).toMatch(/exactly one of rho/)
    expect(problemsOf({ assets: ['WETH'], rho: 0.5 })[0]).toBe('assets: needs at least two assets to correlate, got 1')
    expect(problemsOf({ assets: ['WETH', 'WETH'], rho: 0.5 })[0]).toBe('assets.1: WETH is listed twice')
  })
})

describe('correlated GBM', () => {
  const prices = { WETH: gbm(0.8), WBTC: gbm(0.5), XLM: gbm(1.2) }

  it.each([0.8, 0.3, 0, -0.6])('the shocks of a long seeded path correlate at rho %s; each asset keeps its own volatility', (rho) => {
    const timeline = marketTimeline({ prices, correlation: { assets: ['WETH', 'WBTC'], rho } }, assets, long)
    const weth = pathLogReturns(timeline.WETH!)
    const wbtc = pathLogReturns(timeline.WBTC!)
    expect(Math.abs(sampleCorrelation(weth, wbtc) - rho)).toBeLessThan(0.01)
    // XLM is not in the block: independent of both.
    expect(Math.abs(sampleCorrelation(weth, pathLogReturns(timeline.XLM!)))).toBeLessThan(0.01)
    // Annualised standard deviation of the log returns: σ within 1 % (standard error ≈ 0.16 %).
    const annual = (xs: Float64Array) => meanAndStd(xs).std / Math.sqrt(long.dtSeconds / YEAR_SECONDS)
    expect(Math.abs(annual(weth) / 0.8 - 1)).toBeLessThan(0.01)
    expect(Math.abs(annual(wbtc) / 0.5 - 1)).toBeLessThan(0.01)
  })

  it('matches every pair of a full 3 × 3 matrix', () => {
    const matrix = [[1, 0.6, -0.3], [0.6, 1, 0.1], [-0.3, 0.1, 1]]
    const timeline = marketTimeline({ prices, correlation: { assets: ['WETH', 'WBTC', 'XLM'], matrix } }, assets, long)
    const r = ['WETH', 'WBTC', 'XLM'].map((c) => pathLogReturns(timeline[c]!))
    for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) expect(Math.abs(sampleCorrelation(r[i]!, r[j]!) - matrix[i]![j]!)).toBeLessThan(0.01)
  })

  it('is reproducible; with rho 0 every path is the uncorrelated one, and the first asset never changes', () => {
    const grid = { seed: 11, steps: 5000, dtSeconds: 5 }
    const correlated = (rho: number) => marketTimeline({ prices, correlation: { assets: ['WETH', 'WBTC'], rho } }, assets, grid)
    expect(correlated(0.7)).toEqual(correlated(0.7))
    const independent = marketTimeline({ prices }, assets, grid)
    expect(correlated(0)).toEqual(independent)
    expect(correlated(0.7).WETH).toEqual(independent.WETH)
    expect(correlated(0.7).WBTC).not.toEqual(independent.WBTC)
    expect(correlated(0.7).XLM).toEqual(independent.XLM)
    expect(marketTimeline({ prices, correlation: { assets: ['WETH', 'WBTC'], rho: 0.7 } }, assets, { ...grid, seed: 12 }).WBTC).not.toEqual(correlated(0.7).WBTC)
  })

  it('with rho 1 moves two assets with equal volatility in lockstep', () => {
    const timeline = marketTimeline({ prices: { WETH: gbm(0.8), WBTC: gbm(0.8) }, correlation: { assets: ['WETH', 'WBTC'], rho: 1 } }, assets, { ...long, steps: 1000 })
    timeline.WETH!.forEach((p, i) => expect(timeline.WBTC![i]! / 60_000).toBeCloseTo(p / 2000, 12))
  })

  it('correlates the diffusion of a jumps model and leaves its jumps independent', () => {
    const jumps = priceModel.parse({ model: 'jumps', volatility: 0.8, jumpsPerDay: 0, jumpMean: -0.1 })
    const withJumps = { WETH: gbm(0.8), WBTC: jumps }
    const timeline = marketTimeline({ prices: withJumps, correlation: { assets: ['WETH', 'WBTC'], rho: 0.9 } }, assets, long)
    expect(Math.abs(sampleCorrelation(pathLogReturns(timeline.WETH!), pathLogReturns(timeline.WBTC!)) - 0.9)).toBeLessThan(0.01)
  })

  it('refuses an unknown asset, a model without GBM shocks, and a bad matrix', () => {
    expect(() => marketTimeline({ prices, correlation: { assets: ['WETH', 'DOGE'], rho: 0.5 } }, assets, long)).toThrow(
      /market\.correlation\.assets\.1: no world asset has the code DOGE/,
    )
    expect(() => marketTimeline({ prices: { WETH: gbm(0.8) }, correlation: { assets: ['WETH', 'WBTC'], rho: 0.5 } }, assets, long)).toThrow(
      /market\.correlation\.assets\.1: WBTC's price model is constant; only gbm and jumps/,
    )
    expect(() => marketTimeline({ prices, correlation: { assets: ['WETH', 'WBTC'], matrix: [[1, 0.5], [0.4, 1]] } }, assets, long)).toThrow(MarketModelError)
    expect(() => correlateShocks({ assets: ['A', 'B'], rho: 0.5 }, [new Float64Array(3)])).toThrow(/2 assets but 1 shock series/)
  })
})
