/**
 * Correlated diffusion shocks for several assets (`market.correlation` in a scenario): the
 * assets' GBM shocks become z = L·ε, where ε are each asset's own independent seeded normals
 * and L is the lower-triangular Cholesky factor of the correlation matrix C = L·Lᵀ, so the z have
 * unit variance and pairwise correlation C[i][j] (Glasserman, Monte Carlo Methods in Financial
 * Engineering, 2004, §2.3.3).
 *
 * Because L is lower-triangular with L[0][0] = 1, the first asset listed keeps exactly its
 * uncorrelated path, and with correlation 0 (L = identity) every path is bit for bit the one the
 * asset would have without `market.correlation`. Changing ρ in a sweep thus re-mixes the same
 * draws: runs differ only by the correlation.
 */
import { MarketModelError } from './errors.js'

/**
 * The scenario's correlation block: the assets it ties together (in this order; at least two)
 * and either `rho`, the correlation of every pair, or the full `matrix` (rows and columns in the
 * order of `assets`).
 */
export interface CorrelationSpec {
  assets: readonly string[]
  rho?: number | undefined
  matrix?: readonly (readonly number[])[] | undefined
}

/** One thing wrong with a correlation block: where (relative to the block) and what. */
export interface CorrelationProblem {
  path: (string | number)[]
  message: string
}

/** Entries within this of each other count as equal (symmetry, unit diagonal, zero pivots). */
const TOLERANCE = 1e-9

/** The full matrix of a spec: `matrix` as given, or 1 on the diagonal and `rho` elsewhere. */
export function correlationMatrix(spec: CorrelationSpec): number[][] {
  if (spec.matrix !== undefined) return spec.matrix.map((row) => [...row])
  const n = spec.assets.length
  const rho = spec.rho ?? 0
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : rho)))
}

/** The Cholesky factor, or where the factorisation shows the matrix is not positive semi-definite. */
export type CholeskyResult = { ok: true; factor: number[][] } | { ok: false; row: number; pivot: number }

/**
 * The lower-triangular L with L·Lᵀ = `matrix` (Cholesky–Banachiewicz, row by row). A positive
 * semi-definite but singular matrix (ρ = ±1, or a row that is a mix of others) has zero pivots:
 * that column of L is left 0, which is valid only when the rest of the column is 0 as well. A
 * negative pivot, or a zero pivot with a nonzero entry below it, means no vectors can have these
 * pairwise correlations; `row` is the first row (0-based) where that shows.
 */
export function cholesky(matrix: readonly (readonly number[])[]): CholeskyResult {
  const n = matrix.length
  const factor = Array.from({ length: n }, () => new Array<number>(n).fill(0))
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = matrix[i]![j]!
      for (let k = 0; k < j; k++) sum -= factor[i]![k]! * factor[j]![k]!
      if (i === j) {
        if (sum < -TOLERANCE) return { ok: false, row: i, pivot: sum }
        factor[i]![i] = sum > TOLERANCE ? Math.sqrt(sum) : 0
      } else if (factor[j]![j]! > 0) {
        factor[i]![j] = sum / factor[j]![j]!
      } else if (Math.abs(sum) > TOLERANCE) {
        return { ok: false, row: i, pivot: sum }
      }
    }
  }
  return { ok: true, factor }
}

/**
 * Everything wrong with a correlation block, each with the path of the offending value: both or
 * neither of `rho` and `matrix`, repeated assets, a matrix that is not n × n for n assets, an
 * entry outside [−1, 1], a diagonal entry other than 1, an asymmetric pair, or a matrix that is
 * not positive semi-definite. Empty when the block is usable. Whether the assets exist and have
 * a GBM-family model is the caller's to check (it needs the rest of the scenario).
 */
