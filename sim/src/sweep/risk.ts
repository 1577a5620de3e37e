/**
 * Monte Carlo risk figures of a grid point: a statistic over the point's seeds of one per-run
 * value read from the run's summary.json (`summary` and `keepers[]`), each with a seeded
 * percentile-bootstrap 95 % interval (bootstrap.ts).
 *
 * Every figure is `statistic(sorted values)` where the values are the per-run values of the
 * runs that gave one (null and non-finite values left out), sorted ascending, and n is how many
 * there are. The statistics (pN is stats.ts `percentile`, type 7):
 *
 *   pN      type-7 N-th percentile: h = (n − 1)·N/100, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋])
 *   es99    expected shortfall at 99 %: the mean of the k largest values, k = max(1, ⌈n / 100⌉)
 *           (below 100 seeds, the worst run)
 *   mean    arithmetic mean
 *   share   mean of a 0/1 indicator (P(loss): 1 when lpReturn < 0)
 *
 * The same function computes a figure's value and each bootstrap resample's statistic, so the
 * interval is always the interval of the figure as printed.
 */
import type { RunSummaryFile } from './runFiles.js'
import { bootstrapInterval, bootstrapStream } from './bootstrap.js'
import { finiteValues, mean, percentile, tidy } from './stats.js'
import type { SortedStatistic } from './bootstrap.js'

/** How a figure's number reads: USD, a fraction (0.01 = 1 %), a count or ledgers. */
export type RiskUnit = 'usd' | 'fraction' | 'count' | 'ledgers'

/** What a reader of aggregate.json needs to know about a risk figure. */
export interface RiskFigureInfo {
  /** Key in each point's `risk` and CSV column stem (`risk.<name>.value`). */
  name: string
  label: string
  unit: RiskUnit
  /** Which direction is good for the pool (heatmap colours); null when neither is. */
  better: 'higher' | 'lower' | null
  /** The per-run value and the statistic taken over the runs, in words and formula. */
  definition: string
}

/** A risk figure: its description, the per-run value and the across-run statistic. */
export interface RiskFigure extends RiskFigureInfo {
  read: (run: RunSummaryFile) => number | null
  statistic: SortedStatistic
}

/** A figure at one grid point: value, 95 % interval (null when n < 2) and the runs it rests on. */
export interface RiskStats {
  value: number | null
  lo: number | null
  hi: number | null
  n: number
}

/** Type-7 percentile `p` (0..1) as a statistic. */
export const pct =
  (p: number): SortedStatistic =>
  (sorted) =>
    percentile(sorted, p)

/** k of expected shortfall at 99 %: max(1, ⌈n / 100⌉) (integer division, no binary rounding of 0.01·n). */
export function es99Count(n: number): number {
  return Math.max(1, Math.ceil(n / 100))
}

/** Expected shortfall at 99 % of a sample sorted ascending: the mean of its k largest values. */
export function es99(sorted: readonly number[]): number {
  return mean(sorted.slice(sorted.length - es99Count(sorted.length)))
}

/** Insolvent debt as a fraction of what borrowers owed at the start; null when nothing was borrowed. */
export function insolventShare(run: RunSummaryFile): number | null {
  const s = run.summary
  return s.borrowedStart > 0 ? s.insolventDebt / s.borrowedStart : null
}

const insolvent = (run: RunSummaryFile) => run.summary.insolventDebt
const BAD_DEBT_USD = 'summary.insolventDebt (USD: backstop liabilities + Σ max(0, liabilities − collateral) over borrowers, at the end)'
const BAD_DEBT_SHARE = 'summary.insolventDebt / summary.borrowedStart (runs with borrowedStart = 0 left out)'

