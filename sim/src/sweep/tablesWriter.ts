/**
 * Writes one table as `<name>.parquet` and `<name>.csv`, a row at a time: rows are buffered
 * and written out as one Parquet row group (and a block of CSV lines) every `rowGroupRows`
 * rows, so memory is bounded by a row group, never by the sweep. Both files go through a
 * temporary name and a rename, so a half-written table never looks finished.
 *
 * Deterministic bytes: row groups break at fixed row counts, the schema comes from the column
 * list, and the file metadata holds no times, hosts or paths — the same rows give the same
 * files on any machine, which is what lets `merge` reproduce a single machine's tables.
 *
 * CSV cells: numbers in plain decimal notation (report/csv.ts), booleans as true / false, text
 * quoted when it holds a comma, quote or line break, null as an empty cell.
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { fileWriter, ParquetWriter, schemaFromColumnData, type ColumnSource, type KeyValue } from 'hyparquet-writer'
import { csvNumber } from '../report/csv.js'
import { SweepError } from './grid.js'
import type { Cell, Column, TableSpec } from './tablesSchema.js'

/** Rows per Parquet row group (and per CSV write). */
export const ROW_GROUP_ROWS = 50_000

/** Written into every file's metadata as `created_by`; no version, so the bytes do not depend on the harness release. */
const CREATED_BY = 'lp-keeper sim sweep tables'

export interface TablePaths {
  parquet: string
  csv: string
}

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

/** Checks a cell against its column and converts it to what the Parquet encoder takes. */
function parquetValue(table: string, c: Pick<Column<unknown>, 'name' | 'type' | 'nullable'>, v: Cell, row: number): unknown {
  const where = () => `${table}.parquet: column ${c.name}, row ${row}`
  if (v === null) {
    if (!c.nullable) throw new SweepError(`${where()}: null in a column that cannot hold null`)
    return null
  }
  const bad = (): never => {
    throw new SweepError(`${where()}: ${JSON.stringify(v)} is not of type ${c.type}`)
  }
  switch (c.type) {
    case 'STRING':
      return typeof v === 'string' ? v : bad()
    case 'BOOLEAN':
      return typeof v === 'boolean' ? v : bad()
    case 'DOUBLE':
      return typeof v === 'number' && Number.isFinite(v) ? v : bad()
    case 'INT32':
      return typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? v : bad()
    case 'INT64':
      return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : bad()
  }
}

/** A checked cell as CSV text. */
function csvCell(v: Cell): string {
  if (v === null) return ''
  if (typeof v === 'number') return csvNumber(v)
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return csvText(v)
}

/** A text cell, quoted only when it holds a comma, quote or line break. */
function csvText(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export class TableWriter<R> {
  readonly paths: TablePaths
  private readonly tmp: TablePaths
  private readonly spec: TableSpec<R>
  private readonly rowGroupRows: number
  private parquet: ParquetWriter | undefined
  private csv: FileHandle | undefined
  private columns: unknown[][]
  private lines: string[] = []
  private rows = 0

  private constructor(dir: string, spec: TableSpec<R>, rowGroupRows: number) {
    this.spec = spec
    this.rowGroupRows = rowGroupRows
    this.paths = { parquet: join(dir, `${spec.name}.parquet`), csv: join(dir, `${spec.name}.csv`) }
    this.tmp = { parquet: `${this.paths.parquet}.tmp`, csv: `${this.paths.csv}.tmp` }
    this.columns = spec.columns.map(() => [])
  }

  /** Opens both files (temporary names) and writes the CSV header. `meta` goes into the Parquet file's key-value metadata. */
  static async open<R>(dir: string, spec: TableSpec<R>, meta: KeyValue[], rowGroupRows = ROW_GROUP_ROWS): Promise<TableWriter<R>> {
    if (!Number.isSafeInteger(rowGroupRows) || rowGroupRows < 1) throw new SweepError(`row group size must be an integer >= 1, got ${rowGroupRows}`)
    const w = new TableWriter(dir, spec, rowGroupRows)
    const schema = schemaFromColumnData({ columnData: spec.columns.map((c) => ({ name: c.name, data: [], type: c.type, nullable: c.nullable })) })
    w.csv = await open(w.tmp.csv, 'w')
    try {
      w.parquet = new ParquetWriter({ writer: fileWriter(w.tmp.parquet), schema, kvMetadata: meta, createdBy: CREATED_BY })
      await w.csv.write(spec.columns.map((c) => csvText(c.name)).join(',') + '\n')
    } catch (err) {
      await w.abort()
      throw err
    }
    return w
  }

  /** Rows added so far. */
  get count(): number {
    return this.rows
  }

  async add(row: R): Promise<void> {
    const cells = this.spec.columns.map((c) => c.get(row))
    const line: string[] = []
    for (let i = 0; i < cells.length; i++) {
      const c = this.spec.columns[i]!
      this.columns[i]!.push(parquetValue(this.spec.name, c, cells[i]!, this.rows))
      line.push(csvCell(cells[i]!))
    }
    this.lines.push(line.join(','))
    this.rows++
    if (this.lines.length >= this.rowGroupRows) await this.flush()
  }

  /** Writes the buffered rows as one row group and one block of CSV lines. */
  private async flush(): Promise<void> {
    if (this.lines.length === 0) return
    const columnData: ColumnSource[] = this.spec.columns.map((c, i) => ({ name: c.name, data: this.columns[i]! as ColumnSource['data'] }))
    await this.parquet!.write({ columnData, rowGroupSize: this.lines.length })
    await this.csv!.write(this.lines.join('\n') + '\n')
    this.columns = this.spec.columns.map(() => [])
    this.lines = []
  }

  /** Writes the rest, closes both files and moves them to their final names. */
  async finish(): Promise<TablePaths> {
    await this.flush()
    await this.parquet!.finish()
    await this.csv!.close()
    this.csv = undefined
    await rename(this.tmp.parquet, this.paths.parquet)
    await rename(this.tmp.csv, this.paths.csv)
    return this.paths
  }

  /** Closes and removes the temporary files (after an error). */
  async abort(): Promise<void> {
    await this.csv?.close().catch(() => {})
    this.csv = undefined
    await rm(this.tmp.parquet, { force: true })
    await rm(this.tmp.csv, { force: true })
  }
}
