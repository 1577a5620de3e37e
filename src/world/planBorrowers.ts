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
  /** Collateral value per borrower is drawn from [min, max] whole USD (default 5k-20k). */
  valueUsd?: { min: bigint; max: bigint }
}

export interface BorrowerPlan {
  /** Index into `collaterals`: borrowers alternate over the assets. */
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
  return Array.from({ length: p.count }, (_, i) => {
    const collateralIndex = i % p.collaterals.length
    const c = p.collaterals[collateralIndex]!
    const valueUsd = rng.between(value.min, value.max) * UNIT
    const collateral = (valueUsd * UNIT) / c.price
    const collateralBase = (((collateral * BigInt(c.cFactor)) / UNIT) * c.price) / UNIT
    const targetHealthFactor = rng.between(p.healthFactor.min, p.healthFactor.max)
    const borrowed = (collateralBase * BigInt(p.usdcLFactor)) / targetHealthFactor
    return { collateralIndex, collateral, borrowed, targetHealthFactor }
  })
}
