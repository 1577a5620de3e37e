import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { meanAndStd, pathLogReturns } from '../../../test/sim/marketStats.js'
import { priceModel } from '../scenario/schema.js'
import { blockBootstrap, bootstrapPath, logReturns } from './bootstrap.js'
import { loadCsvSeries } from './csv.js'
import { CsvPriceError, MarketModelError } from './errors.js'
import type { BootstrapModel } from './grid.js'
import { pricePath } from './paths.js'
import { derive } from './rng.js'

const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../data')
const XLM = 'xlm-usdt-1h-2022-05.csv'
/** The recorded hourly closes' 239 log returns, read by the csv loader (tested in csv.test.ts). */
const SOURCE = logReturns(loadCsvSeries(join(DATA_DIR, XLM), { column: 'close', timeColumn: 'timestamp', startRow: 0 }).values)

function model(overrides: Partial<BootstrapModel> = {}): BootstrapModel {
  return priceModel.parse({ model: 'bootstrap', file: XLM, blockLength: 24, ...overrides }) as BootstrapModel
}

/** 5 s ledgers: 720 per hourly row; 48 hours. */
const LEDGERS_PER_ROW = 720
const grid = { steps: 48 * LEDGERS_PER_ROW, dtSeconds: 5, startPrice: 2000 }

/** The candle-to-candle log returns of a path on `grid`. */
const rowReturns = (path: Float64Array): Float64Array => pathLogReturns(path, LEDGERS_PER_ROW)

/** Whether `r` is one of `returns`, up to the rounding of building and re-reading a path. */
const isOneOf = (r: number, returns: Float64Array): boolean => returns.some((s) => Math.abs(s - r) < 1e-12)

describe('blockBootstrap', () => {
  // Source values are their own indices, so every draw shows where it came from.
  const source = Float64Array.from({ length: 50 }, (_, i) => i)

  it('concatenates circular blocks of consecutive source returns, one start per block', () => {
    const { returns, starts } = blockBootstrap(source, 130, 12, derive(1, 'test'))
    expect(returns.length).toBe(130)
    expect(starts.length).toBe(Math.ceil(130 / 12))
    starts.forEach((start, b) => {
      const block = Array.from(returns.subarray(b * 12, Math.min(130, (b + 1) * 12)))
      expect(block).toEqual(block.map((_, k) => (start + k) % 50))
    })
    // Some block wraps from the last return to the first over enough seeds; starts cover 0..n-1.
    const allStarts = Array.from({ length: 200 }, (_, s) => blockBootstrap(source, 130, 12, derive(s, 'test')).starts).flat()
    expect(Math.min(...allStarts)).toBe(0)
    expect(Math.max(...allStarts)).toBe(49)
  })

  it('is reproducible per stream and differs between streams', () => {
    const a = blockBootstrap(SOURCE, 500, 24, derive(3, 'b'))
    expect(blockBootstrap(SOURCE, 500, 24, derive(3, 'b'))).toEqual(a)
    expect(blockBootstrap(SOURCE, 500, 24, derive(4, 'b')).returns).not.toEqual(a.returns)
  })

  it('refuses a block longer than the source or not a whole number', () => {
    expect(() => blockBootstrap(source, 10, 51, derive(1))).toThrow(MarketModelError)
    expect(() => blockBootstrap(source, 10, 0, derive(1))).toThrow(/blockLength must be a whole number from 1 to the 50 source returns, got 0/)
    expect(() => blockBootstrap(source, 10, 2.5, derive(1))).toThrow(/got 2\.5/)
  })

  // Circular blocks draw every source return with probability 1/n, so over many seeds the
  // bootstrapped returns have the source's mean and spread (a moving block bootstrap would not:
  // it under-draws both ends of the series).
  it('matches the source mean and standard deviation over 400 seeds', () => {
    const source = meanAndStd(SOURCE)
    const pooled: number[] = []
    for (let seed = 0; seed < 400; seed++) pooled.push(...blockBootstrap(SOURCE, 240, 24, derive(seed, 'stats')).returns)
    const drawn = meanAndStd(pooled)
    // 400 × 10 blocks: the standard error of the pooled mean is about σ/√(96,000) ≈ 6e-5.
    expect(Math.abs(drawn.mean - source.mean)).toBeLessThan(2.5e-4)
    expect(source.mean).toBeLessThan(-1e-3) // the crash's drift, well outside the tolerance
    expect(Math.abs(drawn.std / source.std - 1)).toBeLessThan(0.03)
  })
})

