/**
 * New paths from a recorded series by block bootstrap: the log returns between consecutive rows
 * of a CSV file (say, hourly candles of the May 2022 crash) are cut into blocks of `blockLength`
 * consecutive returns, and a path of the run's length is built by concatenating blocks chosen at
 * random from the seeded stream. Each seed gives a different path with the recorded returns'
 * distribution and their short-range structure (volatility clustering, runs of losses within a
 * block); the same seed gives the same path.
 *
 * The scheme is the circular block bootstrap (Politis & Romano, "A circular block-resampling
 * procedure for stationary data", 1992): a block may start at any of the n returns and wraps from
 * the last return to the first. Unlike the moving block bootstrap (Künsch 1989), whose blocks lie
 * wholly inside the series, it draws every recorded return with the same probability, so the
 * bootstrapped returns have the source's mean and variance in expectation — the drift of the
 * recorded crash is kept rather than tilted toward its middle rows. The price of that is that a
 * wrapped block splices the series' end onto its start, one more seam like the one between any
 * two blocks.
 */
import { resampleSeries, loadCsvSeries, resolvePriceFile, type CsvSeries } from './csv.js'
import { CsvPriceError, MarketModelError } from './errors.js'
import { checkGrid, type BootstrapModel, type PathGrid } from './grid.js'
import type { Rng } from './rng.js'

/** The log returns between consecutive values: r[k] = ln(v[k+1] / v[k]). */
export function logReturns(values: Float64Array): Float64Array {
  const out = new Float64Array(Math.max(0, values.length - 1))
  for (let k = 0; k < out.length; k++) out[k] = Math.log(values[k + 1]! / values[k]!)
  return out
}

/** A bootstrapped sequence of returns and where its blocks came from. */
export interface BlockBootstrap {
  /** `count` returns, each a copy of a source return. */
  returns: Float64Array
  /**
   * The source index each block starts at, in order. Block b fills returns[b·L ..] with
   * source[(start + k) mod n] for k < L (the last block is cut to what is left).
   */
  starts: number[]
}

/**
 * `count` returns made of circular blocks of `blockLength` source returns, block starts drawn
 * uniformly from 0..n−1 with `rng.int` (one draw per block, in order).
 */
export function blockBootstrap(source: Float64Array, count: number, blockLength: number, rng: Rng): BlockBootstrap {
  const n = source.length
  if (!Number.isSafeInteger(blockLength) || blockLength < 1 || blockLength > n) {
    throw new MarketModelError(`blockLength must be a whole number from 1 to the ${n} source returns, got ${blockLength}`)
  }
  const returns = new Float64Array(count)
  const starts: number[] = []
  for (let filled = 0; filled < count; ) {
    const start = rng.int(0, n - 1)
    starts.push(start)
    const take = Math.min(blockLength, count - filled)
    for (let k = 0; k < take; k++) returns[filled + k] = source[(start + k) % n]!
    filled += take
  }
  return { returns, starts }
}

/**
 * A series of `returns.length + 1` values from a first value and log returns:
 * v[k] = first · exp(r[0] + … + r[k−1]), on the source's time step.
 */
function seriesFromReturns(source: CsvSeries, returns: Float64Array): CsvSeries {
  const values = new Float64Array(returns.length + 1)
  const first = source.values[0]!
  values[0] = first
  let sum = 0
  for (let k = 0; k < returns.length; k++) {
    sum += returns[k]!
    values[k + 1] = first * Math.exp(sum)
  }
  return { ...source, values }
}

/**
 * A `bootstrap` model's path. The rows `startRow`..`endRow − 1` of the file are loaded and
 * checked as for a `csv` model; their n log returns are resampled with {@link blockBootstrap}
 * (blocks from `rng.fork('blocks')`) into as many rows as the run spans (⌈steps · dt / row
 * interval⌉); the new series is then laid on the ledger grid exactly like a csv replay
 * ({@link resampleSeries}: log-linear between rows, every log return × `volatilityScale`), starting
 * at `startPrice` with `rebase` (the default) or at the first row's value without.
 */
export function bootstrapPath(model: BootstrapModel, grid: PathGrid, rng: Rng, baseDir: string | undefined): Float64Array {
  checkGrid(grid)
  const file = resolvePriceFile(model.file, baseDir)
  const series = loadCsvSeries(file, { column: model.column, timeColumn: model.timeColumn, startRow: model.startRow, endRow: model.endRow })
  const source = logReturns(series.values)
  if (model.blockLength > source.length) {
    const rows = `rows ${model.startRow} to ${model.startRow + series.values.length - 1}`
    throw new CsvPriceError(file, undefined, undefined, `blockLength ${model.blockLength} is longer than the ${source.length} returns between ${rows}`)
  }
  const count = Math.ceil((grid.steps * grid.dtSeconds) / series.intervalSeconds)
  const { returns } = blockBootstrap(source, count, model.blockLength, rng.fork('blocks'))
  const anchor = model.rebase ? grid.startPrice : series.values[0]!
  return resampleSeries(seriesFromReturns(series, returns), grid, anchor, model.volatilityScale)
}
