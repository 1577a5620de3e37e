/**
 * How aggregate.html and the dashboard print risk figures: value texts, interval texts and the
 * headline saying how many seeds the intervals rest on. Computed from the aggregate alone, with
 * no Node imports, so the page's static table, its script and the dashboard print the same digits.
 */
import type { SweepAggregate } from './aggregate.js'
import { formatValue } from './paramValue.js'
import type { RiskStats, RiskUnit } from './risk.js'
import { tidy } from './stats.js'

/**
 * Up to 6 significant digits, plain notation for ordinary magnitudes; `–` for null. Shared by
 * every table of aggregate.html (re-exported there).
 */
export function formatStat(v: number | null): string {
  if (v === null) return '–'
  if (v === 0) return '0'
  const abs = Math.abs(v)
  if (abs >= 1e-4 && abs < 1e9) return String(Number(v.toPrecision(6)))
  return v.toExponential(3)
}

/** A risk value in its unit: fractions as percentages (0.0123 → `1.23 %`), the rest as numbers. */
export function formatRisk(v: number | null, unit: RiskUnit): string {
  if (v === null) return '–'
  return unit === 'fraction' ? `${formatStat(tidy(v * 100))} %` : formatStat(v)
}

/** `[lo, hi]` in the figure's unit, or why there is no interval. */
export function formatInterval(s: RiskStats, unit: RiskUnit): string {
  if (s.n === 0) return ''
  if (s.lo === null || s.hi === null) return 'no CI (n < 2)'
  return `[${formatRisk(s.lo, unit)}, ${formatRisk(s.hi, unit)}]`
}

/** Per point (aggregate order), per risk figure: [value text, interval text]. */
export type RiskText = Record<string, [string, string]>[]

/** Per point (aggregate order), per risk figure: [value text, interval text]. */
export function riskText(a: SweepAggregate): RiskText {
  return a.points.map((pt) => {
    const out: Record<string, [string, string]> = {}
    for (const f of a.risk.figures) {
      const s = pt.risk[f.name]
      if (s !== undefined) out[f.name] = [formatRisk(s.value, f.unit), formatInterval(s, f.unit)]
    }
    return out
  })
}

/** "Intervals rest on N seeds": the runs per grid point the intervals use (a range when failures differ). */
export function riskHeadline(a: SweepAggregate): string {
  const runs = a.points.map((p) => p.runs)
  const lo = Math.min(...runs)
  const hi = Math.max(...runs)
  const how = `${Math.round(a.risk.bootstrap.level * 100)} % percentile bootstrap, ${a.risk.bootstrap.resamples} resamples`
  if (hi === 0) return 'No run finished: there are no risk figures.'
  if (lo === hi) return `Intervals rest on ${hi} seed${hi === 1 ? '' : 's'} per grid point (${how}).`
  return `Intervals rest on ${lo} to ${hi} seeds per grid point (failed and missing runs are left out; each figure’s n is in the table; ${how}).`
}

/** A cell of the risk table: value text, interval text and n (`–` and 0 when no run gave a value). */
export interface RiskTableCell {
  value: string
  interval: string
  n: number
}

/** A row of the risk table: the point, its parameter values, its finished runs, a cell per risk figure. */
export interface RiskTableRow {
  id: string
  values: string[]
  runs: number
  cells: RiskTableCell[]
}

/** The risk table's rows: every grid point (aggregate order), every figure (`risk.figures` order). */
export function riskTableRows(a: SweepAggregate): RiskTableRow[] {
  return a.points.map((pt) => ({
    id: pt.id,
    values: pt.values.map(formatValue),
    runs: pt.runs,
    cells: a.risk.figures.map((f) => {
      const s = pt.risk[f.name]
      if (s === undefined || s.n === 0) return { value: '–', interval: '', n: 0 }
      return { value: formatRisk(s.value, f.unit), interval: formatInterval(s, f.unit), n: s.n }
    }),
  }))
}
