import { BaseError } from '../errors.js'
import { I128_MAX } from '../fixed/constants.js'
import { bookProfit } from '../vault/bookProfit.js'
import { keeperFee } from '../vault/keeperFee.js'
import { lockedProfit } from '../vault/lockedProfit.js'
import type { ProfitLock } from '../vault/profitLock.js'
import { BPS } from '../vault/slippageFloor.js'

type ErrorExpect = { error: string }
type LockFields = { locked_profit: string; lock_start: string; lock_end: string }
export type ProfitUnlockCase =
  | ({ name: string; op: 'locked_profit'; now: string; expect: { locked: string } | ErrorExpect } & LockFields)
  | ({ name: string; op: 'book_profit'; profit: string; now: string; period: string; expect: LockFields | ErrorExpect } & LockFields)
  | { name: string; op: 'keeper_fee'; gross_profit: string; fee_bps: string; expect: { fee: string } | ErrorExpect }

export type ProfitUnlockVectors = { bps: string; cases: ProfitUnlockCase[] }

/** A profit-unlock input without its expectation; the expectation is computed by the core. */
export type ProfitUnlockInput =
  | { name: string; op: 'locked_profit'; lock: ProfitLock; now: bigint }
  | { name: string; op: 'book_profit'; lock: ProfitLock; profit: bigint; now: bigint; period: bigint }
  | { name: string; op: 'keeper_fee'; grossProfit: bigint; feeBps: bigint }

const U = 10_000_000n // 1 USDC
const DAY = 86_400n
const T = 1_700_000_000n // a ledger timestamp
const EMPTY: ProfitLock = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }
const lock = (lockedProfit: bigint, lockStart: bigint, lockEnd: bigint): ProfitLock => ({ lockedProfit, lockStart, lockEnd })

/** The inputs of `vectors/profit-unlock.json`: the vault's locked(now), booking rule and keeper fee. */
export const PROFIT_UNLOCK_INPUTS: readonly ProfitUnlockInput[] = [
  // locked(now)
  { name: 'locked: empty lock of a new vault', op: 'locked_profit', lock: EMPTY, now: T },
  { name: 'locked: all of it at lock_start', op: 'locked_profit', lock: lock(100n * U, T, T + DAY), now: T },
  { name: 'locked: half after half the period', op: 'locked_profit', lock: lock(100n * U, T, T + DAY), now: T + DAY / 2n },
  { name: 'locked: one second before lock_end rounds up', op: 'locked_profit', lock: lock(100n * U, T, T + DAY), now: T + DAY - 1n },
  { name: 'locked: none at lock_end', op: 'locked_profit', lock: lock(100n * U, T, T + DAY), now: T + DAY },
  { name: 'locked: none after lock_end', op: 'locked_profit', lock: lock(100n * U, T, T + DAY), now: T + 30n * DAY },
  { name: 'locked: ceil(10 * 2 / 3) = 7', op: 'locked_profit', lock: lock(10n, 0n, 3n), now: 1n },
  { name: 'locked: ceil(10 * 1 / 3) = 4', op: 'locked_profit', lock: lock(10n, 0n, 3n), now: 2n },
  { name: 'locked: one unit over a long lock stays locked until the end', op: 'locked_profit', lock: lock(1n, T, T + 30n * DAY), now: T + 30n * DAY - 1n },
  { name: 'locked: zero locked_profit with a running window', op: 'locked_profit', lock: lock(0n, T, T + DAY), now: T + 1n },
  { name: 'locked: one-second lock at its start', op: 'locked_profit', lock: lock(7n, T, T + 1n), now: T },
  { name: 'locked: product exactly at the i128 edge', op: 'locked_profit', lock: lock(I128_MAX, 0n, 3n), now: 2n },
  { name: 'locked: product one second past the i128 edge overflows', op: 'locked_profit', lock: lock(I128_MAX, 0n, 3n), now: 1n },
  { name: 'locked: a finished lock of i128 max computes no product', op: 'locked_profit', lock: lock(I128_MAX, 0n, 3n), now: 3n },
  // booking
  { name: 'book: onto the empty lock takes the full period', op: 'book_profit', lock: EMPTY, profit: 50n * U, now: T, period: DAY },
  { name: 'book: onto a finished lock ignores it', op: 'book_profit', lock: lock(9n * U, T - DAY, T), profit: 5n * U, now: T + 10n, period: DAY },
  { name: 'book: onto a stale finished lock long after', op: 'book_profit', lock: lock(9n * U, 0n, 100n), profit: 1n, now: T, period: 30n * DAY },
  { name: 'book: equal amounts halfway through a lock', op: 'book_profit', lock: lock(100n, 0n, 100n), profit: 50n, now: 50n, period: 100n },
  { name: 'book: twice at the same timestamp', op: 'book_profit', lock: lock(40n * U, T, T + DAY), profit: 60n * U, now: T, period: DAY },
  { name: 'book: the weighted end rounds up', op: 'book_profit', lock: lock(10n, 0n, 10n), profit: 1n, now: 0n, period: 100n },
  { name: 'book: a shorter period than what is left', op: 'book_profit', lock: lock(100n * U, T, T + 30n * DAY), profit: 100n * U, now: T + DAY, period: DAY },
  { name: 'book: one unit onto a large lock barely moves its end', op: 'book_profit', lock: lock(1_000_000n * U, T, T + DAY), profit: 1n, now: T + DAY / 2n, period: DAY },
  { name: 'book: a large profit onto one unit locked takes almost the full period', op: 'book_profit', lock: lock(1n, T, T + DAY), profit: 1_000_000n * U, now: T + 1n, period: 7n * DAY },
  { name: 'book: one second before the lock ends', op: 'book_profit', lock: lock(3n * U, T, T + DAY), profit: 2n * U, now: T + DAY - 1n, period: DAY },
  { name: 'book: one-second period', op: 'book_profit', lock: EMPTY, profit: 1n, now: T, period: 1n },
  { name: 'book: large amounts within i128', op: 'book_profit', lock: lock(10n ** 30n, 0n, 30n * DAY), profit: 10n ** 30n, now: DAY, period: 30n * DAY },
  { name: 'book: profit * period beyond i128 overflows', op: 'book_profit', lock: EMPTY, profit: I128_MAX / 2n, now: T, period: DAY },
  { name: 'book: locked_profit + profit beyond i128 overflows', op: 'book_profit', lock: lock(I128_MAX, T, T + 1n), profit: 1n, now: T, period: DAY },
  // keeper fee
  { name: 'fee: 10% of 50 USDC', op: 'keeper_fee', grossProfit: 50n * U, feeBps: 1000n },
  { name: 'fee: half of 3 floors to 1', op: 'keeper_fee', grossProfit: 3n, feeBps: 5000n },
  { name: 'fee: 99.99% of one unit floors to 0', op: 'keeper_fee', grossProfit: 1n, feeBps: 9999n },
  { name: 'fee: zero bps', op: 'keeper_fee', grossProfit: 1234n * U, feeBps: 0n },
  { name: 'fee: the vault maximum 5000 bps', op: 'keeper_fee', grossProfit: 1234_5678901n, feeBps: 5000n },
  { name: 'fee: 30 bps of a small profit', op: 'keeper_fee', grossProfit: 3333n, feeBps: 30n },
  { name: 'fee: no gross profit', op: 'keeper_fee', grossProfit: 0n, feeBps: 1000n },
  { name: 'fee: a loss pays no fee', op: 'keeper_fee', grossProfit: -5n * U, feeBps: 1000n },
  { name: 'fee: product just within i128', op: 'keeper_fee', grossProfit: I128_MAX / 5000n, feeBps: 5000n },
  { name: 'fee: gross_profit * fee_bps beyond i128 overflows', op: 'keeper_fee', grossProfit: I128_MAX, feeBps: 5000n },
  { name: 'fee: i128 max at 0 bps', op: 'keeper_fee', grossProfit: I128_MAX, feeBps: 0n },
]

