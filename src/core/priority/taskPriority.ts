import { InvalidInputError } from '../errors.js'
import { SCALAR_7 } from '../fixed/constants.js'

/**
 * Work priority of a borrower from its health factor (fixed point, `scalar` = 1.0):
 * HF < 0.5 -> 10, < 0.8 -> 7, < 0.95 -> 4, else (or no liabilities: `null`) -> 1.
 * Compared exactly in integers (`hf * 100 < 50 * scalar`, ...), no rounding.
 *
 * @example
 * import { taskPriority } from './index.js'
 * taskPriority(4_999_999n) // 10
 * taskPriority(9_500_000n) // 1
 * taskPriority(null) // 1
 */
export function taskPriority(healthFactor: bigint | null, scalar: bigint = SCALAR_7): 10 | 7 | 4 | 1 {
  if (scalar <= 0n) throw new InvalidInputError('scalar must be > 0.', `scalar = ${scalar}`)
  if (healthFactor === null) return 1
  const hf100 = healthFactor * 100n
  if (hf100 < 50n * scalar) return 10
  if (hf100 < 80n * scalar) return 7
  if (hf100 < 95n * scalar) return 4
  return 1
}
