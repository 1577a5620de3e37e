import { assertI128 } from '../fixed/assertI128.js'
import { SCALAR_7, SCALAR_12 } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'
import type { ReserveConfig, ReserveData } from './types.js'

// Token conversions of a Blend v2 reserve. Directions follow the pool: what a user owes rounds
// up, what a user owns rounds down, so the pool never counts itself short.

/**
 * Underlying owned for `bTokens`: `floor(bTokens * b_rate / 1e12)`.
 *
 * @example
 * import { toAssetFromBToken } from './index.js'
 * toAssetFromBToken({ b_rate: 1_321_834_961_000n }, 1_1234567n) // 1_4850243n
 */
export function toAssetFromBToken(data: Pick<ReserveData, 'b_rate'>, bTokens: bigint): bigint {
  return mulDiv(assertI128(bTokens, 'bTokens'), data.b_rate, SCALAR_12, 'floor')
}

/**
 * Underlying owed for `dTokens`: `ceil(dTokens * d_rate / 1e12)`.
 *
 * @example
 * import { toAssetFromDToken } from './index.js'
 * toAssetFromDToken({ d_rate: 1_321_834_961_000n }, 1_1234567n) // 1_4850244n
 */
export function toAssetFromDToken(data: Pick<ReserveData, 'd_rate'>, dTokens: bigint): bigint {
  return mulDiv(assertI128(dTokens, 'dTokens'), data.d_rate, SCALAR_12, 'ceil')
}

/**
 * Collateral counted for `bTokens`: `floor(floor(bTokens * b_rate / 1e12) * c_factor / 1e7)`.
 *
 * @example
 * import { toEffectiveAssetFromBToken } from './index.js'
 * toEffectiveAssetFromBToken({ c_factor: 8_500_000 }, { b_rate: 1_321_834_961_000n }, 1_1234567n) // 1_2622706n
 */
export function toEffectiveAssetFromBToken(config: Pick<ReserveConfig, 'c_factor'>, data: Pick<ReserveData, 'b_rate'>, bTokens: bigint): bigint {
  return mulDiv(toAssetFromBToken(data, bTokens), BigInt(config.c_factor), SCALAR_7, 'floor')
}

/**
 * Liability counted for `dTokens`: `ceil(ceil(dTokens * d_rate / 1e12) * 1e7 / l_factor)`.
 *
 * @example
 * import { toEffectiveAssetFromDToken } from './index.js'
 * toEffectiveAssetFromDToken({ l_factor: 1_1000000 }, { d_rate: 1_321_834_961_000n }, 1_1234567n) // 1_3500222n
 */
export function toEffectiveAssetFromDToken(config: Pick<ReserveConfig, 'l_factor'>, data: Pick<ReserveData, 'd_rate'>, dTokens: bigint): bigint {
  return mulDiv(toAssetFromDToken(data, dTokens), SCALAR_7, BigInt(config.l_factor), 'ceil')
}
