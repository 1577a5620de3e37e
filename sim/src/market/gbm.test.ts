import { describe, expect, it } from 'vitest'
import { diffusionIncrements, gbmPath, jumpIncrements, jumpsPath } from './gbm.js'
import { DAY_SECONDS, YEAR_SECONDS, type JumpsModel } from './grid.js'
import { derive } from './rng.js'
import { meanAndStd, pathLogReturns } from '../../../test/sim/marketStats.js'

describe('gbmPath', () => {
  const grid = { steps: 1000, dtSeconds: 5, startPrice: 2000 }
  const model = { model: 'gbm' as const, drift: 0.1, volatility: 0.8 }

  it('has steps + 1 values starting at the start price', () => {
    const path = gbmPath(model, grid, derive(1))
    expect(path.length).toBe(1001)
    expect(path[0]).toBe(2000)
    expect(path.every((p) => p > 0 && Number.isFinite(p))).toBe(true)
  })

  it('repeats for the same stream and differs for another', () => {
    expect(gbmPath(model, grid, derive(1, 'a'))).toEqual(gbmPath(model, grid, derive(1, 'a')))
    expect(gbmPath(model, grid, derive(1, 'a'))).not.toEqual(gbmPath(model, grid, derive(2, 'a')))
  })

  // Daily steps so that the drift term is large against the sampling error of the mean. A price
  // path of 200k days would leave the range of a double, so the log increments are checked, and
  // the next test checks that a path is built from exactly these increments.
  it.each([
    { drift: 0, volatility: 2 },
    { drift: 2, volatility: 0.8 },
  ])('log-returns have mean (μ − σ²/2)·dt and std σ·√dt over 200k steps (%o)', ({ drift, volatility }) => {
    const n = 200_000
    const dtSeconds = DAY_SECONDS
    const increments = diffusionIncrements(drift, volatility, { steps: n, dtSeconds, startPrice: 1 }, derive(11, 'gbm'))
    const dt = dtSeconds / YEAR_SECONDS
    const expectedMean = (drift - (volatility * volatility) / 2) * dt
    const expectedStd = volatility * Math.sqrt(dt)
    const { mean, std } = meanAndStd(increments)
    // 4 standard errors of the sample mean; 1 % on the std (its standard error is ~0.16 %).
    expect(Math.abs(mean - expectedMean)).toBeLessThan((4 * expectedStd) / Math.sqrt(n))
    expect(Math.abs(std / expectedStd - 1)).toBeLessThan(0.01)
    // The volatility correction is visible: the mean is far from μ·dt.
    expect(Math.abs(mean - drift * dt)).toBeGreaterThan((6 * expectedStd) / Math.sqrt(n))
  })

  it('steps the price by exactly those log increments', () => {
    const increments = diffusionIncrements(0.1, 0.8, grid, derive(12))
    const path = gbmPath(model, grid, derive(12))
    let logReturn = 0
    for (let i = 0; i < grid.steps; i++) {
      logReturn += increments[i]!
      expect(path[i + 1]).toBe(2000 * Math.exp(logReturn))
    }
  })

  it('is flat with no drift and no volatility', () => {
    const path = gbmPath({ model: 'gbm', drift: 0, volatility: 0 }, grid, derive(1))
    expect(path.every((p) => p === 2000)).toBe(true)
  })

  it('drives paths with different volatility by the same shocks', () => {
    const low = pathLogReturns(gbmPath({ model: 'gbm', drift: 0, volatility: 0.4 }, grid, derive(5)))
    const high = pathLogReturns(gbmPath({ model: 'gbm', drift: 0, volatility: 0.8 }, grid, derive(5)))
    const dt = grid.dtSeconds / YEAR_SECONDS
    for (let i = 0; i < low.length; i++) {
      const zLow = (low[i]! + 0.08 * dt) / (0.4 * Math.sqrt(dt))
      const zHigh = (high[i]! + 0.32 * dt) / (0.8 * Math.sqrt(dt))
      expect(zHigh).toBeCloseTo(zLow, 6)
    }
  })
})

describe('jumps', () => {
  const crashes: JumpsModel = { model: 'jumps', drift: 0, volatility: 0, jumpsPerDay: 24, jumpMean: -0.1, jumpStd: 0 }
  const n = 200_000
  const dtSeconds = 60
  const expectedJumps = (24 * n * dtSeconds) / DAY_SECONDS

  it('counts about rate × time jumps, each of log size jumpMean when jumpStd is 0', () => {
    const jumps = jumpIncrements(crashes, { steps: n, dtSeconds, startPrice: 1 }, derive(21))
    let count = 0
    let offGrid = 0
    for (const j of jumps) {
      const k = Math.round(j / -0.1)
      if (Math.abs(j - k * -0.1) > 1e-9) offGrid += 1
      count += k
    }
    expect(offGrid).toBe(0)
    // Poisson: standard deviation √expected; allow 4 of them.
    expect(Math.abs(count - expectedJumps)).toBeLessThan(4 * Math.sqrt(expectedJumps))
  })

  it('draws jump log sizes with mean jumpMean and std jumpStd', () => {
    const model: JumpsModel = { ...crashes, jumpMean: -0.08, jumpStd: 0.05 }
    const jumps = jumpIncrements(model, { steps: n, dtSeconds, startPrice: 1 }, derive(22))
    const nonzero = jumps.filter((j) => j !== 0)
    // Steps with two jumps are rare (λ ≈ 0.017 per step); E[N | N ≥ 1] = λ / (1 − e^−λ).
    const lambda = (24 * dtSeconds) / DAY_SECONDS
    const perStep = lambda / (1 - Math.exp(-lambda))
    expect(Math.abs(nonzero.length - n * (1 - Math.exp(-lambda)))).toBeLessThan(4 * Math.sqrt(expectedJumps))
    const { mean, std } = meanAndStd(nonzero)
    expect(Math.abs(mean - -0.08 * perStep)).toBeLessThan((4 * 0.05) / Math.sqrt(nonzero.length))
    expect(Math.abs(std - 0.05)).toBeLessThan(0.003)
  })

  it('equals the GBM path of the same stream without jumps, and falls below it with them', () => {
    const grid = { steps: 5000, dtSeconds: 5, startPrice: 100 }
    const gbm = gbmPath({ model: 'gbm', drift: 0.05, volatility: 0.6 }, grid, derive(30))
    const noJumps = jumpsPath({ model: 'jumps', drift: 0.05, volatility: 0.6, jumpsPerDay: 0, jumpMean: -0.2, jumpStd: 0 }, grid, derive(30))
    expect(noJumps).toEqual(gbm)
    const withJumps = jumpsPath({ model: 'jumps', drift: 0.05, volatility: 0.6, jumpsPerDay: 20, jumpMean: -0.2, jumpStd: 0 }, grid, derive(30))
    // 20 a day over ~7 h: several jumps of −20 % in log; the diffusion shocks are shared.
    const ratio = withJumps[grid.steps]! / gbm[grid.steps]!
    const jumpsSeen = Math.round(Math.log(ratio) / -0.2)
    expect(jumpsSeen).toBeGreaterThan(0)
    expect(Math.log(ratio)).toBeCloseTo(jumpsSeen * -0.2, 9)
  })
})