export function correlationProblems(spec: CorrelationSpec): CorrelationProblem[] {
  const problems: CorrelationProblem[] = []
  const n = spec.assets.length
  if (n < 2) problems.push({ path: ['assets'], message: `needs at least two assets to correlate, got ${n}` })
  const seen = new Set<string>()
  spec.assets.forEach((code, i) => {
    if (seen.has(code)) problems.push({ path: ['assets', i], message: `${code} is listed twice` })
    seen.add(code)
  })
  if ((spec.rho === undefined) === (spec.matrix === undefined)) {
    problems.push({ path: [], message: 'give exactly one of rho (every pair) or matrix (one row per asset)' })
    return problems
  }
  if (spec.rho !== undefined) {
    if (!Number.isFinite(spec.rho) || spec.rho < -1 || spec.rho > 1) problems.push({ path: ['rho'], message: `a correlation between -1 and 1, got ${spec.rho}` })
  } else {
    const matrix = spec.matrix!
    if (matrix.length !== n) problems.push({ path: ['matrix'], message: `${n} assets need ${n} rows, got ${matrix.length}` })
    matrix.forEach((row, i) => {
      if (row.length !== matrix.length) problems.push({ path: ['matrix', i], message: `row ${i} has ${row.length} entries; the matrix must be square (${matrix.length} × ${matrix.length})` })
    })
    if (problems.length > 0) return problems
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const v = matrix[i]![j]!
        const where = `entry [${i}][${j}] (${spec.assets[i]}, ${spec.assets[j]})`
        if (!Number.isFinite(v) || v < -1 || v > 1) problems.push({ path: ['matrix', i, j], message: `${where} is ${v}; correlations lie between -1 and 1` })
        else if (i === j && Math.abs(v - 1) > TOLERANCE) problems.push({ path: ['matrix', i, j], message: `${where} is ${v}; the diagonal must be 1 (an asset's correlation with itself)` })
        else if (j > i && Math.abs(v - matrix[j]![i]!) > TOLERANCE) {
          problems.push({ path: ['matrix', i, j], message: `the matrix must be symmetric: ${where} is ${v} but [${j}][${i}] is ${matrix[j]![i]}` })
        }
      }
    }
  }
  if (problems.length > 0) return problems
  const result = cholesky(correlationMatrix(spec))
  if (!result.ok) {
    const equal = spec.rho !== undefined ? `; with ${n} assets a common rho must be at least -1/${n - 1} = ${(-1 / (n - 1)).toFixed(4)}` : ''
    problems.push({
      path: spec.rho !== undefined ? ['rho'] : ['matrix'],
      message:
        `not positive semi-definite, so no assets can have these correlations: the Cholesky factorisation fails at row ${result.row} ` +
        `(${spec.assets[result.row]}), pivot ${result.pivot.toPrecision(4)}${equal}`,
    })
  }
  return problems
}

/**
 * The correlated shocks z = L·ε: `independent[j]` are asset j's own standard normal shocks (one
 * per step, all the same length), the result's [i] asset i's correlated ones. Throws a
 * {@link MarketModelError} for a spec {@link correlationProblems} refuses.
 */
export function correlateShocks(spec: CorrelationSpec, independent: readonly Float64Array[]): Float64Array[] {
  const problems = correlationProblems(spec)
  if (problems.length > 0) {
    throw new MarketModelError(`market.correlation: ${problems.map((p) => `${['', ...p.path].join('.').slice(1) || '(block)'}: ${p.message}`).join('; ')}`)
  }
  const n = spec.assets.length
  if (independent.length !== n) throw new MarketModelError(`market.correlation: ${n} assets but ${independent.length} shock series`)
  const steps = independent[0]!.length
  if (independent.some((e) => e.length !== steps)) throw new MarketModelError('market.correlation: shock series of different lengths')
  const { factor } = cholesky(correlationMatrix(spec)) as { ok: true; factor: number[][] }
  return factor.map((row, i) => {
    // Zero weights are skipped, so an identity row (no correlation) gives exactly ε_i.
    const out = new Float64Array(steps)
    for (let j = 0; j <= i; j++) {
      const weight = row[j]!
      if (weight === 0) continue
      const e = independent[j]!
      for (let t = 0; t < steps; t++) out[t] = out[t]! + weight * e[t]!
    }
    return out
  })
}