/** The figures that do not depend on the keeper count, in column order. */
export const RISK_FIGURES: readonly RiskFigure[] = [
  { name: 'badDebt.var95', label: 'Bad debt VaR95 (USD)', unit: 'usd', better: 'lower', read: insolvent, statistic: pct(0.95), definition: `p95 over runs of ${BAD_DEBT_USD}` },
  { name: 'badDebt.es99', label: 'Bad debt ES99 (USD)', unit: 'usd', better: 'lower', read: insolvent, statistic: es99, definition: `mean of the k = max(1, ceil(n/100)) largest over runs of ${BAD_DEBT_USD}` },
  { name: 'badDebtShare.var95', label: 'Bad debt VaR95 (share of borrowed)', unit: 'fraction', better: 'lower', read: insolventShare, statistic: pct(0.95), definition: `p95 over runs of ${BAD_DEBT_SHARE}` },
  { name: 'badDebtShare.es99', label: 'Bad debt ES99 (share of borrowed)', unit: 'fraction', better: 'lower', read: insolventShare, statistic: es99, definition: `mean of the k = max(1, ceil(n/100)) largest over runs of ${BAD_DEBT_SHARE}` },
  { name: 'liquidated.lar95', label: 'Liquidated collateral LaR95 (USD)', unit: 'usd', better: null, read: (r) => r.summary.liquidatedCollateral, statistic: pct(0.95), definition: 'p95 over runs of summary.liquidatedCollateral (Σ lot value of filled user liquidations, USD)' },
  { name: 'lpReturn.p5', label: 'LP return p5', unit: 'fraction', better: 'higher', read: (r) => r.summary.lpReturn, statistic: pct(0.05), definition: 'p5 over runs of summary.lpReturn' },
  { name: 'lpReturn.p50', label: 'LP return p50', unit: 'fraction', better: 'higher', read: (r) => r.summary.lpReturn, statistic: pct(0.5), definition: 'p50 (median) over runs of summary.lpReturn' },
  { name: 'lpReturn.p95', label: 'LP return p95', unit: 'fraction', better: 'higher', read: (r) => r.summary.lpReturn, statistic: pct(0.95), definition: 'p95 over runs of summary.lpReturn' },
  { name: 'lpReturn.pLoss', label: 'P(loss): share of runs with LP return < 0', unit: 'fraction', better: 'lower', read: (r) => (r.summary.lpReturn < 0 ? 1 : 0), statistic: mean, definition: 'mean over runs of (summary.lpReturn < 0 ? 1 : 0)' },
  { name: 'auctions.filled', label: 'Auctions filled (mean)', unit: 'count', better: 'higher', read: (r) => r.summary.auctions.filled, statistic: mean, definition: 'mean over runs of summary.auctions.filled' },
  { name: 'auctions.missed', label: 'Liquidatable borrowers never auctioned (mean)', unit: 'count', better: 'lower', read: (r) => r.summary.missed, statistic: mean, definition: 'mean over runs of summary.missed' },
  { name: 'auctions.expired', label: 'Auctions expired (mean)', unit: 'count', better: 'lower', read: (r) => r.summary.auctions.expired, statistic: mean, definition: 'mean over runs of summary.auctions.expired' },
  { name: 'fillDelay.p50', label: 'Fill delay p50 (median over runs of the run median, ledgers)', unit: 'ledgers', better: 'lower', read: (r) => r.summary.fillDelay.median, statistic: pct(0.5), definition: 'p50 over runs of summary.fillDelay.median (runs without a fill left out)' },
  { name: 'fillDelay.p95', label: 'Fill delay p95 (p95 over runs of the run p95, ledgers)', unit: 'ledgers', better: 'lower', read: (r) => r.summary.fillDelay.p95, statistic: pct(0.95), definition: 'p95 over runs of summary.fillDelay.p95 (runs without a fill left out)' },
  { name: 'slashes', label: 'Slashes (mean)', unit: 'count', better: 'lower', read: (r) => r.summary.slashes, statistic: mean, definition: 'mean over runs of summary.slashes' },
  { name: 'fees.shareOfVaultProfit', label: "Keeper fees / the vault's profit (mean)", unit: 'fraction', better: 'lower', read: (r) => r.summary.fees?.shareOfVaultProfit ?? null, statistic: mean, definition: 'mean over runs of summary.fees.shareOfVaultProfit (fees in USD at fees.xlmPriceUsd; runs without vault profit or from older reports left out)' },
  { name: 'fees.inclusionDelay.p95', label: 'Inclusion delay p95 (p95 over runs of the run p95, ledgers)', unit: 'ledgers', better: 'lower', read: (r) => r.summary.fees?.inclusionDelay.p95 ?? null, statistic: pct(0.95), definition: "p95 over runs of summary.fees.inclusionDelay.p95 (the keepers' applied transactions, ledgers from send to apply)" },
]

