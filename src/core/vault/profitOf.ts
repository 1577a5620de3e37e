import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'

/**
 * Profit booked when a keeper returns `proceeds` against a draw of `drew`:
 * `max(0, proceeds - drew)`. A loss books no profit (it shows up as less USDC in the vault).
 * Both amounts must be i128 and >= 0 (`Overflow` / `InvalidInput`).
 *
 * @example
 * import { profitOf } from './index.js'
 * profitOf(1050_0000000n, 1000_0000000n) // 50_0000000n
 * profitOf(990_0000000n, 1000_0000000n) // 0n
 */
export function profitOf(proceeds: bigint, drew: bigint): bigint {
  assertI128(proceeds, 'proceeds')
  assertI128(drew, 'drew')
  if (proceeds < 0n || drew < 0n) throw new InvalidInputError('proceeds and drew must be >= 0.', `proceeds = ${proceeds}, drew = ${drew}`)
  return proceeds > drew ? proceeds - drew : 0n
}