describe('bootstrapPath on the May 2022 XLM crash', () => {
  it('starts at the world price and steps from candle to candle only by recorded returns', () => {
    const path = bootstrapPath(model(), grid, derive(1, 'price', 'WETH'), DATA_DIR)
    expect(path.length).toBe(grid.steps + 1)
    expect(path[0]).toBe(2000)
    const returns = rowReturns(path)
    expect(returns.length).toBe(48)
    for (const r of returns) expect(isOneOf(r, SOURCE)).toBe(true)
  })

  it('is the block bootstrap of the file’s returns from the stream’s "blocks" fork', () => {
    const rng = derive(9, 'price', 'WETH')
    const { returns } = blockBootstrap(SOURCE, 48, 24, rng.fork('blocks'))
    const path = bootstrapPath(model(), grid, rng, DATA_DIR)
    rowReturns(path).forEach((r, k) => expect(r).toBeCloseTo(returns[k]!, 12))
  })

  it('interpolates log-linearly between candles and holds the last one, as a csv replay does', () => {
    // 47.5 hours: the last candle needed is the 48th, half of whose hour is on the grid.
    const half = { ...grid, steps: 47.5 * LEDGERS_PER_ROW }
    const path = bootstrapPath(model(), half, derive(2), DATA_DIR)
    const full = bootstrapPath(model(), grid, derive(2), DATA_DIR)
    expect(Array.from(path)).toEqual(Array.from(full.subarray(0, half.steps + 1)))
    expect(path[360]).toBeCloseTo(Math.sqrt(path[0]! * path[720]!), 9)
  })

  it('keeps the first row’s value without rebase, and scales every return by volatilityScale', () => {
    const close0 = loadCsvSeries(join(DATA_DIR, XLM), { column: 'close', timeColumn: 'timestamp', startRow: 0 }).values[0]!
    expect(bootstrapPath(model({ rebase: false }), grid, derive(4), DATA_DIR)[0]).toBe(close0)
    const once = rowReturns(bootstrapPath(model(), grid, derive(4), DATA_DIR))
    const twice = rowReturns(bootstrapPath(model({ volatilityScale: 2 }), grid, derive(4), DATA_DIR))
    once.forEach((r, k) => expect(twice[k]).toBeCloseTo(2 * r, 12))
  })

  it('draws only from the returns between startRow and endRow', () => {
    const window = SOURCE.subarray(96, 119)
    for (let seed = 0; seed < 20; seed++) {
      const path = bootstrapPath(model({ startRow: 96, endRow: 120, blockLength: 6 }), grid, derive(seed), DATA_DIR)
      for (const r of rowReturns(path)) expect(isOneOf(r, window)).toBe(true)
    }
  })

  it('gives the same path for a seed and a different one for every other seed', () => {
    const m = priceModel.parse({ model: 'bootstrap', file: XLM, blockLength: 24 })
    const paths = Array.from({ length: 20 }, (_, seed) => pricePath(m, { ...grid, seed, baseDir: DATA_DIR }))
    expect(pricePath(m, { ...grid, seed: 7, baseDir: DATA_DIR })).toEqual(paths[7])
    expect(new Set(paths.map((p) => p[grid.steps])).size).toBe(20)
  })

  it('runs as many candles as the run spans, with no more returns than needed', () => {
    const short = bootstrapPath(model(), { ...grid, steps: 10 }, derive(1), DATA_DIR)
    expect(short.length).toBe(11)
    expect(bootstrapPath(model(), { ...grid, steps: 0 }, derive(1), DATA_DIR)).toEqual(Float64Array.of(2000))
  })
})

describe('bootstrap errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'market-bootstrap-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('names the file when the block is longer than the returns there are', () => {
    writeFileSync(join(dir, 'five.csv'), 'timestamp,close\n0,1\n60,1.1\n120,1.2\n180,1.1\n240,1\n')
    const run = () => bootstrapPath(model({ file: 'five.csv', blockLength: 5 }), grid, derive(1), dir)
    expect(run).toThrow(CsvPriceError)
    expect(run).toThrow(`${join(dir, 'five.csv')}: blockLength 5 is longer than the 4 returns between rows 0 to 4`)
  })

  it('refuses an endRow past the end of the file, and a bad row range in the schema', () => {
    expect(() => bootstrapPath(model({ endRow: 241 }), grid, derive(1), DATA_DIR)).toThrow(/endRow 241 is past the end of the file \(it has 240 data rows\)/)
    const bad = priceModel.safeParse({ model: 'bootstrap', file: XLM, blockLength: 4, startRow: 10, endRow: 11 })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues[0]!.message).toMatch(/endRow must be at least startRow \+ 2/)
    expect(priceModel.safeParse({ model: 'bootstrap', file: XLM }).success).toBe(false)
  })

  it('needs a baseDir for a relative file', () => {
    expect(() => bootstrapPath(model(), grid, derive(1), undefined)).toThrow(/relative/)
  })
})
