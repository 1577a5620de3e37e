/** What a missing value renders as. */
export const MISSING = '—'

/**
 * A fraction as a percentage with two decimals (`0.1234` -> `"12.34%"`); a missing or
 * non-finite value renders as an em-dash.
 *
 * @example
 * import { formatPercent } from './index.js'
 * formatPercent(0.1234) // '12.34%'
 * formatPercent(null) // '—'
 */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return MISSING
  const text = (fraction * 100).toFixed(2)
  return `${text === '-0.00' ? '0.00' : text}%`
}
