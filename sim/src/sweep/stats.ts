/**
 * The statistics of a sweep's aggregate: which summary figures are aggregated, and their
 * mean, 5th and 95th percentile over a grid point's seeds.
 *
 * Percentiles use linear interpolation between the closest ranks (Hyndman & Fan type 7, the
 * default of numpy, R and spreadsheets' PERCENTILE.INC): sort the n values ascending as
 * x[0..n−1], take h = (n − 1)·p, and return x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). One value is
 * its own every percentile. The same function serves every figure, so p5/p95 always mean the
 * same thing in aggregate.json, aggregate.csv and aggregate.html.
 */
import type { Summary } from '../report/types.js'

/** An aggregated figure: its name (a dotted path into `Report.summary`) and how to read it. */
export interface Figure {
  name: string
  /** What the number is, for the HTML page. */
  label: string
  read: (s: Summary) => number | null
}

/**
 * The summary figures a sweep aggregates. `auditHolds` counts as 1 when the invariant audit
 * held and 0 when it failed, so its mean is the share of runs that passed. Null values (a fill
 * delay when nothing was filled) are left out of that figure's statistics.
 */
export const FIGURES: readonly Figure[] = [
  { name: 'lpReturn', label: 'LP return (end / start share price − 1)', read: (s) => s.lpReturn },
  { name: 'sharePriceEnd', label: 'Share price at the end', read: (s) => s.sharePriceEnd },
  { name: 'vaultProfit', label: 'Vault profit (USDC)', read: (s) => s.vaultProfit },
  { name: 'auctions.created', label: 'Auctions created', read: (s) => s.auctions.created },
  { name: 'auctions.filled', label: 'Auctions filled', read: (s) => s.auctions.filled },
  { name: 'auctions.expired', label: 'Auctions expired', read: (s) => s.auctions.expired },
  { name: 'auctions.open', label: 'Auctions open at the end', read: (s) => s.auctions.open },
  { name: 'missed', label: 'Liquidatable borrowers never auctioned', read: (s) => s.missed },
  { name: 'fillDelay.median', label: 'Median fill delay (ledgers)', read: (s) => s.fillDelay.median },
  { name: 'fillDelay.p95', label: '95th percentile fill delay (ledgers)', read: (s) => s.fillDelay.p95 },
  { name: 'fillDelay.max', label: 'Longest fill delay (ledgers)', read: (s) => s.fillDelay.max },
  { name: 'badDebt', label: 'Bad debt at the end (USD)', read: (s) => s.badDebt },
  { name: 'slashes', label: 'Slashes', read: (s) => s.slashes },
  { name: 'keeperProfit', label: 'Keeper profit, all keepers (USDC)', read: (s) => s.keeperProfit },
  { name: 'peakUtilisation', label: 'Peak utilisation (active liquidations / total USDC)', read: (s) => s.peakUtilisation },
  { name: 'replayMismatches', label: 'Core replay mismatches', read: (s) => s.replayMismatches },
  { name: 'auditHolds', label: 'Share of runs whose invariant audit held', read: (s) => (s.auditHolds ? 1 : 0) },
  { name: 'fees.keepersXlm', label: 'Keeper fees, all keepers (XLM)', read: (s) => s.fees?.keepersXlm ?? null },
  { name: 'fees.perWinXlm', label: 'Keeper fees per win (XLM)', read: (s) => s.fees?.perWinXlm ?? null },
  { name: 'fees.shareOfVaultProfit', label: "Keeper fees / the vault's profit", read: (s) => s.fees?.shareOfVaultProfit ?? null },
  { name: 'fees.inclusionDelay.p50', label: 'Median inclusion delay (ledgers)', read: (s) => s.fees?.inclusionDelay.p50 ?? null },
  { name: 'fees.inclusionDelay.p95', label: '95th percentile inclusion delay (ledgers)', read: (s) => s.fees?.inclusionDelay.p95 ?? null },
]

/** A figure over a grid point's runs; mean and percentiles are null when no run had a value. */
export interface FigureStats {
  mean: number | null
  p5: number | null
  p95: number | null
  /** Runs that gave a value. */
  n: number
}

/** Percentile `p` (0..1) of values sorted ascending, by linear interpolation (type 7, see above). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no values')
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentile ${p} outside 0..1`)
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

/**
 * Rounds to 12 significant digits: sums of 7-decimal figures pick up binary noise
 * (0.1 + 0.2 = 0.30000000000000004); the aggregate should print what a reader would compute.
 */
export function tidy(x: number): number {
  if (x === 0) return 0
  if (!Number.isFinite(x)) return x
  return Number(x.toPrecision(12))
}

/**
 * Mean, p5, p95 and n of `values` (nulls and non-finite values skipped). Values are summed in
 * the order given, so callers pass them in a fixed order (seeds ascending) for stable bytes.
 */
export function figureStats(values: readonly (number | null)[]): FigureStats {
  const xs = finiteValues(values)
  if (xs.length === 0) return { mean: null, p5: null, p95: null, n: 0 }
  const sorted = [...xs].sort((a, b) => a - b)
  return { mean: tidy(mean(xs)), p5: tidy(percentile(sorted, 0.05)), p95: tidy(percentile(sorted, 0.95)), n: xs.length }
}

/** The values that count: nulls and non-finite values (NaN, ±Infinity) left out, order kept. */
export function finiteValues(values: readonly (number | null)[]): number[] {
  return values.filter((v): v is number => v !== null && Number.isFinite(v))
}

/** Arithmetic mean, summed in the order given (callers fix the order for stable bytes). */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('mean of no values')
  let sum = 0
  for (const x of xs) sum += x
  return sum / xs.length
}
