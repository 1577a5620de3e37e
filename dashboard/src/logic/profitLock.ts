/**
 * The vault's newer money rules as the dashboard shows them: free assets (total_usdc less the
 * profit still locked, which deposits, withdrawals, balances and the share price are priced on),
 * the locked profit and when it is all unlocked, and the keeper's fee. The formulas are src/core's
 * (`lockedProfit`, `freeAssets`, through src/audit's `freeTotals`, the auditor's own pricing);
 * this only picks the ledger clock and words.
 */
import { formatPercent, lockedProfit } from '../../../src/core/index.js'
import { freeTotals } from '../../../src/audit/invariants/replay.js'
import type { VaultState } from '../../../src/chain/records/index.js'
import { formatAmount } from './amounts.js'
import { formatDuration, formatLedgerDateTime } from './time.js'

/** What a share is priced on: `{ totalUsdc: free assets, totalShares }`, for src/core's share math. */
export type FreeBooks = { totalUsdc: bigint; totalShares: bigint }

/**
 * Free assets at the ledger close time `closeTime` (unix s): src/core `freeAssets(total_usdc,
 * lockedProfit(lock, closeTime))`; undefined when the clock is not read yet (0) or the lock cannot
 * be read at that time.
 */
export function freeBooks(state: VaultState, closeTime: number | undefined): FreeBooks | undefined {
  if (closeTime === undefined || !Number.isFinite(closeTime) || closeTime <= 0) return undefined
  return freeTotals(state, state, BigInt(Math.floor(closeTime)))
}

/** The profit still locked at `closeTime` (src/core `lockedProfit`), undefined when unknown. */
export function lockedAt(state: VaultState, closeTime: number | undefined): bigint | undefined {
  if (closeTime === undefined || !Number.isFinite(closeTime) || closeTime <= 0) return undefined
  try {
    return lockedProfit(state, BigInt(Math.floor(closeTime)))
  } catch {
    return undefined
  }
}

/** The locked profit in words: the amount, and when the last of it unlocks. */
export interface LockedProfitText {
  amount: string
  until: string
}

export function lockedProfitText(state: VaultState | undefined, closeTime: number | undefined, unlockSecs?: number): LockedProfitText {
  const locked = state === undefined ? undefined : lockedAt(state, closeTime)
  if (state === undefined || locked === undefined) return { amount: '—', until: '—' }
  const period = unlockSecs === undefined || unlockSecs <= 0 ? '' : ` (booked profit unlocks over ${formatDuration(unlockSecs)})`
  if (locked === 0n) return { amount: '0.0000000 USDC', until: `nothing locked${period}` }
  const end = Number(state.lockEnd)
  const left = closeTime === undefined ? 0 : end - closeTime
  return { amount: `${formatAmount(locked)} USDC`, until: `fully unlocked ${formatLedgerDateTime(end)}, in ${formatDuration(left)}${period}` }
}

/** The keeper's share of each fill's gross profit: "10.00% (1000 bps)". */
export function keeperFeeText(bps: number | undefined): string {
  return bps === undefined ? '—' : `${formatPercent(bps / 10_000)} (${bps} bps)`
}
