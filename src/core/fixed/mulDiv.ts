import { assertI128 } from './assertI128.js'
import type { Rounding } from './constants.js'
import { divRound } from './divRound.js'

/**
 * `a * b / d` with the named rounding. The product is exact (BigInt is unbounded, like the 256-bit
 * fallback Blend's fixed-point helpers use when `a * b` overflows i128); operands and the result
 * must be i128, else {@link OverflowError}. `d = 0` throws {@link DivisionByZeroError}.
 *
 * @example
 * import { mulDiv } from './index.js'
 * mulDiv(10n, 3n, 4n, 'floor') // 7n
 * mulDiv(10n, 3n, 4n, 'ceil') // 8n
 */
export function mulDiv(a: bigint, b: bigint, d: bigint, rounding: Rounding): bigint {
  assertI128(a, 'mulDiv a')
  assertI128(b, 'mulDiv b')
  assertI128(d, 'mulDiv d')
  return assertI128(divRound(a * b, d, rounding), 'mulDiv result')
}