/** The keeper at `index` in a run's keepers list, by its `index` field. */
function keeperAt(run: RunSummaryFile, index: number) {
  return run.keepers.find((k) => k.index === index)
}

/** The three figures of keeper `i` (mean over the runs that had a keeper with that index). */
export function keeperFigures(i: number): RiskFigure[] {
  return [
    { name: `keeper.${i}.profit`, label: `Keeper ${i} own profit (mean, USDC)`, unit: 'usd', better: null, read: (r) => keeperAt(r, i)?.profit ?? null, statistic: mean, definition: `mean over runs of keepers[index = ${i}].profit` },
    { name: `keeper.${i}.vaultProfit`, label: `Keeper ${i} profit returned to the vault (mean, USDC)`, unit: 'usd', better: null, read: (r) => keeperAt(r, i)?.vaultProfit ?? null, statistic: mean, definition: `mean over runs of keepers[index = ${i}].vaultProfit` },
    { name: `keeper.${i}.winShare`, label: `Keeper ${i} win share (mean share of fills)`, unit: 'fraction', better: null, read: (r) => keeperAt(r, i)?.winRate ?? null, statistic: mean, definition: `mean over runs of keepers[index = ${i}].winRate` },
  ]
}

/**
 * Every figure for runs whose keeper indices reach `keeperCount − 1`: the fixed figures, then
 * three per keeper index. One list serves every grid point (a point with fewer keepers has
 * n = 0 for the missing indices), so JSON keys and CSV columns are the same at every point.
 */
export function riskFigures(keeperCount: number): RiskFigure[] {
  return [...RISK_FIGURES, ...Array.from({ length: keeperCount }, (_, i) => keeperFigures(i)).flat()]
}

/** How many keeper indices the runs hold: 1 + the largest `keepers[].index` seen (0 without keepers). */
export function keeperCountOf(runs: readonly RunSummaryFile[]): number {
  let count = 0
  for (const r of runs) for (const k of r.keepers) count = Math.max(count, k.index + 1)
  return count
}

/** What aggregate.json says about a figure (the functions left out). */
export function riskFigureInfo(f: RiskFigure): RiskFigureInfo {
  return { name: f.name, label: f.label, unit: f.unit, better: f.better, definition: f.definition }
}

/**
 * One figure over a grid point's runs (in seed order): value, bootstrap interval and n. The
 * interval's stream is keyed by the scenario hash, the point id and the figure name.
 */
export function riskStats(f: RiskFigure, runs: readonly RunSummaryFile[], scenarioHash: string, pointId: string, resamples?: number): RiskStats {
  const values = finiteValues(runs.map(f.read))
  if (values.length === 0) return { value: null, lo: null, hi: null, n: 0 }
  const sorted = [...values].sort((a, b) => a - b)
  const ci = bootstrapInterval(values, f.statistic, bootstrapStream(scenarioHash, pointId, f.name), resamples)
  return { value: tidy(f.statistic(sorted)), lo: ci?.lo ?? null, hi: ci?.hi ?? null, n: values.length }
}

/** Every figure of `figures` at one grid point, keyed by name in the list's order. */
export function pointRisk(figures: readonly RiskFigure[], runs: readonly RunSummaryFile[], scenarioHash: string, pointId: string, resamples?: number): Record<string, RiskStats> {
  const out: Record<string, RiskStats> = {}
  for (const f of figures) out[f.name] = riskStats(f, runs, scenarioHash, pointId, resamples)
  return out
}
