/**
 * Price paths for a scenario's market: one model per asset (constant, gbm, jumps, scripted,
 * csv, bootstrap), each sampled once per ledger from its own random stream; the GBM shocks of
 * the assets in `market.correlation` are mixed to the given correlation.
 */
import type { PriceModel, Scenario } from '../scenario/schema.js'
import { bootstrapPath } from './bootstrap.js'
import { correlateShocks } from './correlation.js'
import { csvPath } from './csv.js'
import { CsvPriceError, MarketModelError } from './errors.js'
import { diffusionShocks, gbmPath, jumpsPath } from './gbm.js'
import { checkGrid, type PathGrid } from './grid.js'
import { derive, type Rng } from './rng.js'
import { scriptedPath } from './scripted.js'

export interface PricePathParameters extends PathGrid {
  /**
   * The random stream: a number means `derive(seed)`; pass a derived {@link Rng} for a labelled
   * stream (as {@link marketTimeline} does). An Rng is consumed by the call.
   */
  seed: number | Rng
  /** The folder a csv or bootstrap model's relative `file` is resolved against (the scenario's folder). */
  baseDir?: string
  /**
   * Standard normal shocks, one per step, that a gbm or jumps model uses instead of its
   * stream's own (a correlated market's mix, see correlation.ts). Other models ignore them.
   */
  shocks?: Float64Array
}

/**
 * The market price of one asset at every ledger: a Float64Array of `steps + 1` values, index 0
 * the opening price (`startPrice`; for a csv model without `rebase`, the file's first value).
 * Same model, grid and seed give the same path, bit for bit.
 *
 * @example
 * import { pricePath } from './index.js'
 * const path = pricePath({ model: 'gbm', drift: 0, volatility: 0.8 }, { seed: 1, steps: 720, dtSeconds: 5, startPrice: 2000 })
 */
export function pricePath(model: PriceModel, p: PricePathParameters): Float64Array {
  const grid: PathGrid = { steps: p.steps, dtSeconds: p.dtSeconds, startPrice: p.startPrice }
  checkGrid(grid)
  const rng = typeof p.seed === 'number' ? derive(p.seed) : p.seed
  switch (model.model) {
    case 'constant':
      return new Float64Array(grid.steps + 1).fill(grid.startPrice)
    case 'gbm':
      return gbmPath(model, grid, rng, p.shocks)
    case 'jumps':
      return jumpsPath(model, grid, rng, p.shocks)
    case 'scripted':
      return scriptedPath(model, grid, rng)
    case 'csv':
      return csvPath(model, grid, p.baseDir)
    case 'bootstrap':
      return bootstrapPath(model, grid, rng, p.baseDir)
  }
}

/** An asset of the world as the market needs it: its code and opening price. */
export interface MarketAsset {
  code: string
  price: number
}

export interface MarketTimelineParameters {
  /** The run's seed; each asset's stream is `derive(seed, 'price', code)`. */
  seed: number
  steps: number
  dtSeconds: number
  baseDir?: string
}

/**
 * The market price path of every world asset, keyed by code in the order of `assets`. An asset
 * without a model in `market.prices` stays at its opening price. Each asset draws from its own
 * stream, so adding an asset or changing one asset's model leaves the other paths unchanged.
 * A model for a code that is not a world asset is an error (most likely a typo).
 *
 * With `market.correlation`, the listed assets' GBM shocks are the Cholesky mix of their own
 * streams' shocks (correlation.ts): each still draws only from its own stream, and with
 * correlation 0 the paths are exactly the uncorrelated ones.
 *
 * @example
 * import { marketTimeline } from './index.js'
 * const paths = marketTimeline(scenario.market, scenario.world.assets, { seed: 1, steps: 720, dtSeconds: 5, baseDir: '.' })
 * paths.WETH![720]
 */
export function marketTimeline(
  market: Pick<Scenario['market'], 'prices'> & Partial<Pick<Scenario['market'], 'correlation'>>,
  assets: readonly MarketAsset[],
  p: MarketTimelineParameters,
): Record<string, Float64Array> {
  const codes = new Set(assets.map((a) => a.code))
  if (codes.size !== assets.length) throw new MarketModelError(`asset codes must be unique, got ${assets.map((a) => a.code).join(', ')}`)
  for (const code of Object.keys(market.prices)) {
    if (!codes.has(code)) {
      throw new MarketModelError(`market.prices.${code}: no world asset has this code (assets: ${[...codes].join(', ')})`)
    }
  }
  // Own-property lookup: a code such as "constructor" must not find Object.prototype's.
  const modelOf = (code: string): PriceModel => (Object.hasOwn(market.prices, code) ? market.prices[code]! : { model: 'constant' })
  const shocks = correlatedShocks(market.correlation, codes, modelOf, p)
  const out: Record<string, Float64Array> = {}
  for (const asset of assets) {
    const model = modelOf(asset.code)
    const assetShocks = shocks.get(asset.code)
    const params: PricePathParameters = {
      seed: derive(p.seed, 'price', asset.code),
      steps: p.steps,
      dtSeconds: p.dtSeconds,
      startPrice: asset.price,
      ...(p.baseDir === undefined ? {} : { baseDir: p.baseDir }),
      ...(assetShocks === undefined ? {} : { shocks: assetShocks }),
    }
    try {
      out[asset.code] = pricePath(model, params)
    } catch (e) {
      // A CSV error already names its file; any other gets the asset it concerns.
      if (e instanceof MarketModelError && !(e instanceof CsvPriceError)) {
        throw new MarketModelError(`market.prices.${asset.code}: ${e.message}`, { cause: e })
      }
      throw e
    }
  }
  return out
}

/**
 * The correlated diffusion shocks of the assets in `correlation`, by code (empty without one):
 * each asset's own shocks, drawn as its gbm or jumps model would ({@link diffusionShocks} of
 * `derive(seed, 'price', code)`), mixed by {@link correlateShocks}. Throws a
 * {@link MarketModelError} for an unknown asset or one whose model has no GBM shocks.
 */
function correlatedShocks(
  correlation: Scenario['market']['correlation'],
  codes: ReadonlySet<string>,
  modelOf: (code: string) => PriceModel,
  p: MarketTimelineParameters,
): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>()
  if (correlation === undefined) return out
  const grid = { steps: p.steps, dtSeconds: p.dtSeconds, startPrice: 1 }
  checkGrid(grid)
  const independent = correlation.assets.map((code, i) => {
    if (!codes.has(code)) throw new MarketModelError(`market.correlation.assets.${i}: no world asset has the code ${code} (assets: ${[...codes].join(', ')})`)
    const model = modelOf(code).model
    if (model !== 'gbm' && model !== 'jumps') {
      throw new MarketModelError(`market.correlation.assets.${i}: ${code}'s price model is ${model}; only gbm and jumps models can be correlated`)
    }
    return diffusionShocks(grid, derive(p.seed, 'price', code))
  })
  const mixed = correlateShocks(correlation, independent)
  correlation.assets.forEach((code, i) => out.set(code, mixed[i]!))
  return out
}
