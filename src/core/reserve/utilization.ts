import { SCALAR_7 } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'
import { toAssetFromBToken, toAssetFromDToken } from './conversions.js'
import type { ReserveData } from './types.js'

/**
 * A reserve's utilization, 7 decimals, as Blend v2 computes it: total liabilities
 * (`ceil(d_supply * d_rate)`) over total supply (`floor(b_supply * b_rate)`), rounded up, capped
 * at 100 %; 0 without liabilities.
 *
 * @example
 * import { utilization } from './index.js'
 * utilization({ d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, b_supply: 99_0000000n, d_supply: 65_0000000n })
 * // 7_864_353n
 */
export function utilization(data: Pick<ReserveData, 'd_rate' | 'b_rate' | 'b_supply' | 'd_supply'>): bigint {
  const liabilities = toAssetFromDToken(data, data.d_supply)
  const supply = toAssetFromBToken(data, data.b_supply)
  if (liabilities === 0n) return 0n
  if (liabilities >= supply) return SCALAR_7
  return mulDiv(liabilities, SCALAR_7, supply, 'ceil')
}
