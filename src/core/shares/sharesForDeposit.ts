import { InvalidAmountError, InvalidInputError, PoolInsolventError, ZeroSharesError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'
import { DEAD_SHARES } from './constants.js'

export type SharesForDepositParameters = {
  /** USDC deposited (7 decimals). */
  amount: bigint
  /** Vault USDC before the deposit. */
  totalUsdc: bigint
  /** Shares outstanding before the deposit (dead shares included). */
  totalShares: bigint
}

export type SharesForDepositReturnType = {
  /** Shares the depositor receives. */
  shares: bigint
  /** Shares locked at the vault's own address: {@link DEAD_SHARES} on the first deposit, else 0. */
  deadShares: bigint
}

/**
 * Shares minted for a deposit, the same algorithm as the vault contract:
 *
 * - `amount <= 0` -> `InvalidAmount`.
 * - first deposit (`totalShares == 0`): `amount` shares are minted 1:1; the depositor gets
 *   `amount - DEAD_SHARES`, the vault keeps `DEAD_SHARES`; `amount <= DEAD_SHARES` -> `ZeroShares`.
 * - `totalUsdc == 0` with shares outstanding -> `PoolInsolvent`.
 * - else `shares = floor(amount * totalShares / totalUsdc)`; `0` -> `ZeroShares`.
 *
 * Rounding is `floor`: the depositor gets at most what the USDC is worth, never more, so the
 * remainder stays with the pool. The product is checked i128 arithmetic (`Overflow`).
 * Negative totals are not a vault state: `InvalidInput`.
 *
 * @example
 * import { sharesForDeposit } from './index.js'
 * sharesForDeposit({ amount: 10_000_000_000n, totalUsdc: 0n, totalShares: 0n })
 * // { shares: 9_999_999_000n, deadShares: 1000n }
 * sharesForDeposit({ amount: 100n, totalUsdc: 300n, totalShares: 200n })
 * // { shares: 66n, deadShares: 0n }
 */
export function sharesForDeposit(parameters: SharesForDepositParameters): SharesForDepositReturnType {
  const amount = assertI128(parameters.amount, 'amount')
  const totalUsdc = assertI128(parameters.totalUsdc, 'total_usdc')
  const totalShares = assertI128(parameters.totalShares, 'total_shares')
  if (totalUsdc < 0n || totalShares < 0n)
    throw new InvalidInputError('Vault totals must be >= 0.', `total_usdc = ${totalUsdc}, total_shares = ${totalShares}`)
  if (amount <= 0n) throw new InvalidAmountError('amount', amount)

  if (totalShares === 0n) {
    if (amount <= DEAD_SHARES)
      throw new ZeroSharesError(`first deposit ${amount} <= DEAD_SHARES ${DEAD_SHARES}`)
    return { shares: amount - DEAD_SHARES, deadShares: DEAD_SHARES }
  }
  if (totalUsdc === 0n) throw new PoolInsolventError(totalShares)

  // floor: toward the pool, against the depositor.
  const shares = divRound(checkedMul(amount, totalShares, 'amount * total_shares'), totalUsdc, 'floor')
  if (shares === 0n)
    throw new ZeroSharesError(`floor(${amount} * ${totalShares} / ${totalUsdc}) = 0`)
  return { shares, deadShares: 0n }
}
