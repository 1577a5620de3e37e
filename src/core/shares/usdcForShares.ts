import { InvalidAmountError, InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'

export type UsdcForSharesParameters = {
  /** Shares redeemed. */
  shares: bigint
  /** Vault USDC before the redemption. */
  totalUsdc: bigint
  /** Shares outstanding before the redemption (dead shares included). */
  totalShares: bigint
}

/**
 * USDC paid for redeeming `shares`: `floor(shares * totalUsdc / totalShares)`, the same algorithm
 * as the vault contract.
 *
 * Rounding is `floor`: the redeemer gets at most the pro-rata value, the remainder stays with the
 * remaining holders. `shares <= 0` -> `InvalidAmount`; `shares > totalShares` (which includes an
 * empty vault) -> `InvalidAmount`; the product is checked i128 arithmetic (`Overflow`).
 *
 * @example
 * import { usdcForShares } from './index.js'
 * usdcForShares({ shares: 66n, totalUsdc: 400n, totalShares: 266n }) // 99n
 */
export function usdcForShares(parameters: UsdcForSharesParameters): bigint {
  const shares = assertI128(parameters.shares, 'shares')
  const totalUsdc = assertI128(parameters.totalUsdc, 'total_usdc')
  const totalShares = assertI128(parameters.totalShares, 'total_shares')
  if (totalUsdc < 0n || totalShares < 0n)
    throw new InvalidInputError('Vault totals must be >= 0.', `total_usdc = ${totalUsdc}, total_shares = ${totalShares}`)
  if (shares <= 0n) throw new InvalidAmountError('shares', shares)
  if (shares > totalShares) throw new InvalidAmountError(`shares (at most total_shares ${totalShares})`, shares)
  // floor: toward the pool, against the redeemer.
  return divRound(checkedMul(shares, totalUsdc, 'shares * total_usdc'), totalShares, 'floor')
}
