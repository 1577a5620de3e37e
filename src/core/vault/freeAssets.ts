import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'

/**
 * The vault's free assets: `totalUsdc - locked`, floored at 0, with `locked` from
 * {@link lockedProfit}. Deposits, withdrawals, balances and the share price use this figure
 * where they used `total_usdc`: pass it as `totalUsdc` to `sharesForDeposit`, `usdcForShares`
 * and `sharePrice`.
 *
 * Floored at 0: a loss that lands while profit is still locked can leave `total_usdc` below the
 * locked amount; nothing is free then (deposits are `PoolInsolvent`, redemptions pay 0) until
 * enough unlocks, rather than a negative figure the share math cannot price.
 * Both must be i128 (`Overflow`) and >= 0 (`InvalidInput`).
 *
 * @example
 * import { freeAssets } from './index.js'
 * freeAssets(1100_0000000n, 60_0000000n) // 1040_0000000n
 * freeAssets(5n, 10n) // 0n
 */
export function freeAssets(totalUsdc: bigint, locked: bigint): bigint {
  assertI128(totalUsdc, 'total_usdc')
  assertI128(locked, 'locked')
  if (totalUsdc < 0n || locked < 0n)
    throw new InvalidInputError('total_usdc and locked must be >= 0.', `total_usdc = ${totalUsdc}, locked = ${locked}`)
  return totalUsdc > locked ? totalUsdc - locked : 0n
}
