import { usdcForShares } from '../../core/index.js'
import { describeError } from '../errors.js'
import { formatAmount, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const DEPOSITOR_BALANCES = { id: 6, name: 'vault balance = core usdcForShares for each depositor' } as const

/**
 * Invariant 6: what the vault tells each depositor its shares are worth (`vault.balance`) is what
 * the off-chain share math says (`usdcForShares(shares, total_usdc, total_shares)` from src/core,
 * floor toward the pool; 0 for no shares). The keeper, the dashboard and withdrawals all rely on
 * both sides computing the same number.
 */
export function checkDepositorBalances(s: Pick<AuditSnapshot, 'books' | 'depositors'>): InvariantResult {
  const { id, name } = DEPOSITOR_BALANCES
  const offenders: Offender[] = []
  let sumVault = 0n
  let sumCore = 0n
  for (const d of s.depositors) {
    let expected: bigint
    try {
      expected = d.shares === 0n ? 0n : usdcForShares({ shares: d.shares, totalUsdc: s.books.totalUsdc, totalShares: s.books.totalShares })
    } catch (err) {
      offenders.push(offender(d.account, d.shares, `the core cannot price ${formatAmount(d.shares)} shares: ${describeError(err)}`))
      continue
    }
    sumCore += expected
    if (d.balance === undefined) {
      offenders.push(offender(d.account, expected, `vault.balance failed (${d.balanceError ?? 'no answer'}); the core says ${formatAmount(expected)}`))
      continue
    }
    sumVault += d.balance
    if (d.balance !== expected)
      offenders.push(offender(d.account, d.balance - expected, `vault says ${formatAmount(d.balance)}, the core says ${formatAmount(expected)}`))
  }
  const figures = {
    depositors: String(s.depositors.length),
    sumOfVaultBalances: formatAmount(sumVault),
    sumOfCoreValues: formatAmount(sumCore),
    mismatches: String(offenders.length),
  }
  const holds = offenders.length === 0
  return result(id, name, {
    holds,
    figures,
    offenders,
    detail: holds
      ? `All ${s.depositors.length} depositor balances match the core's share math (together ${figures.sumOfCoreValues} USDC).`
      : `${offenders.length} of ${s.depositors.length} depositor balances differ from the core's share math.`,
  })
}
