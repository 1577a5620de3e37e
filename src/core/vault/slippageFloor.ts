import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { mulDiv } from '../fixed/mulDiv.js'

/** Basis points in 100 %. */
export const BPS = 10_000n

/**
 * The least a swap may return: `ceil(refValue * (10000 - slippageBps) / 10000)`.
 *
 * Rounded up, toward the pool: the accepted loss never exceeds `slippageBps` of the reference
 * value, not even by a rounding unit. `refValue` must be >= 0 and `slippageBps` an integer in
 * 0..10000 (`InvalidInput` otherwise).
 *
 * @example
 * import { slippageFloor } from './index.js'
 * slippageFloor(100_0000000n, 50) // 99_5000000n (0.5 %)
 * slippageFloor(999n, 50) // 995n (994.005 rounds up)
 */
export function slippageFloor(refValue: bigint, slippageBps: number | bigint): bigint {
  assertI128(refValue, 'refValue')
  if (refValue < 0n) throw new InvalidInputError('refValue must be >= 0.', `refValue = ${refValue}`)
  if (typeof slippageBps === 'number' && !Number.isInteger(slippageBps))
    throw new InvalidInputError('slippageBps must be an integer.', `slippageBps = ${slippageBps}`)
  const bps = BigInt(slippageBps)
  if (bps < 0n || bps > BPS) throw new InvalidInputError('slippageBps must be in 0..10000.', `slippageBps = ${bps}`)
  return mulDiv(refValue, BPS - bps, BPS, 'ceil')
}
