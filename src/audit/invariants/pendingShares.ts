import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const PENDING_SHARES = { id: 12, name: "pending_shares = Σ depositors' withdraw_request" } as const

/**
 * Invariant 12: the vault's `pending_shares`, which holds back idle USDC from new draws
 * (WithdrawalPending) so that requested withdrawals can be paid, is the sum of the depositors'
 * `withdraw_request`, and no request exceeds the shares its depositor holds.
 *
 * With the whole history each depositor's request is also replayed from its events:
 * `request_withdraw` (event `wreq`) sets it, a withdrawal lowers it by the shares withdrawn and
 * to at most the shares still held; a record that differs names the depositor. With part of it,
 * depositors whose events are older are invisible: a sum short of pending_shares is a warning
 * (list them in the `depositors` option), a sum above it still breaks.
 */
export function checkPendingShares(s: Pick<AuditSnapshot, 'addresses' | 'books' | 'depositors' | 'history'>): InvariantResult {
  const { id, name } = PENDING_SHARES
  const offenders: Offender[] = []
  let sum = 0n
  let requesting = 0
  for (const d of s.depositors) {
    sum += d.withdrawRequest
    if (d.withdrawRequest !== 0n) requesting++
    if (d.withdrawRequest < 0n || d.withdrawRequest > d.shares)
      offenders.push(
        offender(d.account, d.withdrawRequest - d.shares, `withdraw_request ${formatAmount(d.withdrawRequest)} shares, holds ${formatAmount(d.shares)}`),
      )
  }

  let eventMismatches = 0
  if (s.history.complete) {
    const held = new Map<string, bigint>()
    const request = new Map<string, bigint>()
    for (const e of s.history.events) {
      if (e.kind === 'deposit') held.set(e.account, (held.get(e.account) ?? 0n) + e.shares)
      else if (e.kind === 'wreq') request.set(e.account, e.shares)
      else if (e.kind === 'withdraw') {
        const h = (held.get(e.account) ?? 0n) - e.shares
        held.set(e.account, h)
        const r = (request.get(e.account) ?? 0n) - e.shares
        request.set(e.account, r < 0n ? 0n : r > h ? h : r)
      }
    }
    for (const d of s.depositors) {
      const expected = request.get(d.account) ?? 0n
      if (d.withdrawRequest !== expected) {
        eventMismatches++
        offenders.push(
          offender(d.account, d.withdrawRequest - expected, `withdraw_request ${formatAmount(d.withdrawRequest)} shares, its events leave ${formatAmount(expected)}`),
        )
      }
    }
  }

  const pending = s.books.pendingShares
  const diff = sum - pending
  const unverifiable = diff < 0n && !s.history.complete
  if (diff !== 0n && !unverifiable)
    offenders.push(
      offender(s.addresses.vault, diff, diff > 0n ? 'depositors requested more shares than pending_shares counts' : 'pending_shares that no depositor requested'),
    )
  const figures = {
    depositors: String(s.depositors.length),
    depositorsRequesting: String(requesting),
    sumOfRequests: formatAmount(sum),
    pendingShares: formatAmount(pending),
    difference: formatDelta(diff),
    historyComplete: String(s.history.complete),
  }
  const holds = offenders.length === 0
  let detail: string
  if (holds && diff === 0n) detail = `${requesting} depositor(s) asked to withdraw ${figures.sumOfRequests} shares, exactly pending_shares.`
  else if (holds)
    detail = `The ${s.depositors.length} depositors found in the events from ledger ${s.history.fromLedger} requested ${formatAmount(-diff)} shares fewer than pending_shares; older depositors are outside the RPC's event window (unverified, list them in the depositors option).`
  else
    detail = `Withdrawal requests ${figures.sumOfRequests} vs pending_shares ${figures.pendingShares} (difference ${figures.difference})${eventMismatches > 0 ? `; ${eventMismatches} request(s) disagree with their events` : ''}.`
  return result(id, name, { holds, warning: holds && diff !== 0n, detail, figures, offenders })
}
