/**
 * Replaying a recorded price series (a CSV file of candles) on the ledger grid, so a scenario
 * can rerun a real crash. The file is checked before use: a missing column, a cell that is not
 * a positive number or rows that are not evenly spaced in time stop the run with an error
 * naming the file, the line and the column.
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { CsvPriceError, MarketModelError } from './errors.js'
import { checkGrid, type CsvModel, type PathGrid } from './grid.js'

/** The rows of a CSV file that a path replays, from `startRow` on (up to `endRow` when given). */
export interface CsvSeries {
  /** The file as resolved. */
  file: string
  /** Seconds between consecutive rows (all rows are this far apart). */
  intervalSeconds: number
  /** The price column, from `startRow` on (rows before `endRow` when given). */
  values: Float64Array
  /** Unix time (s) of the first row replayed. */
  startTime: number
}

export interface LoadCsvSeriesParameters {
  column: string
  timeColumn: string
  /** The first data row used (0 = the row after the header). */
  startRow: number
  /** One past the last data row used (exclusive; default: to the end of the file). */
  endRow?: number | undefined
}

/** A row as csv-parse gives it with `info: true`. */
interface ParsedRow {
  record: string[]
  info: { lines: number }
}

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/
/** Numeric timestamps at or above this are milliseconds (1e11 s is the year 5138). */
const MILLISECONDS_FROM = 1e11
/** Rows count as evenly spaced when their gaps agree within this many seconds. */
const SPACING_TOLERANCE = 1e-6

/**
 * A timestamp cell as Unix seconds: a number (seconds, or milliseconds when ≥ 1e11) or a date
 * `YYYY-MM-DD[ HH:MM[:SS[.fff]]]` with an optional `Z` or `±HH:MM` offset; no offset means UTC.
 * Parsed by hand because `Date.parse` reads an offset-less date-time as local time.
 */
export function parseTimestamp(cell: string): number | undefined {
  if (NUMBER_RE.test(cell)) {
    const n = Number(cell)
    return Math.abs(n) >= MILLISECONDS_FROM ? n / 1000 : n
  }
  const m = DATE_RE.exec(cell)
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? 0 : Number(x))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined
  let seconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000 + (m[7] === undefined ? 0 : Number(m[7]))
  const zone = m[8]
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1
    const digits = zone.slice(1).replace(':', '')
    seconds -= sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60)
  }
  return seconds
}

function readRows(file: string): ParsedRow[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new CsvPriceError(file, undefined, undefined, `cannot read the price file (${(e as Error).message})`)
  }
  try {
    // With `info: true` each row comes with the line it ends on; the typings do not model that option.
    return parse(text, { info: true, skip_empty_lines: true, trim: true, bom: true }) as unknown as ParsedRow[]
  } catch (e) {
    throw new CsvPriceError(file, undefined, undefined, `not a valid CSV file (${(e as Error).message})`)
  }
}

/**
 * Loads the price column of a CSV file (header row first) from `startRow` (0 = the first data
 * row) up to but not including `endRow` (default: to the end), checking every row used: a
 * positive number in the price column, a readable timestamp, and the same time step between all
 * consecutive rows.
 */
