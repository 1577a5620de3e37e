/**
 * The vault's books before and after each event, replayed backward from the books read now, and
 * the profit lock each event ran under.
 *
 * Going backward needs no starting point, so it works on any window of history: the books after
 * the last event are the current ones, and undoing an event gives the books before it (the
 * inverse of contracts/vault's deposit, withdraw, draw, return, flash and write_off arithmetic).
 * When the window holds the whole history, the books before its first event must be all zero.
 *
 * The profit lock cannot be undone (a booking merges the old lock into the new one), so it is
 * rebuilt forward instead (`profitLocks`): from the new vault's empty lock when the window holds
 * the whole history, each booking through src/core's `bookProfit`; with part of it only the
 * events after the window's last booking are known to run under the current lock.
 */
import { bookProfit, freeAssets, lockedProfit, type ProfitLock } from '../../core/index.js'
import { describeError } from '../errors.js'
import type { VaultEvent } from '../events.js'
import type { VaultBooks } from '../reads.js'

/** The four totals the events move (the part of `VaultState` the replay undoes). */
export type Totals = Pick<VaultBooks, 'totalUsdc' | 'totalShares' | 'totalProfit' | 'activeLiq'>

/** One event with the totals around it. */
export interface BookStep {
  event: VaultEvent
  before: Totals
  after: Totals
}

export interface Replay {
  /** The totals before the first event of the window. */
  initial: Totals
  /** In chain order. */
  steps: BookStep[]
}

const totals = (b: Totals): Totals => ({ totalUsdc: b.totalUsdc, totalShares: b.totalShares, totalProfit: b.totalProfit, activeLiq: b.activeLiq })

/**
 * The profit an event books (into `total_profit` and the lock): a return's or a flash draw's
 * `profit` (the gross profit less the keeper's fee), and a write-off's gain, what the slash
 * recovered beyond the draw it wrote down. 0 for every other event.
 */
export function bookedProfit(e: VaultEvent): bigint {
  switch (e.kind) {
    case 'return':
    case 'flash':
      return e.profit
    case 'write_off':
      return e.recovered > e.writtenDown ? e.recovered - e.writtenDown : 0n
    default:
      return 0n
  }
}

/** The totals before `e`, given the totals after it. */
export function undo(e: VaultEvent, after: Totals): Totals {
  const b = totals(after)
  switch (e.kind) {
    case 'deposit':
      b.totalUsdc -= e.amount
      b.totalShares -= e.shares + e.deadShares
      break
    case 'withdraw':
      b.totalUsdc += e.amount
      b.totalShares += e.shares
      break
    case 'draw':
      b.activeLiq -= e.amount
      break
    case 'return':
      // amount = principal repaid + gross profit; the fee left again, the profit stayed.
      b.totalUsdc -= e.profit
      b.totalProfit -= e.profit
      b.activeLiq += e.amount - e.profit - e.fee
      break
    case 'flash':
      b.totalUsdc -= e.profit
      b.totalProfit -= e.profit
      break
    case 'write_off': {
      // total_usdc = total_usdc - written_down + recovered; a gain is also booked profit.
      b.activeLiq += e.writtenDown
      b.totalUsdc += e.writtenDown - e.recovered
      b.totalProfit -= bookedProfit(e)
      break
    }
    case 'registry':
    case 'wreq':
      break
  }
  return b
}

/** Replays `events` (chain order) backward from `current`. */
export function replayBackward(events: readonly VaultEvent[], current: Totals): Replay {
  const steps: BookStep[] = []
  let after = totals(current)
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    const before = undo(event, after)
    steps.push({ event, before, after })
    after = before
  }
  steps.reverse()
  return { initial: after, steps }
}

/** The lock around one event; undefined where the window cannot tell. */
export interface LockStep {
  before: ProfitLock | undefined
  after: ProfitLock | undefined
}

