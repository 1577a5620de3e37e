/**
 * Price paths for a scenario's market: one model per asset (constant, gbm, jumps, scripted,
 * csv), each sampled once per ledger from its own random stream.
 */
import type { PriceModel, Scenario } from '../scenario/schema.js'
import { csvPath } from './csv.js'
import { CsvPriceError, MarketModelError } from './errors.js'
import { gbmPath, jumpsPath } from './gbm.js'
import { checkGrid, type PathGrid } from './grid.js'
import { derive, type Rng } from './rng.js'
import { scriptedPath } from './scripted.js'

export interface PricePathParameters extends PathGrid {
  /**
   * The random stream: a number means `derive(seed)`; pass a derived {@link Rng} for a labelled
   * stream (as {@link marketTimeline} does). An Rng is consumed by the call.
   */
  seed: number | Rng
  /** The folder a csv model's relative `file` is resolved against (the scenario's folder). */
  baseDir?: string
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
      return gbmPath(model, grid, rng)
    case 'jumps':
      return jumpsPath(model, grid, rng)
    case 'scripted':
      return scriptedPath(model, grid, rng)
    case 'csv':
      return csvPath(model, grid, p.baseDir)
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
 * @example
 * import { marketTimeline } from './index.js'
 * const paths = marketTimeline(scenario.market, scenario.world.assets, { seed: 1, steps: 720, dtSeconds: 5, baseDir: '.' })
 * paths.WETH![720]
 */
export function marketTimeline(
  market: Pick<Scenario['market'], 'prices'>,
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
  const out: Record<string, Float64Array> = {}
  for (const asset of assets) {
    // Own-property lookup: a code such as "constructor" must not find Object.prototype's.
    const model: PriceModel = Object.hasOwn(market.prices, asset.code) ? market.prices[asset.code]! : { model: 'constant' }
    const params: PricePathParameters = {
      seed: derive(p.seed, 'price', asset.code),
      steps: p.steps,
      dtSeconds: p.dtSeconds,
      startPrice: asset.price,
      ...(p.baseDir === undefined ? {} : { baseDir: p.baseDir }),
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
