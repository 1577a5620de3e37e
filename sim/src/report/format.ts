/**
 * Display formatting shared by the terminal summary and report.html: fixed, locale-free
 * notation (`toFixed`, a comma every three integer digits), so a report renders to the same
 * text on every machine. A missing value is the core's em-dash.
 */
import { MISSING } from '../../../src/core/index.js'

export { MISSING }

/** A USDC / USD amount: two decimals with thousands separators; small non-zero amounts keep up to 7. */
export function formatAmount(value: number | null | undefined): string {
  if (!isNumber(value)) return MISSING
  if (value !== 0 && Math.abs(value) < 0.01) return trimZeros(value.toFixed(7))
  return group(value.toFixed(2))
}

/** A fraction as a percentage (`0.0123` -> `1.23%` at 2 decimals). */
export function formatPct(fraction: number | null | undefined, decimals = 2): string {
  if (!isNumber(fraction)) return MISSING
  return `${noNegativeZero((fraction * 100).toFixed(decimals))}%`
}

/** A share price: 7 decimals, the vault's precision. */
export function formatPrice(value: number | null | undefined): string {
  if (!isNumber(value)) return MISSING
  return group(value.toFixed(7))
}

/** A count or a ledger delay: integers as they are, fractions (a median of two) with up to 2 decimals. */
export function formatCount(value: number | null | undefined): string {
  if (!isNumber(value)) return MISSING
  return Number.isInteger(value) ? group(String(value)) : group(trimZeros(value.toFixed(2)))
}

/** A ledger sequence number, without separators (it is an identifier as much as a count). */
export function formatLedger(value: number | null | undefined): string {
  return isNumber(value) ? String(value) : MISSING
}

/** ✓ or ✗. */
export function mark(ok: boolean): string {
  return ok ? '✓' : '✗'
}

/** A long address as its first and last four characters (`CAKE…AAAA`); short strings unchanged. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address
}

/** Hours with up to 2 decimals (`1.5 h`). */
export function formatHours(seconds: number): string {
  return `${trimZeros((seconds / 3600).toFixed(2))} h`
}

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function trimZeros(fixed: string): string {
  return noNegativeZero(fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed)
}

function noNegativeZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

function group(fixed: string): string {
  const negative = fixed.startsWith('-')
  const [int = '', frac] = (negative ? fixed.slice(1) : fixed).split('.')
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`
}

/** Seconds as `45 s`, `15 min`, `1 h`, `1 h 30 min`, `2 d`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return MISSING
  if (seconds < 120 && seconds % 60 !== 0) return `${seconds} s`
  if (seconds < 3_600) return `${Math.round(seconds / 60)} min`
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`
  const h = Math.floor(seconds / 3_600)
  const m = Math.round((seconds - h * 3_600) / 60)
  return m === 0 ? `${h} h` : `${h} h ${m} min`
}

/** Sales by route kind: "primary 4, fallback 2, via 1, comet 3; 2 split" (swaps; fills that split a lot asset). */
export function formatSales(sales: { primary: number; fallback: number; via: number; comet: number; split: number } | undefined): string {
  if (sales === undefined) return MISSING
  return `primary ${formatCount(sales.primary)}, fallback ${formatCount(sales.fallback)}, via ${formatCount(sales.via)}, comet ${formatCount(sales.comet)}; ${formatCount(sales.split)} split`
}

/** A keeper's lanes: their count and the transactions each had applied, operator first ("5: 3/1/0/0/0"). */
export function formatLanes(lanes: { count: number; applied: readonly number[] } | undefined): string {
  if (lanes === undefined) return MISSING
  return `${formatCount(lanes.count)}: ${lanes.applied.map((n) => formatCount(n)).join('/')}`
}
