import { InvalidInputError } from '../errors.js'
import { formatPercent, MISSING } from './formatPercent.js'

/** Seven days in seconds: the shortest series that is annualized. */
export const APY_MIN_SPAN_SECONDS = 7 * 24 * 60 * 60
const YEAR_SECONDS = 365 * 24 * 60 * 60

/** One observation of the vault's share price (7 decimals) at a unix time in seconds. */
export type SharePricePoint = { timestamp: number; price: bigint }

export type ApyDisplayReturnType = {
  /** `annualized` when the series spans >= 7 days, `cumulative` when shorter, `missing` when it cannot be computed. */
  kind: 'annualized' | 'cumulative' | 'missing'
  /** The return as a fraction (0.05 = 5 %), `null` when missing. */
  value: number | null
  /** Seconds between the first and last observation. */
  spanSeconds: number
  /** What to show: `"5.00% APY"`, `"0.40% cumulative"` or `"—"`. */
  text: string
}

/**
 * The vault's return for display, from share-price observations: over a span of at least 7 days
 * it is annualized, `(last / first) ^ (365 days / span) - 1`, labelled APY; over a shorter span
 * the plain `last / first - 1`, labelled cumulative (annualizing a few hours would print
 * nonsense). Fewer than two observations, no time between them, a non-positive first price or a
 * non-finite result render as an em-dash. Display only: floating point is fine here.
 *
 * @example
 * import { apyDisplay } from './index.js'
 * apyDisplay([{ timestamp: 0, price: 10_000_000n }, { timestamp: 86_400, price: 10_040_000n }]).text // '0.40% cumulative'
 * apyDisplay([]).text // '—'
 */
export function apyDisplay(series: readonly SharePricePoint[]): ApyDisplayReturnType {
  for (const p of series)
    if (!Number.isFinite(p.timestamp)) throw new InvalidInputError('Timestamps must be finite numbers.', `timestamp = ${p.timestamp}`)
  const missing = (spanSeconds: number): ApyDisplayReturnType => ({ kind: 'missing', value: null, spanSeconds, text: MISSING })
  if (series.length < 2) return missing(0)
  const sorted = [...series].sort((a, b) => a.timestamp - b.timestamp)
  const first = sorted[0]!
  const last = sorted[sorted.length - 1]!
  const spanSeconds = last.timestamp - first.timestamp
  if (spanSeconds <= 0 || first.price <= 0n || last.price < 0n) return missing(spanSeconds)

  // growth with 12 significant decimals before leaving integers
  const growth = Number((last.price * 10n ** 12n) / first.price) / 1e12
  if (spanSeconds >= APY_MIN_SPAN_SECONDS) {
    const value = growth ** (YEAR_SECONDS / spanSeconds) - 1
    if (!Number.isFinite(value)) return missing(spanSeconds)
    return { kind: 'annualized', value, spanSeconds, text: `${formatPercent(value)} APY` }
  }
  const value = growth - 1
  return { kind: 'cumulative', value, spanSeconds, text: `${formatPercent(value)} cumulative` }
}
