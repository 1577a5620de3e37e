/**
 * Reading a sweep's tables back in tests: Parquet through DuckDB (what analysts use), CSV
 * through a small RFC 4180 parser, and a cell-to-text rule to compare the two.
 */
import { readFileSync } from 'node:fs'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { csvNumber } from '../../sim/src/report/csv.js'

export type Row = Record<string, unknown>

/** An in-memory DuckDB connection and its cleanup. */
export async function duckdb(): Promise<{ query: (sql: string) => Promise<Row[]>; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection: DuckDBConnection = await instance.connect()
  return {
    query: async (sql) => (await connection.runAndReadAll(sql)).getRowObjects() as Row[],
    close: () => {
      connection.closeSync()
      instance.closeSync()
    },
  }
}

/** A path quoted as an SQL string literal. */
export function sqlPath(path: string): string {
  return `'${path.replace(/'/g, "''")}'`
}

/** Parses CSV text: quoted cells may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(cell)
      cell = ''
    } else if (c === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += c
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell])
  return rows
}

export function readCsv(path: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'))
  return { header: header ?? [], rows }
}

/** How the CSV writes a value DuckDB read from the Parquet file. */
export function csvTextOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return csvNumber(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  return String(value)
}
