import { freeAssets, usdcForShares } from '../../core/index.js'
import { describeError } from '../errors.js'
import { formatAmount, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const DEPOSITOR_BALANCES = { id: 6, name: 'vault balance = core usdcForShares for each depositor' } as const

/**
 * Invariant 6: what the vault tells each depositor its shares are worth (`vault.balance`) is what
 * the off-chain share math says: `usdcForShares(shares, free assets, total_shares)` from
 * src/core, floor toward the pool, 0 for no shares, with free assets = src/core
 * `freeAssets(total_usdc, locked)`. The keeper, the dashboard and withdrawals all rely on both
 * sides computing the same number.
 *
 * `locked` is the profit still locked when the vault simulated `balance`. Simulations run at the
 * node's clock, which the auditor cannot read, and locked profit falls every second while it
 * unlocks; so the balances are compared with the core's value over the locked amounts the vault
 * reported just before and just after them (`locked.before` .. `locked.after`, which invariant 11
 * checks against the core's `lockedProfit`): exact when nothing is unlocking, within the few
 * seconds of the read otherwise.
 */
export function checkDepositorBalances(s: Pick<AuditSnapshot, 'books' | 'depositors' | 'locked'>): InvariantResult {
  const { id, name } = DEPOSITOR_BALANCES
  const offenders: Offender[] = []
  let sumVault = 0n
  let sumCore = 0n
  const { totalUsdc, totalShares } = s.books
  // Larger locked, fewer free assets, a lower value: `before` gives the low end.
  const lockedHigh = s.locked.before > s.locked.after ? s.locked.before : s.locked.after
  const lockedLow = s.locked.before > s.locked.after ? s.locked.after : s.locked.before
  for (const d of s.depositors) {
    let low: bigint
    let high: bigint
    try {
      const value = (locked: bigint) => (d.shares === 0n ? 0n : usdcForShares({ shares: d.shares, totalUsdc: freeAssets(totalUsdc, locked), totalShares }))
      low = value(lockedHigh)
      high = value(lockedLow)
    } catch (err) {
      offenders.push(offender(d.account, d.shares, `the core cannot price ${formatAmount(d.shares)} shares: ${describeError(err)}`))
      continue
    }
    const core = low === high ? formatAmount(low) : `${formatAmount(low)} to ${formatAmount(high)} (profit unlocking during the read)`
    sumCore += low
    if (d.balance === undefined) {
      offenders.push(offender(d.account, low, `vault.balance failed (${d.balanceError ?? 'no answer'}); the core says ${core}`))
      continue
    }
    sumVault += d.balance
    if (d.balance < low || d.balance > high)
      offenders.push(offender(d.account, d.balance < low ? d.balance - low : d.balance - high, `vault says ${formatAmount(d.balance)}, the core says ${core}`))
  }
  const figures = {
    depositors: String(s.depositors.length),
    sumOfVaultBalances: formatAmount(sumVault),
    sumOfCoreValues: formatAmount(sumCore),
    lockedProfit: lockedLow === lockedHigh ? formatAmount(lockedLow) : `${formatAmount(lockedHigh)} -> ${formatAmount(lockedLow)}`,
    mismatches: String(offenders.length),
  }
  const holds = offenders.length === 0
  return result(id, name, {
    holds,
    figures,
    offenders,
    detail: holds
      ? `All ${s.depositors.length} depositor balances match the core's share math on free assets (together ${figures.sumOfCoreValues} USDC).`
      : `${offenders.length} of ${s.depositors.length} depositor balances differ from the core's share math on free assets.`,
  })
}