export function loadCsvSeries(file: string, p: LoadCsvSeriesParameters): CsvSeries {
  const rows = readRows(file)
  const header = rows[0]
  if (header === undefined) throw new CsvPriceError(file, undefined, undefined, 'the file is empty (a header row is needed)')
  const columnIndex = (name: string): number => {
    const index = header.record.indexOf(name)
    if (index < 0) {
      throw new CsvPriceError(file, header.info.lines, name, `no such column in the header (columns: ${header.record.join(', ')})`)
    }
    return index
  }
  const priceAt = columnIndex(p.column)
  const timeAt = columnIndex(p.timeColumn)
  const dataRows = rows.length - 1
  if (p.endRow !== undefined && p.endRow > dataRows) {
    throw new CsvPriceError(file, undefined, undefined, `endRow ${p.endRow} is past the end of the file (it has ${dataRows} data rows)`)
  }
  const data = rows.slice(1 + p.startRow, p.endRow === undefined ? undefined : 1 + p.endRow)
  if (data.length === 0) {
    const range = p.endRow === undefined ? `from startRow ${p.startRow} on` : `between startRow ${p.startRow} and endRow ${p.endRow}`
    throw new CsvPriceError(file, undefined, undefined, `no data rows ${range} (the file has ${dataRows})`)
  }

  const values = new Float64Array(data.length)
  const times = new Float64Array(data.length)
  data.forEach((row, k) => {
    const line = row.info.lines
    const priceCell = row.record[priceAt] ?? ''
    const price = NUMBER_RE.test(priceCell) ? Number(priceCell) : Number.NaN
    if (!Number.isFinite(price) || price <= 0) {
      throw new CsvPriceError(file, line, p.column, `"${priceCell}" is not a positive number`)
    }
    const timeCell = row.record[timeAt] ?? ''
    const time = parseTimestamp(timeCell)
    if (time === undefined || !Number.isFinite(time)) {
      throw new CsvPriceError(file, line, p.timeColumn, `"${timeCell}" is not a timestamp (Unix seconds or milliseconds, or YYYY-MM-DD HH:MM:SS)`)
    }
    values[k] = price
    times[k] = time
  })

  const intervalSeconds = data.length > 1 ? times[1]! - times[0]! : 1
  if (intervalSeconds <= 0) {
    throw new CsvPriceError(file, data[1]!.info.lines, p.timeColumn, 'timestamps must increase from row to row')
  }
  for (let k = 2; k < data.length; k++) {
    const gap = times[k]! - times[k - 1]!
    if (Math.abs(gap - intervalSeconds) > SPACING_TOLERANCE) {
      throw new CsvPriceError(
        file,
        data[k]!.info.lines,
        p.timeColumn,
        `rows must be evenly spaced: this row is ${gap} s after the previous one, the first rows used are ${intervalSeconds} s apart`,
      )
    }
  }
  return { file, intervalSeconds, values, startTime: times[0]! }
}

/**
 * A series resampled onto the ledger grid: ledger i is at i · dt seconds after the first row;
 * between rows the log price is interpolated linearly, after the last row the last value holds.
 * `anchor` is the price at ledger 0 and `volatilityScale` multiplies every log-return from the
 * first row, so p(t) = anchor · exp(scale · (ln v(t) − ln v₀)).
 */
export function resampleSeries(series: CsvSeries, grid: Omit<PathGrid, 'startPrice'>, anchor: number, volatilityScale: number): Float64Array {
  const { values, intervalSeconds } = series
  const first = Math.log(values[0]!)
  const relative = Float64Array.from(values, (v) => volatilityScale * (Math.log(v) - first))
  const last = relative.length - 1
  const out = new Float64Array(grid.steps + 1)
  for (let i = 0; i <= grid.steps; i++) {
    const position = (i * grid.dtSeconds) / intervalSeconds
    const k = Math.floor(position)
    let logReturn: number
    if (k >= last) logReturn = relative[last]!
    else {
      const fraction = position - k
      logReturn = fraction === 0 ? relative[k]! : relative[k]! + (relative[k + 1]! - relative[k]!) * fraction
    }
    out[i] = anchor * Math.exp(logReturn)
  }
  return out
}

/** A price file's path: `file` if absolute, else resolved against `baseDir` (the scenario's folder). */
export function resolvePriceFile(file: string, baseDir: string | undefined): string {
  if (isAbsolute(file)) return file
  if (baseDir === undefined) throw new MarketModelError(`the price file "${file}" is relative, but no baseDir was given to resolve it against`)
  return resolve(baseDir, file)
}

/**
 * A `csv` model's path: the file (relative to `baseDir`, the scenario's folder, unless
 * absolute) loaded with {@link loadCsvSeries} and resampled with {@link resampleSeries}. With
 * `rebase` the path starts at `startPrice` (every value × startPrice / first value); without,
 * it starts at the file's first value and `startPrice` is not used.
 */
export function csvPath(model: CsvModel, grid: PathGrid, baseDir: string | undefined): Float64Array {
  checkGrid(grid)
  const file = resolvePriceFile(model.file, baseDir)
  const series = loadCsvSeries(file, { column: model.column, timeColumn: model.timeColumn, startRow: model.startRow })
  const anchor = model.rebase ? grid.startPrice : series.values[0]!
  return resampleSeries(series, grid, anchor, model.volatilityScale)
}
