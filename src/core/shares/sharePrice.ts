import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'
import { SHARE_PRICE_SCALAR } from './constants.js'

export type SharePriceParameters = {
  totalUsdc: bigint
  totalShares: bigint
}

/**
 * USDC per share with 7 decimals, for display: `10_000_000` (1.0) for an empty vault, else
 * `floor(totalUsdc * 10_000_000 / totalShares)`.
 *
 * Rounding is `floor` so a displayed price never promises more than a redemption pays.
 * The product is checked i128 arithmetic (`Overflow`).
 *
 * @example
 * import { sharePrice } from './index.js'
 * sharePrice({ totalUsdc: 0n, totalShares: 0n }) // 10_000_000n
 * sharePrice({ totalUsdc: 1_100n, totalShares: 1_000n }) // 11_000_000n
 */
export function sharePrice(parameters: SharePriceParameters): bigint {
  const totalUsdc = assertI128(parameters.totalUsdc, 'total_usdc')
  const totalShares = assertI128(parameters.totalShares, 'total_shares')
  if (totalUsdc < 0n || totalShares < 0n)
    throw new InvalidInputError('Vault totals must be >= 0.', `total_usdc = ${totalUsdc}, total_shares = ${totalShares}`)
  if (totalShares === 0n) return SHARE_PRICE_SCALAR
  return divRound(checkedMul(totalUsdc, SHARE_PRICE_SCALAR, 'total_usdc * 10^7'), totalShares, 'floor')
}
