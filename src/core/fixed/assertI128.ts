import { OverflowError } from '../errors.js'
import { I128_MAX, I128_MIN } from './constants.js'

/**
 * Returns `value` unchanged when it fits a signed 128-bit integer, else throws
 * {@link OverflowError}. Every amount the chain stores is an i128, so anything outside cannot
 * be submitted and must not be computed with silently.
 *
 * @example
 * import { assertI128, I128_MAX } from './index.js'
 * assertI128(5n, 'amount') // 5n
 * assertI128(I128_MAX + 1n, 'amount') // throws OverflowError
 */
export function assertI128(value: bigint, what = 'value'): bigint {
  if (value > I128_MAX || value < I128_MIN) throw new OverflowError(what, value)
  return value
}
