import { keeperFee, lockedProfit, type ProfitLock } from '../../core/index.js'
import { describeError } from '../errors.js'
import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'
import { bookedProfit, profitLocks } from './replay.js'

export const LOCKED_PROFIT = { id: 11, name: 'total_profit = Σ booked profit; locked profit in [0, total_profit]' } as const

const lockText = (l: ProfitLock): string => `${formatAmount(l.lockedProfit)} from ${l.lockStart} to ${l.lockEnd}`

/**
 * Whether the vault's reported locked amount is the core's `lockedProfit(lock, t)` for some time
 * t since the lock started. A simulation runs at the node's clock, which no RPC call reports (and
 * a ledger may close between it and the getLatestLedger read beside it), so the time itself is
 * not compared, only that the amount lies on the lock's schedule. `lockedProfit` only falls as t
 * grows, reaching 0 at `lockEnd`, so the earliest t at which it is at most `value` is found by
 * bisection.
 */
function lockedAtSomeTime(lock: ProfitLock, from: bigint, value: bigint): boolean {
  const at = (t: bigint) => lockedProfit(lock, t)
  if (at(from) === value) return true
  if (value > at(from) || value < 0n) return false
  let lo = from // at(lo) > value
  let hi = lock.lockEnd > from ? lock.lockEnd : from // at(hi) = 0 <= value
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (at(mid) > value) lo = mid
    else hi = mid
  }
  return at(hi) === value
}

/**
 * Invariant 11: the profit the vault reports is the profit its events booked, and the part of it
 * still locked is what those bookings locked.
 *
 * - `total_profit` = Σ booked profit: the `profit` of every `return` and `flash` event (the gross
 *   profit less the keeper's fee) plus every write-off's gain (recovered − written_down, when
 *   positive). With the whole history exactly; with part of it the books may hold more (older
 *   bookings, a warning), never less.
 * - Each fill's fee is src/core `keeperFee(profit + fee, keeper_fee_bps)`: the keeper got its
 *   share of the gross profit and the depositors the rest.
 * - Locked profit lies in [0, total_profit] (the unlocked part, total_profit − locked, is never
 *   negative): src/core `lockedProfit` of the state's lock fields at the ledger's close time, and
 *   the vault's own `get_locked_profit`, which must also be the core's figure at some moment of
 *   the lock (the node's simulation time is not known to the second).
 * - With the whole history, the state's lock fields (`locked_profit`, `lock_start`, `lock_end`)
 *   are what src/core `bookProfit` makes of the bookings from the empty lock, each at its
 *   ledger's close time with the vault's `profit_unlock_secs`.
 */
