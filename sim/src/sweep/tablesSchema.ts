/**
 * The shape of a sweep's tables (runs, auctions, keepers): typed columns, each with a unit and
 * a meaning, and the columns every table starts with — the run's identity and one column per
 * swept parameter. The column lists themselves are in tablesColumns.ts; tablesWriter.ts turns
 * rows into Parquet and CSV.
 *
 * Column types are fixed before the first row is read, from the code and the sweep's manifest
 * only, so every shard of a sweep and their merge agree on the schema.
 */
import { formatValue, type SweepJob, type SweepParam } from './grid.js'

/** Parquet types the tables use: UTF8 text, 32/64-bit signed integers, IEEE doubles, booleans. */
export type ColumnType = 'STRING' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN'

/** One cell as the column reads it from its row; null for a missing value. */
export type Cell = string | number | boolean | null

export interface Column<R> {
  name: string
  type: ColumnType
  /** Whether the column can hold null (Parquet OPTIONAL rather than REQUIRED). */
  nullable: boolean
  /** USDC, USD, XLM, ledgers, ms, fraction, count…; '' for identifiers and text. */
  unit: string
  /** One line on what the value means (documentation only). */
  about: string
  get: (row: R) => Cell
}

export type TableName = 'runs' | 'auctions' | 'keepers'

export interface TableSpec<R> {
  name: TableName
  columns: Column<R>[]
}

/** Anything a row is built from carries its job. */
export interface JobRow {
  job: SweepJob
}

/** A column shortcut: `col('seed', 'INT64', false, '', 'the run's seed', (r) => r.job.seed)`. */
export function col<R>(name: string, type: ColumnType, nullable: boolean, unit: string, about: string, get: (row: R) => Cell): Column<R> {
  return { name, type, nullable, unit, about, get }
}

/** A number when the value is a finite number, otherwise null (for fields a report may lack). */
export function optionalNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/**
 * The Parquet type of a swept parameter, from the values the grid gives it: BOOLEAN when all
 * are booleans, INT64 when all are integers, DOUBLE when all are numbers, otherwise STRING
 * (strings as given, lists and objects as JSON — what point ids show).
 */
export function paramType(values: readonly unknown[]): ColumnType {
  if (values.every((v) => typeof v === 'boolean')) return 'BOOLEAN'
  if (values.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) return 'INT64'
  if (values.every((v) => typeof v === 'number' && Number.isFinite(v))) return 'DOUBLE'
  return 'STRING'
}

/**
 * One column per swept parameter, in `--set` order, named by its scenario path. A path that
 * equals one of `taken` (a fixed column of some table) is named `param.<path>` instead, so
 * the name means the same in every table.
 */
export function paramColumns(grid: readonly SweepParam[], taken: ReadonlySet<string>): Column<JobRow>[] {
  return grid.map((p) => {
    const type = paramType(p.values)
    const name = taken.has(p.path) ? `param.${p.path}` : p.path
    return col<JobRow>(name, type, false, '', `swept parameter ${p.path} (the value of --set ${p.path}=…)`, (r) => {
      const o = r.job.point.overrides.find((x) => x.path === p.path)
      if (o === undefined) return null
      return type === 'STRING' ? formatValue(o.value) : (o.value as number | boolean)
    })
  })
}

/** The run's identity, first in the auctions and keepers tables: job key, point id (then the parameters), seed. */
export function identityColumns<R extends JobRow>(): { head: Column<R>[]; tail: Column<R>[] } {
  return {
    head: [
      col<R>('key', 'STRING', false, '', "the run's job key: point id and seed; its directory under runs/", (r) => r.job.key),
      col<R>('point', 'STRING', false, '', "the grid point's id (path=value pairs, or base)", (r) => r.job.point.id),
    ],
    tail: [col<R>('seed', 'INT64', false, '', "the run's seed", (r) => r.job.seed)],
  }
}

/** Prefixes a table's own columns with the identity and parameter columns. */
export function withIdentity<R extends JobRow>(params: readonly Column<JobRow>[], own: readonly Column<R>[], extraIdentity: readonly Column<R>[] = []): Column<R>[] {
  const { head, tail } = identityColumns<R>()
  return [...head, ...params, ...tail, ...extraIdentity, ...own]
}
