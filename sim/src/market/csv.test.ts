import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { csvPath, loadCsvSeries, parseTimestamp } from './csv.js'
import { CsvPriceError, MarketModelError } from './errors.js'
import type { CsvModel } from './grid.js'

const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../data')
const XLM = 'xlm-usdt-1h-2022-05.csv'

/** The file's columns read without the loader under test. */
function column(name: string): number[] {
  const [header, ...rows] = readFileSync(join(DATA_DIR, XLM), 'utf8').trim().split('\n')
  const index = header!.split(',').indexOf(name)
  return rows.map((r) => Number(r.split(',')[index]))
}

function model(overrides: Partial<CsvModel> = {}): CsvModel {
  return { model: 'csv', file: XLM, column: 'close', timeColumn: 'timestamp', rebase: true, volatilityScale: 1, startRow: 0, ...overrides }
}

/** 5 s ledgers: 720 per hourly row; 239 hours between the first and last row, plus 10 h held. */
const grid = { steps: 249 * 720, dtSeconds: 5, startPrice: 0.5 }

describe('csv price replay on the May 2022 XLM crash', () => {
  const close = column('close')

  it('loads 240 hourly rows', () => {
    const series = loadCsvSeries(join(DATA_DIR, XLM), { column: 'close', timeColumn: 'timestamp', startRow: 0 })
    expect(series.values.length).toBe(240)
    expect(series.intervalSeconds).toBe(3600)
    expect(series.startTime).toBe(Date.UTC(2022, 4, 5) / 1000)
    expect(Array.from(series.values)).toEqual(close)
  })

  it('rebases to the start price: the path’s min and max ratios are the series’ min/first and max/first', () => {
    const path = csvPath(model(), grid, DATA_DIR)
    expect(path.length).toBe(grid.steps + 1)
    expect(path[0]).toBe(0.5)
    let min = Infinity
    let max = -Infinity
    for (const p of path) {
      min = Math.min(min, p)
      max = Math.max(max, p)
    }
    expect(min / 0.5).toBeCloseTo(Math.min(...close) / close[0]!, 12)
    expect(max / 0.5).toBeCloseTo(Math.max(...close) / close[0]!, 12)
    // The crash is in there: more than 35 % down at the worst close.
    expect(min / 0.5).toBeLessThan(0.65)
  })

  it('hits every row at its hour, interpolates log-linearly between, and holds the last value', () => {
    const path = csvPath(model(), grid, DATA_DIR)
    for (let k = 0; k < close.length; k++) expect(path[k * 720]! / 0.5).toBeCloseTo(close[k]! / close[0]!, 12)
    // Half way between rows: the geometric mean.
    expect(path[360]).toBeCloseTo(0.5 * Math.sqrt((close[0]! * close[1]!) / (close[0]! * close[0]!)), 12)
    const last = path[239 * 720]!
    for (let i = 239 * 720; i <= grid.steps; i++) expect(path[i]).toBe(last)
  })

  it('keeps the recorded prices without rebase', () => {
    const path = csvPath(model({ rebase: false }), grid, DATA_DIR)
    expect(path[0]).toBe(close[0])
    expect(path[720 * 100]).toBeCloseTo(close[100]!, 12)
  })

  it('scales log-returns by volatilityScale', () => {
    const path = csvPath(model({ volatilityScale: 2 }), grid, DATA_DIR)
    expect(Math.log(path[720 * 150]! / 0.5)).toBeCloseTo(2 * Math.log(close[150]! / close[0]!), 12)
  })

  it('starts at startRow, and reads another column', () => {
    const low = column('low')
    const fromRow = csvPath(model({ startRow: 100, rebase: false, column: 'low' }), { ...grid, steps: 720 }, DATA_DIR)
    expect(fromRow[0]).toBe(low[100])
    expect(fromRow[720]).toBeCloseTo(low[101]!, 12)
  })
})

