import { BaseError, InvalidAmountError, InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'
import { assertTimestamp } from './assertTimestamp.js'
import { lockedProfit } from './lockedProfit.js'
import { U64_MAX, type ProfitLock } from './profitLock.js'

/**
 * The lock after booking `profit` P > 0 at `now` with the vault's `profit_unlock_secs` as
 * `period`, the vault's booking rule:
 *
 * - `L = lockedProfit(lock, now)`, `R = max(lockEnd - now, 0)`;
 * - `lockedProfit = L + P`, `lockStart = now`,
 *   `lockEnd = now + ceil((L * R + P * period) / (L + P))`.
 *
 * What is still locked keeps its remaining time and the new profit gets the full period: the new
 * lock runs for their amount-weighted average, so nothing booked unlocks at the moment of booking
 * (`lockedProfit(result, now) == L + P`). Rounding is `ceil`: the lock ends no earlier than the
 * average, against anyone trading at the free-asset price. The vault adds P to `total_usdc` and
 * `total_profit` itself; this returns only the lock.
 *
 * `L * R`, `P * period`, their sum and `L + P` are checked i128 arithmetic (`Overflow`), like the
 * share math and the contract; a `lockEnd` beyond u64 is `Overflow` too. `profit <= 0` is
 * `InvalidAmount` (the vault books nothing then); `period` must be a u64 > 0 and the lock valid
 * for {@link lockedProfit} (`InvalidInput`).
 *
 * @example
 * import { bookProfit } from './index.js'
 * bookProfit({ lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }, 50_0000000n, 1000n, 86_400n)
 * // { lockedProfit: 50_0000000n, lockStart: 1000n, lockEnd: 87_400n }
 * bookProfit({ lockedProfit: 100n, lockStart: 0n, lockEnd: 100n }, 50n, 50n, 100n)
 * // L = 50, R = 50: { lockedProfit: 100n, lockStart: 50n, lockEnd: 125n }
 */
export function bookProfit(lock: ProfitLock, profit: bigint, now: bigint, period: bigint): ProfitLock {
  const p = assertI128(profit, 'profit')
  assertTimestamp(now, 'now')
  assertTimestamp(period, 'period')
  if (p <= 0n) throw new InvalidAmountError('profit', p)
  if (period === 0n) throw new InvalidInputError('period must be > 0.', 'period = 0')
  const l = lockedProfit(lock, now)
  const r = lock.lockEnd > now ? lock.lockEnd - now : 0n
  const total = assertI128(l + p, 'locked_profit + profit')
  const weighted = assertI128(checkedMul(l, r, 'L * R') + checkedMul(p, period, 'P * period'), 'L * R + P * period')
  // ceil: the weighted average end rounds later, never earlier.
  const end = now + divRound(weighted, total, 'ceil')
  if (end > U64_MAX) throw new BaseError('Overflow', 'lock_end is outside the u64 range.', { details: `lock_end = ${end}` })
  return { lockedProfit: total, lockStart: now, lockEnd: end }
}
