import { DivisionByZeroError } from '../errors.js'
import type { Rounding } from './constants.js'

/**
 * Integer division with a named rounding: `floor` rounds toward -infinity, `ceil` toward
 * +infinity (mathematical, for any signs). BigInt `/` truncates toward zero, so it is corrected
 * when the remainder is non-zero.
 *
 * @example
 * import { divRound } from './index.js'
 * divRound(7n, 2n, 'floor') // 3n
 * divRound(7n, 2n, 'ceil') // 4n
 * divRound(-7n, 2n, 'floor') // -4n
 */
export function divRound(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new DivisionByZeroError(`${numerator} / 0`)
  const q = numerator / denominator
  const r = numerator % denominator
  if (r === 0n) return q
  const negative = r < 0n !== denominator < 0n
  if (rounding === 'floor') return negative ? q - 1n : q
  return negative ? q : q + 1n
}
