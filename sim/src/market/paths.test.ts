import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { priceModel, type PriceModel } from '../scenario/schema.js'
import { MarketModelError } from './errors.js'
import { marketTimeline, pricePath } from './paths.js'
import { derive } from './rng.js'

const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../data')
const grid = { steps: 2000, dtSeconds: 5, startPrice: 2000 }

const models: Record<string, PriceModel> = {
  gbm: priceModel.parse({ model: 'gbm', volatility: 0.8 }),
  jumps: priceModel.parse({ model: 'jumps', volatility: 0.5, jumpsPerDay: 50, jumpMean: -0.05, jumpStd: 0.02 }),
  scripted: priceModel.parse({ model: 'scripted', moves: [{ at: '1m', change: -0.3, over: '30m' }], volatility: 0.4 }),
}

describe('pricePath', () => {
  it('holds a constant model at the start price', () => {
    const path = pricePath({ model: 'constant' }, { ...grid, seed: 1 })
    expect(path.length).toBe(2001)
    expect(path.every((p) => p === 2000)).toBe(true)
  })

  it.each(Object.keys(models))('%s: same seed, same path; another seed, another path', (name) => {
    const model = models[name]!
    const a = pricePath(model, { ...grid, seed: 7 })
    expect(a.length).toBe(2001)
    expect(a[0]).toBe(2000)
    expect(pricePath(model, { ...grid, seed: 7 })).toEqual(a)
    expect(pricePath(model, { ...grid, seed: 8 })).not.toEqual(a)
  })

  it('reads a number seed as derive(seed) and takes a derived stream as is', () => {
    const model = models.gbm!
    expect(pricePath(model, { ...grid, seed: 3 })).toEqual(pricePath(model, { ...grid, seed: derive(3) }))
    expect(pricePath(model, { ...grid, seed: derive(3, 'price', 'WETH') })).not.toEqual(pricePath(model, { ...grid, seed: 3 }))
  })

  it('replays a csv file relative to baseDir', () => {
    const path = pricePath(priceModel.parse({ model: 'csv', file: 'xlm-usdt-1h-2022-05.csv' }), { ...grid, seed: 1, baseDir: DATA_DIR })
    expect(path[0]).toBe(2000)
    expect(path[720]).toBeCloseTo((2000 * 0.1863) / 0.1858, 9)
  })

  it('rejects a grid it cannot sample', () => {
    expect(() => pricePath({ model: 'constant' }, { ...grid, seed: 1, steps: -1 })).toThrow(MarketModelError)
    expect(() => pricePath({ model: 'constant' }, { ...grid, seed: 1, steps: 1.5 })).toThrow(/steps/)
    expect(() => pricePath({ model: 'constant' }, { ...grid, seed: 1, dtSeconds: 0 })).toThrow(/dtSeconds/)
    expect(() => pricePath({ model: 'constant' }, { ...grid, seed: 1, startPrice: 0 })).toThrow(/startPrice/)
    expect(() => pricePath({ model: 'constant' }, { ...grid, seed: 1, startPrice: Number.NaN })).toThrow(/startPrice/)
  })
})

describe('marketTimeline', () => {
  const assets = [
    { code: 'WETH', price: 2000 },
    { code: 'WBTC', price: 60_000 },
    { code: 'XLM', price: 0.12 },
  ]
  const params = { seed: 5, steps: 1000, dtSeconds: 5, baseDir: DATA_DIR }

  it('gives every asset a path from its own stream, in world order; a missing model is constant', () => {
    const market = { prices: { WETH: models.gbm!, WBTC: models.jumps! } }
    const timeline = marketTimeline(market, assets, params)
    expect(Object.keys(timeline)).toEqual(['WETH', 'WBTC', 'XLM'])
    expect(timeline.WETH).toEqual(pricePath(models.gbm!, { ...params, startPrice: 2000, seed: derive(5, 'price', 'WETH') }))
    expect(timeline.WBTC).toEqual(pricePath(models.jumps!, { ...params, startPrice: 60_000, seed: derive(5, 'price', 'WBTC') }))
    expect(timeline.XLM!.every((p) => p === 0.12)).toBe(true)
    expect(timeline.XLM!.length).toBe(1001)
  })

  it('leaves one asset’s path unchanged when another asset is added or remodelled', () => {
    const before = marketTimeline({ prices: { WETH: models.gbm! } }, assets.slice(0, 2), params)
    const after = marketTimeline({ prices: { WETH: models.gbm!, WBTC: models.scripted!, XLM: models.jumps! } }, assets, params)
    expect(after.WETH).toEqual(before.WETH)
  })

  it('gives two assets with the same model different paths', () => {
    const timeline = marketTimeline({ prices: { WETH: models.gbm!, WBTC: models.gbm! } }, assets, params)
    expect(Array.from(timeline.WETH!, (p) => p / 2000)).not.toEqual(Array.from(timeline.WBTC!, (p) => p / 60_000))
  })

  it('rejects a model for an asset the world does not have, and duplicate codes', () => {
    expect(() => marketTimeline({ prices: { WETHH: models.gbm! } }, assets, params)).toThrow(/market\.prices\.WETHH: no world asset has this code \(assets: WETH, WBTC, XLM\)/)
    expect(() => marketTimeline({ prices: {} }, [...assets, { code: 'WETH', price: 1 }], params)).toThrow(/unique/)
  })

  it('names the asset when its model cannot be sampled', () => {
    expect(() => marketTimeline({ prices: {} }, [{ code: 'WETH', price: -1 }], params)).toThrow(/market\.prices\.WETH: startPrice/)
  })

  it('does not mistake an asset code for an inherited property', () => {
    const timeline = marketTimeline({ prices: {} }, [{ code: 'constructor', price: 3 }], params)
    expect(timeline.constructor).toBeInstanceOf(Float64Array)
    expect(Object.hasOwn(timeline, 'constructor')).toBe(true)
  })
})
