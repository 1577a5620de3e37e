import { DEAD_SHARES } from '../../core/index.js'
import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const SHARES = { id: 2, name: 'Σ depositor shares + dead shares = total_shares' } as const

/**
 * Invariant 2: every share is held by someone. The depositors named by the vault's deposit and
 * withdraw events (each read with `get_depositor`) plus the dead shares the vault holds itself
 * (`DEAD_SHARES`, minted once with the first deposit) add up to `total_shares`. A share nobody
 * holds dilutes everyone's price; a share held beyond the total is a claim on USDC that is not there.
 *
 * When the events cover the vault's whole history, each depositor's record is also compared with
 * its own events (shares deposited minus shares withdrawn), which names the account that differs.
 * When they do not (the RPC's retention window starts after the vault was set up), depositors
 * whose events are older are invisible: a sum short of the total is then reported as a warning
 * (unverifiable, pass their addresses in `depositors`), while a sum above it is still a break.
 */
export function checkShares(s: Pick<AuditSnapshot, 'addresses' | 'books' | 'deadShares' | 'depositors' | 'history'>): InvariantResult {
  const { id, name } = SHARES
  const sum = s.depositors.reduce((a, d) => a + d.shares, 0n)
  const total = s.books.totalShares
  const diff = sum + s.deadShares - total
  const expectedDead = total > 0n ? DEAD_SHARES : 0n
  const offenders: Offender[] = []
  if (s.deadShares !== expectedDead)
    offenders.push(offender(s.addresses.vault, s.deadShares - expectedDead, `dead shares ${formatAmount(s.deadShares)}, expected ${formatAmount(expectedDead)}`))

  // Per-depositor check against the events (whole history only).
  let eventMismatches = 0
  if (s.history.complete) {
    const fromEvents = new Map<string, bigint>()
    for (const e of s.history.events) {
      if (e.kind === 'deposit') fromEvents.set(e.account, (fromEvents.get(e.account) ?? 0n) + e.shares)
      if (e.kind === 'withdraw') fromEvents.set(e.account, (fromEvents.get(e.account) ?? 0n) - e.shares)
    }
    for (const d of s.depositors) {
      const expected = fromEvents.get(d.account) ?? 0n
      if (d.shares !== expected) {
        eventMismatches++
        offenders.push(offender(d.account, d.shares - expected, `holds ${formatAmount(d.shares)} shares, its events add up to ${formatAmount(expected)}`))
      }
    }
  }

  const figures = {
    depositors: String(s.depositors.length),
    depositorShares: formatAmount(sum),
    deadShares: formatAmount(s.deadShares),
    totalShares: formatAmount(total),
    difference: formatDelta(diff),
    historyComplete: String(s.history.complete),
  }
  const unverifiable = diff < 0n && !s.history.complete
  if (diff !== 0n && !unverifiable)
    offenders.push(offender(s.addresses.vault, diff, diff > 0n ? 'more shares held than total_shares' : 'shares in total_shares that no depositor holds'))
  const holds = offenders.length === 0
  let detail: string
  if (holds && diff === 0n)
    detail = `${s.depositors.length} depositors hold ${figures.depositorShares} shares; with ${figures.deadShares} dead shares that is total_shares.`
  else if (holds)
    detail = `${s.depositors.length} depositors found in the events from ledger ${s.history.fromLedger} hold ${formatAmount(-diff)} shares fewer than total_shares less the dead shares; older depositors are outside the RPC's event window (unverified, list them in the depositors option).`
  else
    detail = `Depositor shares ${figures.depositorShares} + dead shares ${figures.deadShares} vs total_shares ${figures.totalShares} (difference ${figures.difference})${eventMismatches > 0 ? `; ${eventMismatches} depositor record(s) disagree with their events` : ''}.`
  return result(id, name, { holds, warning: holds && diff !== 0n, detail, figures, offenders })
}
