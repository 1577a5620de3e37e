/**
 * timeseries.csv: the report's per-ledger series as one row per recorded point, for
 * spreadsheets and notebooks. Numbers are printed in plain decimal notation (never exponent
 * form, never locale-dependent), so the same report always gives the same bytes and any CSV
 * reader parses the cells as numbers.
 */
import type { Report } from './types.js'

/** The fixed columns, before the per-asset ones. */
export const CSV_FIXED_COLUMNS = [
  'ledger',
  'time',
  'share_price',
  'total_usdc',
  'active_liq',
  'utilisation',
  'total_profit',
  'locked_profit',
  'bad_debt',
  'open_auctions',
] as const

/**
 * The series as CSV: header `ledger,time,share_price,total_usdc,active_liq,utilisation,
 * total_profit,locked_profit,bad_debt,open_auctions` followed by `market_<CODE>`, `oracle_<CODE>` and
 * `dex_<CODE>` for each asset in `series.assets` order; one row per entry of `series.ledger`.
 * `utilisation` is active_liq / total_usdc rounded to 7 decimals (empty when total_usdc is 0).
 * Missing values (a null DEX quote, a short or absent column) are empty cells. Lines end in
 * `\n`, including the last.
 */
export function timeseriesCsv(report: Report): string {
  const s = report.series
  const header: string[] = [...CSV_FIXED_COLUMNS]
  for (const code of s.assets) header.push(`market_${code}`, `oracle_${code}`, `dex_${code}`)
  const lines = [header.map(csvText).join(',')]

  for (let i = 0; i < s.ledger.length; i++) {
    const total = s.totalUsdc[i]
    const active = s.activeLiq[i]
    const utilisation = total !== undefined && active !== undefined && total > 0 ? round7(active / total) : null
    const row: (number | null | undefined)[] = [
      s.ledger[i],
      s.time[i],
      s.sharePrice[i],
      total,
      active,
      utilisation,
      s.totalProfit[i],
      s.lockedProfit?.[i],
      s.badDebt[i],
      s.openAuctions[i],
    ]
    for (const code of s.assets) row.push(s.market[code]?.[i], s.oracle[code]?.[i], s.dex[code]?.[i])
    lines.push(row.map(csvNumber).join(','))
  }
  return lines.join('\n') + '\n'
}

/** A number cell: plain decimal notation; empty for null, undefined or a non-finite value. */
export function csvNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return ''
  return plainDecimal(value)
}

/**
 * The shortest round-trip decimal of `value` (what `String` prints) with any exponent expanded:
 * `1e-7` -> `0.0000001`, `1.5e21` -> `1500000000000000000000`. `-0` prints as `0`.
 */
export function plainDecimal(value: number): string {
  const text = String(value)
  const e = text.indexOf('e')
  if (e < 0) return text
  const negative = text.startsWith('-')
  const mantissa = text.slice(negative ? 1 : 0, e)
  const exponent = Number(text.slice(e + 1))
  const dot = mantissa.indexOf('.')
  const digits = mantissa.replace('.', '')
  // position of the decimal point within `digits` after shifting
  const point = (dot < 0 ? mantissa.length : dot) + exponent
  let out: string
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length)
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`
  return negative ? `-${out}` : out
}

/** A text cell (the header's asset codes), quoted only when it holds a comma, quote or line break. */
function csvText(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function round7(x: number): number {
  return Math.round(x * 1e7) / 1e7
}
