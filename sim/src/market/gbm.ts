/**
 * Diffusion price paths: geometric Brownian motion and Merton's jump diffusion (GBM plus
 * Poisson-timed jumps), both stepped exactly in log price so the ledger spacing introduces no
 * discretisation error in the distribution of each step.
 */
import { DAY_SECONDS, YEAR_SECONDS, checkGrid, type GbmModel, type JumpsModel, type PathGrid } from './grid.js'
import { MarketModelError } from './errors.js'
import type { Rng } from './rng.js'

/**
 * The standard normal shocks of a diffusion, one per ledger step, from `rng.fork('diffusion')`.
 * One is drawn per step whatever the model's parameters, so two paths on the same stream are
 * driven by the same shocks (a sweep over volatility compares like with like), and a correlated
 * market (correlation.ts) can mix the shocks of several assets before they are used.
 */
export function diffusionShocks(grid: PathGrid, rng: Rng): Float64Array {
  const shocks = rng.fork('diffusion')
  const out = new Float64Array(grid.steps)
  for (let i = 0; i < grid.steps; i++) out[i] = shocks.normal()
  return out
}

/**
 * The log-price increments of GBM with annual drift `drift` and volatility `volatility`, one per
 * ledger step: (μ − σ²/2)·dt + σ·√dt·Z with dt in years and Z standard normal.
 *
 * The shocks Z are `shocks` when given (standard normal, one per step: a correlated market's
 * mix), otherwise {@link diffusionShocks} of `rng`.
 */
export function diffusionIncrements(drift: number, volatility: number, grid: PathGrid, rng: Rng, shocks?: Float64Array): Float64Array {
  const z = shocks ?? diffusionShocks(grid, rng)
  if (z.length !== grid.steps) throw new MarketModelError(`expected ${grid.steps} diffusion shocks, got ${z.length}`)
  const dtYears = grid.dtSeconds / YEAR_SECONDS
  const driftPerStep = (drift - 0.5 * volatility * volatility) * dtYears
  const shockScale = volatility * Math.sqrt(dtYears)
  const out = new Float64Array(grid.steps)
  for (let i = 0; i < grid.steps; i++) out[i] = driftPerStep + shockScale * z[i]!
  return out
}

/** Prices from log increments: p[0] = start, p[i] = start · exp(sum of the first i increments). */
export function pathFromLogIncrements(startPrice: number, increments: Float64Array): Float64Array {
  const out = new Float64Array(increments.length + 1)
  out[0] = startPrice
  let logReturn = 0
  for (let i = 0; i < increments.length; i++) {
    logReturn += increments[i]!
    out[i + 1] = startPrice * Math.exp(logReturn)
  }
  return out
}

/**
 * A GBM path: p[i+1] = p[i] · exp((μ − σ²/2)·dt + σ·√dt·Z), the exact log-normal step, so the
 * expected price grows at rate μ and the log-returns have mean (μ − σ²/2)·dt and standard
 * deviation σ·√dt. `shocks` (optional) replaces the stream's own Z (see {@link diffusionIncrements}).
 *
 * @example
 * import { derive, gbmPath } from './index.js'
 * const p = gbmPath({ model: 'gbm', drift: 0, volatility: 0.8 }, { steps: 720, dtSeconds: 5, startPrice: 2000 }, derive(1, 'price', 'WETH'))
 */
export function gbmPath(model: GbmModel, grid: PathGrid, rng: Rng, shocks?: Float64Array): Float64Array {
  checkGrid(grid)
  return pathFromLogIncrements(grid.startPrice, diffusionIncrements(model.drift, model.volatility, grid, rng, shocks))
}

/**
 * The log jump of each ledger step of a Merton jump process: N ~ Poisson(jumpsPerDay · dt / 1 day)
 * jumps per step, each with log size ~ Normal(jumpMean, jumpStd). Steps without a jump are 0.
 *
 * Arrivals and sizes come from `rng.fork('jumps')`, independent of the diffusion shocks.
 */
export function jumpIncrements(model: JumpsModel, grid: PathGrid, rng: Rng): Float64Array {
  const perStep = (model.jumpsPerDay * grid.dtSeconds) / DAY_SECONDS
  const jumps = rng.fork('jumps')
  const out = new Float64Array(grid.steps)
  for (let i = 0; i < grid.steps; i++) {
    const count = jumps.poisson(perStep)
    let size = 0
    for (let j = 0; j < count; j++) size += model.jumpMean + model.jumpStd * jumps.normal()
    out[i] = size
  }
  return out
}

/**
 * A Merton jump-diffusion path: the GBM step of {@link gbmPath} (same shocks for the same
 * stream, or the given `shocks`) plus the log jumps of {@link jumpIncrements}, which stay
 * independent between assets even in a correlated market.
 *
 * The drift is not compensated for the jumps: jumps are meant as crash (or spike) events added
 * to the diffusion, so with jumpMean < 0 the path trends below the GBM with the same drift.
 * With jumpsPerDay = 0 the path equals the GBM path of the same stream.
 */
export function jumpsPath(model: JumpsModel, grid: PathGrid, rng: Rng, shocks?: Float64Array): Float64Array {
  checkGrid(grid)
  const increments = diffusionIncrements(model.drift, model.volatility, grid, rng, shocks)
  const jumps = jumpIncrements(model, grid, rng)
  for (let i = 0; i < increments.length; i++) increments[i] = increments[i]! + jumps[i]!
  return pathFromLogIncrements(grid.startPrice, increments)
}