function expectOf(run: () => Record<string, string>): Record<string, string> {
  try {
    return run()
  } catch (e) {
    if (e instanceof BaseError) return { error: e.code }
    throw e
  }
}

const lockFields = (l: ProfitLock): LockFields => ({
  locked_profit: l.lockedProfit.toString(),
  lock_start: l.lockStart.toString(),
  lock_end: l.lockEnd.toString(),
})

/**
 * Builds the content of `vectors/profit-unlock.json` from {@link PROFIT_UNLOCK_INPUTS}: each
 * case's expectation is what the TypeScript core computes. The vault contract's tests read the
 * file and must agree case by case.
 */
export function buildProfitUnlockVectors(): ProfitUnlockVectors {
  const cases = PROFIT_UNLOCK_INPUTS.map((input): ProfitUnlockCase => {
    if (input.op === 'locked_profit') {
      const expect = expectOf(() => ({ locked: lockedProfit(input.lock, input.now).toString() }))
      return { name: input.name, op: 'locked_profit', ...lockFields(input.lock), now: input.now.toString(), expect: expect as { locked: string } | ErrorExpect }
    }
    if (input.op === 'book_profit') {
      const expect = expectOf(() => lockFields(bookProfit(input.lock, input.profit, input.now, input.period)))
      return {
        name: input.name,
        op: 'book_profit',
        ...lockFields(input.lock),
        profit: input.profit.toString(),
        now: input.now.toString(),
        period: input.period.toString(),
        expect: expect as LockFields | ErrorExpect,
      }
    }
    const expect = expectOf(() => ({ fee: keeperFee(input.grossProfit, input.feeBps).toString() }))
    return { name: input.name, op: 'keeper_fee', gross_profit: input.grossProfit.toString(), fee_bps: input.feeBps.toString(), expect: expect as { fee: string } | ErrorExpect }
  })
  return { bps: BPS.toString(), cases }
}

/** The exact text of `vectors/profit-unlock.json` (two-space JSON, trailing newline). */
export function renderProfitUnlockVectors(): string {
  return `${JSON.stringify(buildProfitUnlockVectors(), null, 2)}\n`
}
