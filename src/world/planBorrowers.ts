import { SeededRandom } from './seed.js'

const UNIT = 10_000_000n

export interface PlanBorrowersParameters {
  seed: bigint
  count: number
  /** Per collateral asset: oracle price and Blend collateral factor (7 decimals). */
  collaterals: ReadonlyArray<{ price: bigint; cFactor: number }>
  /** Liability factor of the borrowed USDC reserve (7 decimals); USDC is priced at 1.0. */
  usdcLFactor: number
  /** Health factors are drawn from [min, max] (7 decimals). */
  healthFactor: { min: bigint; max: bigint }
  /** Share of borrowers per collateral (default equal: borrowers alternate over the assets). */
  weights?: readonly number[]
  /** Collateral value per borrower is drawn from [min, max] whole USD (default 5k-20k). */
  valueUsd?: { min: bigint; max: bigint }
}

export interface BorrowerPlan {
  /** Index into `collaterals` (smooth weighted round robin over `weights`). */
  collateralIndex: number
  /** Collateral to supply, asset units (7 decimals). */
  collateral: bigint
  /** USDC to borrow (7 decimals). */
  borrowed: bigint
  targetHealthFactor: bigint
}

/**
 * Sizes borrowers so that each opens at a seeded health factor, Blend's way:
 * `collateral_base = floor(floor(collateral * c_factor / 1e7) * price / 1e7)` and, with USDC at
 * 1.0, `liability_base = ceil(borrowed * 1e7 / l_factor)`, so
 * `borrowed = floor(collateral_base * l_factor / hf)`. The pool's own rounding (liabilities up,
 * the quotient down) can put the opened health factor one unit (1e-7) under the target.
 */
export function planBorrowers(p: PlanBorrowersParameters): BorrowerPlan[] {
  if (p.collaterals.length === 0) throw new RangeError('no collateral assets')
  const value = p.valueUsd ?? { min: 5_000n, max: 20_000n }
  const rng = new SeededRandom(p.seed)
  const weights = p.weights ?? p.collaterals.map(() => 1)
  if (weights.length !== p.collaterals.length || weights.some((w) => !(w >= 0)) || !weights.some((w) => w > 0)) {
    throw new RangeError('weights: one non-negative weight per collateral, at least one positive')
  }
  const assigned = p.collaterals.map(() => 0)
  // Each borrower goes to the asset furthest behind its share (ties: the lower index), so equal
  // weights alternate and any prefix of the list keeps the mix.
  const next = () => {
    let best = -1
    for (let j = 0; j < weights.length; j++) {
      if (weights[j]! === 0) continue
      if (best < 0 || (assigned[j]! + 1) / weights[j]! < (assigned[best]! + 1) / weights[best]!) best = j
    }
    assigned[best]!++
    return best
  }
  return Array.from({ length: p.count }, () => {
    const collateralIndex = next()
    const c = p.collaterals[collateralIndex]!
    const valueUsd = rng.between(value.min, value.max) * UNIT
    const collateral = (valueUsd * UNIT) / c.price
    const collateralBase = (((collateral * BigInt(c.cFactor)) / UNIT) * c.price) / UNIT
    const targetHealthFactor = rng.between(p.healthFactor.min, p.healthFactor.max)
    const borrowed = (collateralBase * BigInt(p.usdcLFactor)) / targetHealthFactor
    return { collateralIndex, collateral, borrowed, targetHealthFactor }
  })
}