export function checkLockedProfit(
  s: Pick<AuditSnapshot, 'addresses' | 'books' | 'history' | 'vaultSettings' | 'closeTime' | 'locked'>,
): InvariantResult {
  const { id, name } = LOCKED_PROFIT
  const { events, complete, fromLedger } = s.history
  const vault = s.addresses.vault
  const offenders: Offender[] = []
  const warnings: string[] = []
  let byReturns = 0n
  let byFlash = 0n
  let gains = 0n
  let fees = 0n
  const bps = s.vaultSettings.keeperFeeBps
  for (const e of events) {
    if (e.kind === 'write_off') gains += bookedProfit(e)
    if (e.kind !== 'return' && e.kind !== 'flash') continue
    if (e.kind === 'return') byReturns += e.profit
    else byFlash += e.profit
    fees += e.fee
    let expected: bigint
    try {
      expected = keeperFee(e.profit + e.fee, bps)
    } catch (err) {
      offenders.push(offender(e.account, e.fee, `the core cannot price the fee of the ${e.kind} at ledger ${e.ledger}: ${describeError(err)}`))
      continue
    }
    if (e.fee !== expected)
      offenders.push(
        offender(
          e.account,
          e.fee - expected,
          `the ${e.kind} at ledger ${e.ledger} paid the keeper ${formatAmount(e.fee)} of a gross profit of ${formatAmount(e.profit + e.fee)}; keeper_fee_bps ${bps} makes it ${formatAmount(expected)}`,
        ),
      )
  }
  const booked = byReturns + byFlash + gains
  const total = s.books.totalProfit
  const diff = total - booked
  if (complete ? diff !== 0n : diff < 0n)
    offenders.push(
      offender(
        vault,
        diff,
        complete
          ? `total_profit ${formatAmount(total)}, the vault's events booked ${formatAmount(booked)}`
          : `the events from ledger ${fromLedger} booked ${formatAmount(booked)}, more than total_profit ${formatAmount(total)}`,
      ),
    )
  else if (diff > 0n) warnings.push(`${formatAmount(diff)} of total_profit was booked before ledger ${fromLedger} (outside the RPC's event window, unverified)`)

  // Locked now, by the core from the state's lock fields, and as the vault reports it.
  let lockedAtClose: bigint | undefined
  try {
    lockedAtClose = lockedProfit(s.books, s.closeTime)
  } catch (err) {
    offenders.push(offender(vault, s.books.lockedProfit, `the lock fields (${lockText(s.books)}) are not a lock the core can read at ${s.closeTime}: ${describeError(err)}`))
  }
  const bounds: [string, bigint | undefined][] = [
    ['the core lockedProfit at the ledger close time', lockedAtClose],
    ['vault.get_locked_profit (first read)', s.locked.before],
    ['vault.get_locked_profit (last read)', s.locked.after],
  ]
  for (const [what, v] of bounds) {
    if (v === undefined) continue
    if (v < 0n) offenders.push(offender(vault, v, `${what} is negative`))
    else if (v > total) offenders.push(offender(vault, v - total, `${what} ${formatAmount(v)} exceeds total_profit ${formatAmount(total)}: the unlocked profit would be negative`))
  }
  if (lockedAtClose !== undefined)
    for (const [what, v] of [
      ['first', s.locked.before],
      ['last', s.locked.after],
    ] as const) {
      let agrees: boolean
      try {
        agrees = lockedAtSomeTime(s.books, s.books.lockStart, v)
      } catch {
        agrees = false
      }
      if (!agrees)
        offenders.push(
          offender(
            vault,
            v - lockedAtClose,
            `vault.get_locked_profit (${what} read) is ${formatAmount(v)}, but no time since the lock started gives that: the core's lockedProfit of the lock (${lockText(s.books)}) is ${formatAmount(lockedAtClose)} at the ledger close time ${s.closeTime}`,
          ),
        )
    }

  // The lock the bookings make, from the empty lock (whole history only).
  let rebuiltText = 'n/a (part of the history)'
  if (complete) {
    const locks = profitLocks(events, s.books, { fromEmpty: true, unlockSecs: BigInt(s.vaultSettings.profitUnlockSecs) })
    const r = locks.rebuilt
    if (r === undefined) {
      rebuiltText = `not rebuilt: ${locks.problem ?? 'unknown'}`
      warnings.push(`the lock could not be rebuilt from the events: ${locks.problem ?? 'unknown'}`)
    } else {
      rebuiltText = lockText(r)
      if (r.lockedProfit !== s.books.lockedProfit || r.lockStart !== s.books.lockStart || r.lockEnd !== s.books.lockEnd)
        offenders.push(
          offender(
            vault,
            s.books.lockedProfit - r.lockedProfit,
            `the lock fields are ${lockText(s.books)}; the bookings, from the empty lock with profit_unlock_secs ${s.vaultSettings.profitUnlockSecs}, make ${lockText(r)}`,
          ),
        )
    }
  }

  const figures: Record<string, string> = {
    totalProfit: formatAmount(total),
    bookedByReturns: formatAmount(byReturns),
    bookedByFlashDraws: formatAmount(byFlash),
    writeOffGains: formatAmount(gains),
    bookedInEvents: formatAmount(booked),
    difference: formatDelta(diff),
    keeperFeeBps: String(bps),
    keeperFeesPaid: formatAmount(fees),
    profitUnlockSecs: String(s.vaultSettings.profitUnlockSecs),
    lockedProfitField: formatAmount(s.books.lockedProfit),
    lockStart: s.books.lockStart.toString(),
    lockEnd: s.books.lockEnd.toString(),
    lockedAtCloseTime: lockedAtClose === undefined ? 'unreadable' : formatAmount(lockedAtClose),
    unlockedProfit: lockedAtClose === undefined ? 'unreadable' : formatAmount(total - lockedAtClose),
    vaultLockedProfit: s.locked.before === s.locked.after ? formatAmount(s.locked.before) : `${formatAmount(s.locked.before)} -> ${formatAmount(s.locked.after)}`,
    lockFromEvents: rebuiltText,
    historyComplete: String(complete),
  }
  const holds = offenders.length === 0
  let detail: string
  if (!holds) detail = `${offenders.length} finding(s): total_profit ${figures.totalProfit}, booked in the events ${figures.bookedInEvents}, locked ${figures.lockedAtCloseTime}.`
  else if (warnings.length > 0) detail = `total_profit ${figures.totalProfit}, locked ${figures.lockedAtCloseTime}; ${warnings.join('; ')}.`
  else
    detail = `total_profit ${figures.totalProfit} = the profit the events booked; ${figures.lockedAtCloseTime} of it is still locked (fully unlocked at ${figures.lockEnd}), as the bookings locked it.`
  return result(id, name, { holds, warning: holds && warnings.length > 0, detail, figures, offenders })
}
