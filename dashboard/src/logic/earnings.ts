/**
 * A depositor's earnings and return. Earnings so far = what the shares would pay now (core
 * `usdcForShares` on the current free assets) − what was put in net (deposits − withdrawals). The return
 * is the share price's change over the current holding, by the core's `apyDisplay` rule (annualised
 * over ≥ 7 days, otherwise cumulative), the same rule as the Vault view's.
 */
import { apyDisplay, usdcForShares, type ApyDisplayReturnType, type SharePricePoint } from '../../../src/core/index.js'
import type { VaultState } from '../../../src/chain/records/index.js'
import { formatAmount } from './amounts.js'
import { formatDuration, formatLedgerDateTime } from './time.js'

/**
 * Differences smaller than this (10 stroops, 0.000001 USDC) are the share math rounding down in the
 * vault's favour on each deposit and withdrawal, not a gain or a loss.
 */
export const ROUNDING_STROOPS = 10n

/**
 * What the shares would pay now: `usdcForShares`, 0 for no shares. Pass the free assets as
 * `totalUsdc` (logic/profitLock.ts `freeBooks`): the vault pays withdrawals on them.
 */
export function valueOfShares(shares: bigint, state: Pick<VaultState, 'totalUsdc' | 'totalShares'>): bigint {
  if (shares <= 0n) return 0n
  return usdcForShares({ shares, totalUsdc: state.totalUsdc, totalShares: state.totalShares })
}

export interface EarningsFigure {
  /** value − net deposits (7-decimal USDC). */
  amount: bigint
  /** |amount| < ROUNDING_STROOPS: rounding, shown as 0. */
  rounding: boolean
  /** "+2.5000000 USDC", "−1.0000000 USDC", or "0 USDC (rounding)". */
  text: string
}

/**
 * Earnings in words: a sign on gains and losses, and a difference within rounding as 0.
 *
 * @example
 * earningsFigure(2_499_999_999n, 2_500_000_000n).text // '0 USDC (rounding)'
 * earningsFigure(2_600_000_000n, 2_500_000_000n).text // '+10.0000000 USDC'
 */
export function earningsFigure(value: bigint, netDeposited: bigint): EarningsFigure {
  const amount = value - netDeposited
  const abs = amount < 0n ? -amount : amount
  if (abs < ROUNDING_STROOPS) return { amount, rounding: true, text: '0 USDC (rounding)' }
  return { amount, rounding: false, text: `${amount > 0n ? '+' : '−'}${formatAmount(abs)} USDC` }
}

/** A share-price observation with the ledger it was made at. */
export type LedgerPricePoint = SharePricePoint & { ledger: number }

export interface AccountReturn {
  apy: ApyDisplayReturnType
  /** What period the figure covers, in words. */
  period: string
}


/**
 * The account's return: `apyDisplay` over the vault's share-price history from `start` (the
 * deposit that began the current holding) on; with no `start` (the node no longer keeps it), over
 * the whole history the node keeps, and the period says so.
 */
export function accountReturn(history: readonly LedgerPricePoint[], start: { ledger: number; closeTime: number } | undefined): AccountReturn {
  const points = start === undefined ? history : history.filter((p) => p.ledger >= start.ledger)
  const apy = apyDisplay(points)
  const over = apy.spanSeconds > 0 ? `Over ${formatDuration(apy.spanSeconds)} since` : 'Since'
  const rule = 'the share price’s change, as APY once the period reaches 7 days, cumulative before'
  if (start === undefined) {
    const first = points[0]
    return {
      apy,
      period: first === undefined ? 'No share-price history yet.' : `${over} ${formatLedgerDateTime(first.timestamp, first.ledger)}, the oldest history this node keeps: ${rule}.`,
    }
  }
  return { apy, period: `${over} your deposit of ${formatLedgerDateTime(start.closeTime, start.ledger)}: ${rule}.` }
}
