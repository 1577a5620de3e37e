import { sharePrice } from '../../core/index.js'
import { formatAmount, formatDelta, formatPrice, offender, result } from '../format.js'
import type { VaultBooks } from '../reads.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'
import { priceFell, replayBackward } from './replay.js'

export const PROFIT = { id: 5, name: 'total_profit = Σ booked returns; price falls only at write-offs' } as const

const price = (b: VaultBooks): bigint =>
  b.totalShares > 0n && b.totalUsdc >= 0n ? sharePrice({ totalUsdc: b.totalUsdc, totalShares: b.totalShares }) : 1_0000000n

/**
 * Invariant 5: the profit the vault reports is the profit its returns booked, and depositors only
 * ever lost value where the contract says they may.
 *
 * - `total_profit` = Σ `profit` of the vault's `return` events. The events are replayed backward
 *   from the current books (replay.ts); with the whole history in the window the books before the
 *   first event must be zero (every USDC, share, draw and profit explained by an event). With only
 *   part of it, what the window explains must not exceed the books (nothing negative before it).
 * - The share price (total_usdc / total_shares) never falls at a deposit, withdrawal or return
 *   (their rounding favours the pool); it may fall only at a `write_off`, the documented loss when
 *   a keeper is slashed. Every write-off is listed in the figures with its ledger and the price
 *   around it; a fall anywhere else names the event's account.
 */
export function checkProfit(s: Pick<AuditSnapshot, 'addresses' | 'books' | 'history'>): InvariantResult {
  const { id, name } = PROFIT
  const { events, complete, fromLedger } = s.history
  const replay = replayBackward(events, s.books)
  const returns = events.filter((e) => e.kind === 'return')
  const booked = returns.reduce((a, e) => a + e.profit, 0n)
  const offenders: Offender[] = []
  const init = replay.initial
  const fields = [
    ['total_profit', init.totalProfit],
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
  for (const step of replay.steps) {
    const e = step.event
    if (e.kind === 'write_off') {
      n++
      writeOffs[`writeOff${n}`] =
        `ledger ${e.ledger}: keeper ${e.account} written down ${formatAmount(e.writtenDown)}, recovered ${formatAmount(e.recovered)}, price ${formatPrice(price(step.before))} -> ${formatPrice(price(step.after))}`
      continue
    }
    if (e.kind !== 'registry' && priceFell(step.before, step.after))
      offenders.push(
        offender(
          e.account,
          price(step.after) - price(step.before),
          `share price fell ${formatPrice(price(step.before))} -> ${formatPrice(price(step.after))} at a ${e.kind} (ledger ${e.ledger}), not a write-off`,
        ),
      )
  }

  const figures: Record<string, string> = {
    totalProfit: formatAmount(s.books.totalProfit),
    profitInReturnEvents: formatAmount(booked),
    returns: String(returns.length),
    difference: formatDelta(s.books.totalProfit - booked),
    events: String(events.length),
    fromLedger: String(fromLedger),
    toLedger: String(s.history.toLedger),
    historyComplete: String(complete),
    sharePrice: formatPrice(price(s.books)),
    writeOffs: String(n),
    ...writeOffs,
  }
  const holds = offenders.length === 0
  const earlier = !complete && s.books.totalProfit !== booked
  let detail: string
  if (!holds)
    detail = `total_profit ${figures.totalProfit}, returns in the events ${figures.profitInReturnEvents}; ${offenders.length} finding(s) the events do not explain.`
  else if (earlier)
    detail = `${returns.length} returns from ledger ${fromLedger} booked ${figures.profitInReturnEvents} of total_profit ${figures.totalProfit}; the rest is older than the RPC's event window (unverified).`
  else if (complete)
    detail = `total_profit ${figures.totalProfit} = the profit of ${returns.length} return(s); the share price fell only at ${n} write-off(s).`
  else
    detail = `total_profit ${figures.totalProfit} = the profit of ${returns.length} return(s) from ledger ${fromLedger}; the vault's history before it is outside the RPC's event window (unverified).`
  // A partial history cannot prove the invariant: a warning, not a pass without remarks.
  return result(id, name, { holds, warning: holds && !complete, detail, figures, offenders })
}
