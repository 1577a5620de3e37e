/**
 * Seeded percentile bootstrap: a 95 % confidence interval for a statistic of a grid point's
 * runs (one value per seed), from B resamples drawn with replacement.
 *
 * Sort the n values ascending as x[0..n−1]. For b = 1..B: draw n indices uniformly from 0..n−1
 * (with replacement) from the stream, take x at those indices, sorted ascending, and apply the
 * statistic. Sort the B results and return their type-7 percentiles at (1 − level)/2 and
 * (1 + level)/2 (stats.ts `percentile`), i.e. the 2.5th and 97.5th for level 0.95. Indexing the
 * sorted values lets a resample be put in order by counting how often each index was drawn
 * instead of a comparison sort (the resample is the same multiset either way).
 *
 * The draws come from one stream of sim/src/market/rng.ts named by {@link bootstrapStream}
 * (the scenario file's hash, the grid point id and the figure name), drawn in a fixed order
 * (resample by resample, index by index), so the same values always give the same interval,
 * on any machine, whichever shard ran which seed.
 */
import { derive, type Rng } from '../market/rng.js'
import { percentile, tidy } from './stats.js'

/** Resamples per interval. */
export const BOOTSTRAP_RESAMPLES = 1000
/** Confidence level of the intervals. */
export const BOOTSTRAP_LEVEL = 0.95

/** A statistic of a sample sorted ascending (never empty). */
export type SortedStatistic = (sorted: readonly number[]) => number

/** A confidence interval's ends. */
export interface Interval {
  lo: number
  hi: number
}

/** The labels of a figure's stream, as written into aggregate.json's method text. */
export const BOOTSTRAP_STREAM = 'derive(0, "sweep-bootstrap", scenario.hash, point id, figure name)'

/** The stream a figure's interval at a grid point draws from (see {@link BOOTSTRAP_STREAM}). */
export function bootstrapStream(scenarioHash: string, pointId: string, figure: string): Rng {
  return derive(0, 'sweep-bootstrap', scenarioHash, pointId, figure)
}

const ascending = (a: number, b: number) => a - b

/**
 * The percentile-bootstrap interval of `statistic` over `values` (their order does not matter:
 * they are sorted first). Null with fewer than two values: one run says nothing about the
 * spread. Ends are rounded by stats.ts `tidy` like every other aggregate figure.
 */
export function bootstrapInterval(
  values: readonly number[],
  statistic: SortedStatistic,
  rng: Rng,
  resamples = BOOTSTRAP_RESAMPLES,
  level = BOOTSTRAP_LEVEL,
): Interval | null {
  const n = values.length
  if (n < 2) return null
  if (!Number.isSafeInteger(resamples) || resamples < 1) throw new RangeError(`bootstrap resamples must be an integer >= 1, got ${resamples}`)
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap level ${level} outside (0, 1)`)
  const sorted = [...values].sort(ascending)
  const results = new Array<number>(resamples)
  const sample = new Array<number>(n)
  const counts = new Array<number>(n)
  for (let b = 0; b < resamples; b++) {
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[rng.int(0, n - 1)]! += 1
    let k = 0
    for (let j = 0; j < n; j++) for (let c = counts[j]!; c > 0; c--) sample[k++] = sorted[j]!
    results[b] = statistic(sample)
  }
  results.sort(ascending)
  return { lo: tidy(percentile(results, (1 - level) / 2)), hi: tidy(percentile(results, (1 + level) / 2)) }
}
