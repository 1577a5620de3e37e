import { sharePrice } from '../../core/index.js'
import { formatAmount, formatDelta, formatPrice, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'
import { freeTotals, priceFell, profitLocks, replayBackward } from './replay.js'

export const PROFIT = { id: 5, name: 'the events explain the books; the share price falls only at write-offs' } as const

/** core `sharePrice` of free assets and shares; an empty vault at 1. */
const price = (f: { totalUsdc: bigint; totalShares: bigint }): bigint =>
  f.totalShares > 0n && f.totalUsdc >= 0n ? sharePrice(f) : 1_0000000n

const priceText = (f: { totalUsdc: bigint; totalShares: bigint } | undefined): string => (f === undefined ? 'unknown' : formatPrice(price(f)))

/**
 * Invariant 5: the vault's books are what its events did to them, and depositors only ever lost
 * value where the contract says they may.
 *
 * - The events are replayed backward from the current books (replay.ts); with the whole history
 *   in the window, `total_usdc`, `total_shares` and `active_liq` before the first event must be
 *   zero (every USDC, share and draw explained by an event). With only part of it, what the
 *   window explains must not exceed the books (nothing negative before it). (`total_profit` is
 *   invariant 11's.)
 * - The share price, on free assets (`total_usdc` less the profit still locked at the event's
 *   ledger time, src/core `lockedProfit` / `freeAssets`, the basis the vault prices shares on),
 *   never falls at a deposit, withdrawal, return or flash draw (their rounding favours the pool,
 *   and booked profit is locked, so a booking leaves it where it was); it may fall only at a
 *   `write_off`, the documented loss when a keeper is slashed for more than its bond recovers.
 *   Every write-off is listed in the figures with its ledger and the price around it; a fall
 *   anywhere else names the event's account. The lock at each event is rebuilt from the
 *   bookings (replay.ts `profitLocks`); where a partial window cannot tell it (before its last
 *   booking), the event is counted as unchecked.
 */
export function checkProfit(s: Pick<AuditSnapshot, 'addresses' | 'books' | 'history' | 'vaultSettings' | 'closeTime'>): InvariantResult {
  const { id, name } = PROFIT
  const { events, complete, fromLedger } = s.history
  const replay = replayBackward(events, s.books)
  const locks = profitLocks(events, s.books, { fromEmpty: complete, unlockSecs: BigInt(s.vaultSettings.profitUnlockSecs) })
  const offenders: Offender[] = []
  const init = replay.initial
  const fields = [
    ['total_usdc', init.totalUsdc],
    ['total_shares', init.totalShares],
    ['active_liq', init.activeLiq],
  ] as const
  for (const [field, v] of fields) {
    if (complete ? v !== 0n : v < 0n)
      offenders.push(
        offender(
          s.addresses.vault,
          v,
          complete
            ? `${field} not explained by the vault's events (${formatDelta(v)} before its first event)`
            : `the events from ledger ${fromLedger} account for ${formatAmount(-v)} more ${field} than the books hold`,
        ),
      )
  }

  const writeOffs: Record<string, string> = {}
  let n = 0
  let unchecked = 0
  replay.steps.forEach((step, i) => {
    const e = step.event
    if (e.kind === 'registry' || e.kind === 'wreq' || e.kind === 'draw') return // no price moves
    const lock = locks.steps[i]!
    const before = freeTotals(step.before, lock.before, e.time)
    const after = freeTotals(step.after, lock.after, e.time)
    if (e.kind === 'write_off') {
      n++
      writeOffs[`writeOff${n}`] =
        `ledger ${e.ledger}: keeper ${e.account} written down ${formatAmount(e.writtenDown)}, recovered ${formatAmount(e.recovered)}, price ${priceText(before)} -> ${priceText(after)}`
      return
    }
    if (before === undefined || after === undefined) {
      unchecked++
      return
    }
    if (priceFell(before, after))
      offenders.push(
        offender(
          e.account,
          price(after) - price(before),
          `share price fell ${formatPrice(price(before))} -> ${formatPrice(price(after))} at a ${e.kind} (ledger ${e.ledger}), not a write-off`,
        ),
      )
  })

  const now = freeTotals(s.books, s.books, s.closeTime)
  const figures: Record<string, string> = {
    events: String(events.length),
    fromLedger: String(fromLedger),
    toLedger: String(s.history.toLedger),
    historyComplete: String(complete),
    sharePrice: priceText(now),
    pricesUnchecked: String(unchecked),
    writeOffs: String(n),
    ...writeOffs,
  }
  if (locks.problem !== undefined) figures.lockNotRebuilt = locks.problem
  const holds = offenders.length === 0
  let detail: string
  if (!holds) detail = `${offenders.length} finding(s) the vault's events do not explain.`
  else if (complete && unchecked === 0)
    detail = `The ${events.length} events explain the books from empty; the share price (on free assets) fell only at ${n} write-off(s).`
  else if (complete)
    detail = `The ${events.length} events explain the books from empty; the share price fell only at ${n} write-off(s), but ${unchecked} event(s) could not be priced (${locks.problem ?? 'lock unknown'}).`
  else
    detail = `The events from ledger ${fromLedger} fit the books; the vault's history before it is outside the RPC's event window (unverified${unchecked > 0 ? `, ${unchecked} event(s) before the window's last booking not priced` : ''}).`
  // A partial history, or events the lock cannot be rebuilt for, cannot prove it: a warning.
  return result(id, name, { holds, warning: holds && (!complete || unchecked > 0), detail, figures, offenders })
}