describe('csv errors name the file, line and column', () => {
  const dir = mkdtempSync(join(tmpdir(), 'market-csv-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  function write(name: string, text: string): string {
    writeFileSync(join(dir, name), text)
    return name
  }
  const load = (file: string, overrides: Partial<CsvModel> = {}) => () => csvPath(model({ file, ...overrides }), grid, dir)

  it('rejects rows that are not evenly spaced', () => {
    const file = write('uneven.csv', 'timestamp,close\n0,1\n60,1.1\n120,1.2\n240,1.3\n')
    expect(load(file)).toThrow(CsvPriceError)
    expect(load(file)).toThrow(`${join(dir, file)}: line 5, column "timestamp": rows must be evenly spaced`)
  })

  it('rejects timestamps that do not increase', () => {
    const file = write('backwards.csv', 'timestamp,close\n2022-05-05 01:00:00,1\n2022-05-05 00:00:00,1\n')
    expect(load(file)).toThrow(/backwards\.csv: line 3, column "timestamp": timestamps must increase/)
  })

  it('rejects a missing column, listing the columns there are', () => {
    const file = write('nocol.csv', 'timestamp,price\n0,1\n60,2\n')
    expect(load(file)).toThrow(/nocol\.csv: line 1, column "close": no such column in the header \(columns: timestamp, price\)/)
    expect(load(file, { column: 'price', timeColumn: 'time' })).toThrow(/line 1, column "time"/)
  })

  it('rejects a cell that is not a positive number', () => {
    const file = write('bad.csv', 'timestamp,close\n0,1\n60,abc\n120,1\n')
    expect(load(file)).toThrow(/bad\.csv: line 3, column "close": "abc" is not a positive number/)
    const zero = write('zero.csv', 'timestamp,close\n0,1\n60,1\n\n120,0\n')
    // The empty line still counts in the line numbers.
    expect(load(zero)).toThrow(/zero\.csv: line 5, column "close": "0" is not a positive number/)
    const empty = write('emptycell.csv', 'timestamp,close\n0,\n')
    expect(load(empty)).toThrow(/line 2, column "close": "" is not a positive number/)
  })

  it('rejects an unreadable timestamp', () => {
    const file = write('badtime.csv', 'timestamp,close\n0,1\nyesterday,1\n')
    expect(load(file)).toThrow(/badtime\.csv: line 3, column "timestamp": "yesterday" is not a timestamp/)
  })

  it('checks only the rows from startRow on', () => {
    const file = write('late.csv', 'timestamp,close\n0,oops\n100,1\n160,2\n220,3\n')
    expect(load(file)).toThrow(/line 2/)
    const path = csvPath(model({ file, startRow: 1 }), { steps: 24, dtSeconds: 5, startPrice: 10 }, dir)
    expect(path[0]).toBe(10)
    expect(path[12]).toBeCloseTo(20, 12)
    expect(path[24]).toBeCloseTo(30, 12)
  })

  it('rejects a missing file, an empty one, a malformed one and a startRow past the end', () => {
    expect(load('absent.csv')).toThrow(/absent\.csv: cannot read the price file/)
    expect(load(write('empty.csv', ''))).toThrow(/empty\.csv: the file is empty/)
    expect(load(write('ragged.csv', 'timestamp,close\n0,1,7\n'))).toThrow(/ragged\.csv: not a valid CSV file/)
    expect(load(write('short.csv', 'timestamp,close\n0,1\n'), { startRow: 1 })).toThrow(/short\.csv: no data rows from startRow 1 on \(the file has 1\)/)
  })

  it('needs a baseDir for a relative file', () => {
    expect(() => csvPath(model(), grid, undefined)).toThrow(MarketModelError)
    expect(() => csvPath(model(), grid, undefined)).toThrow(/relative/)
  })
})

describe('parseTimestamp', () => {
  it('reads Unix seconds, milliseconds and UTC dates', () => {
    expect(parseTimestamp('1651708800')).toBe(1_651_708_800)
    expect(parseTimestamp('1651708800000')).toBe(1_651_708_800)
    expect(parseTimestamp('2022-05-05 00:00:00')).toBe(1_651_708_800)
    expect(parseTimestamp('2022-05-05T00:00:00Z')).toBe(1_651_708_800)
    expect(parseTimestamp('2022-05-05T02:00:00+02:00')).toBe(1_651_708_800)
    expect(parseTimestamp('2022-05-04T23:30-00:30')).toBe(1_651_708_800)
    expect(parseTimestamp('2022-05-05')).toBe(1_651_708_800)
    expect(parseTimestamp('2022-05-05 00:00:00.5')).toBe(1_651_708_800.5)
  })

  it('refuses what is not a timestamp', () => {
    for (const bad of ['', 'May 5', '2022-13-01', '2022-05-05 24:00', '12:00']) expect(parseTimestamp(bad)).toBeUndefined()
  })
})
