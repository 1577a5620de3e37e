import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'
import { assertTimestamp } from './assertTimestamp.js'
import type { ProfitLock } from './profitLock.js'

/**
 * Profit still locked at `now`, the vault's `locked(now)`:
 *
 * - `0` when `now >= lockEnd` or `lockedProfit == 0`;
 * - else `ceil(lockedProfit * (lockEnd - now) / (lockEnd - lockStart))`.
 *
 * Rounding is `ceil`: what is still locked is rounded up, so free assets (and the share price
 * that depositors and redeemers trade at) never run ahead of the linear unlock by a unit.
 * The product `lockedProfit * (lockEnd - now)` is checked i128 arithmetic (`Overflow`), like the
 * share math and the contract; the result is at most `lockedProfit`.
 *
 * `lockedProfit` must be an i128 >= 0, the times u64 with `lockStart <= lockEnd`, and while the
 * lock is running `now >= lockStart` (reading a lock before it started is a caller error): else
 * `InvalidInput` (`Overflow` for an amount outside i128).
 *
 * @example
 * import { lockedProfit } from './index.js'
 * lockedProfit({ lockedProfit: 100_0000000n, lockStart: 1000n, lockEnd: 1000n + 86_400n }, 1000n + 43_200n) // 50_0000000n
 * lockedProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 3n }, 1n) // 7n (6.67 rounds up)
 * lockedProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 3n }, 3n) // 0n
 */
export function lockedProfit(lock: ProfitLock, now: bigint): bigint {
  const locked = assertI128(lock.lockedProfit, 'locked_profit')
  const start = assertTimestamp(lock.lockStart, 'lock_start')
  const end = assertTimestamp(lock.lockEnd, 'lock_end')
  assertTimestamp(now, 'now')
  if (locked < 0n) throw new InvalidInputError('locked_profit must be >= 0.', `locked_profit = ${locked}`)
  if (start > end) throw new InvalidInputError('lock_start must be <= lock_end.', `lock_start = ${start}, lock_end = ${end}`)
  if (now >= end || locked === 0n) return 0n
  if (now < start) throw new InvalidInputError('now is before the lock started.', `now = ${now}, lock_start = ${start}`)
  // ceil: what is locked rounds up, against anyone trading at the free-asset price.
  return divRound(checkedMul(locked, end - now, 'locked_profit * (lock_end - now)'), end - start, 'ceil')
}