export interface ProfitLocks {
  /** One per event, in chain order. */
  steps: LockStep[]
  /** The lock the events rebuild (the whole history only): the vault's lock fields must equal it. */
  rebuilt: ProfitLock | undefined
  /** Why the lock could not be rebuilt with the whole history (a booking without a time, a core refusal). */
  problem: string | undefined
}

export const EMPTY_LOCK: ProfitLock = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }

const lockOf = (b: ProfitLock): ProfitLock => ({ lockedProfit: b.lockedProfit, lockStart: b.lockStart, lockEnd: b.lockEnd })

/**
 * The profit lock around each event. With the whole history (`fromEmpty`) it is rebuilt forward
 * from the empty lock: each booking (`bookedProfit` > 0) goes through src/core's `bookProfit` at
 * its ledger's close time with the vault's `profit_unlock_secs`. Otherwise the lock is known
 * only after the window's last booking (the current one, `current`), unknown before it.
 */
export function profitLocks(events: readonly VaultEvent[], current: ProfitLock, opts: { fromEmpty: boolean; unlockSecs: bigint }): ProfitLocks {
  const steps: LockStep[] = events.map(() => ({ before: undefined, after: undefined }))
  if (opts.fromEmpty) {
    let lock: ProfitLock | undefined = EMPTY_LOCK
    let problem: string | undefined
    events.forEach((e, i) => {
      const before = lock
      const p = bookedProfit(e)
      if (lock !== undefined && p > 0n) {
        if (e.time === undefined) {
          problem = `the ${e.kind} of ledger ${e.ledger} booked profit but the node gave no close time for it`
          lock = undefined
        } else {
          try {
            lock = bookProfit(lock, p, e.time, opts.unlockSecs)
          } catch (err) {
            problem = `the core cannot book the ${e.kind} of ledger ${e.ledger}: ${describeError(err)}`
            lock = undefined
          }
        }
      }
      steps[i] = { before, after: lock }
    })
    return { steps, rebuilt: lock, problem }
  }
  const now = lockOf(current)
  for (let i = events.length - 1; i >= 0; i--) {
    if (bookedProfit(events[i]!) > 0n) {
      steps[i] = { before: undefined, after: now }
      break
    }
    steps[i] = { before: now, after: now }
  }
  return { steps, rebuilt: undefined, problem: undefined }
}

/**
 * The free assets and shares that price a share at `time` under `lock` (src/core `lockedProfit`
 * and `freeAssets`), as `{ totalUsdc, totalShares }` for `sharePrice` / `priceFell`; undefined
 * when the lock or the time is unknown or the totals cannot be priced (negative, before a
 * window's start).
 */
export function freeTotals(
  b: Pick<Totals, 'totalUsdc' | 'totalShares'>,
  lock: ProfitLock | undefined,
  time: bigint | undefined,
): { totalUsdc: bigint; totalShares: bigint } | undefined {
  if (lock === undefined || time === undefined || b.totalUsdc < 0n || b.totalShares < 0n) return undefined
  try {
    return { totalUsdc: freeAssets(b.totalUsdc, lockedProfit(lock, time)), totalShares: b.totalShares }
  } catch {
    return undefined
  }
}

/**
 * Whether the share price went down from `before` to `after`, compared exactly
 * (U1 / S1 < U0 / S0 as U1 * S0 < U0 * S1); an empty vault prices a share at 1. Pass the free
 * assets as `totalUsdc` (`freeTotals`): the vault prices shares on them.
 */
export function priceFell(before: Pick<Totals, 'totalUsdc' | 'totalShares'>, after: Pick<Totals, 'totalUsdc' | 'totalShares'>): boolean {
  const [u0, s0] = before.totalShares > 0n ? [before.totalUsdc, before.totalShares] : [1n, 1n]
  const [u1, s1] = after.totalShares > 0n ? [after.totalUsdc, after.totalShares] : [1n, 1n]
  return u1 * s0 < u0 * s1
}
