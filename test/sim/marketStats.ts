/**
 * Sample statistics for the market generators' tests: log returns of a path, mean and standard
 * deviation, and Pearson correlation.
 */

/** r[i] = ln(p[i+1] / p[i]). */
export function pathLogReturns(path: Float64Array, every = 1): Float64Array {
  const n = Math.floor((path.length - 1) / every)
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) out[i] = Math.log(path[(i + 1) * every]! / path[i * every]!)
  return out
}

/** Sample mean and (n − 1) standard deviation. */
export function meanAndStd(xs: ArrayLike<number>): { mean: number; std: number } {
  let sum = 0
  for (let i = 0; i < xs.length; i++) sum += xs[i]!
  const mean = sum / xs.length
  let sq = 0
  for (let i = 0; i < xs.length; i++) sq += (xs[i]! - mean) * (xs[i]! - mean)
  return { mean, std: Math.sqrt(sq / (xs.length - 1)) }
}

/** Pearson's sample correlation of two equally long samples. */
export function correlation(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  if (xs.length !== ys.length) throw new Error(`samples of different lengths: ${xs.length} and ${ys.length}`)
  const x = meanAndStd(xs)
  const y = meanAndStd(ys)
  let cov = 0
  for (let i = 0; i < xs.length; i++) cov += (xs[i]! - x.mean) * (ys[i]! - y.mean)
  return cov / (xs.length - 1) / (x.std * y.std)
}
