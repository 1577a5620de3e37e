/**
 * A small, consistent `AuditSnapshot` built by hand (for the pure invariant tests): two
 * depositors, one keeper that drew and returned with profit and then filled with a flash draw
 * (the keeper's fee out of each, the rest booked and locked), one partial withdrawal while that
 * profit unlocked, one withdrawal request. Every invariant holds on it; tests change one field to
 * break one. The figures that follow a rule come from src/core (bookProfit, lockedProfit,
 * freeAssets, keeperFee, usdcForShares), as the vault computes them.
 */
import { bookProfit, freeAssets, keeperFee, lockedProfit, usdcForShares, type ProfitLock } from '../../src/core/index.js'
import type { VaultEvent } from '../../src/audit/events.js'
import type { KeeperRecord } from '../../src/audit/reads.js'
import type { AuditSnapshot } from '../../src/audit/snapshot.js'

export const U = 10_000_000n
export const VAULT = 'CVAULT'
export const REGISTRY = 'CREGISTRY'
export const USDC = 'CUSDC'
export const A = 'GDEPOSITORA'
export const B = 'GDEPOSITORB'
export const K = 'GKEEPER'

export const FEE_BPS = 1000
export const UNLOCK_SECS = 3600n
/** Ledger n closed at T0 + 10 n seconds. */
export const T0 = 90_000n
export const timeOf = (ledger: number): bigint => T0 + 10n * BigInt(ledger)
/** The ledger the snapshot is read at, and its close time (the flash draw's profit still unlocking). */
export const LEDGER = 20
export const CLOSE_TIME = timeOf(LEDGER) + 800n

/** The return's gross profit (10 USDC) and the flash draw's (20 USDC), split into fee and profit. */
export const RETURN_FEE = keeperFee(10n * U, FEE_BPS)
export const RETURN_PROFIT = 10n * U - RETURN_FEE
export const FLASH_FEE = keeperFee(20n * U, FEE_BPS)
export const FLASH_PROFIT = 20n * U - FLASH_FEE

const EMPTY: ProfitLock = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }
/** The lock after the return (ledger 14) and after the flash draw (ledger 16). */
export const LOCK_AFTER_RETURN = bookProfit(EMPTY, RETURN_PROFIT, timeOf(14), UNLOCK_SECS)
export const LOCK = bookProfit(LOCK_AFTER_RETURN, FLASH_PROFIT, timeOf(16), UNLOCK_SECS)

/** 100 shares of B redeemed at ledger 15: 1500 USDC + the return's profit less what is still locked, over 1500 shares. */
export const WITHDRAWN = usdcForShares({
  shares: 100n * U,
  totalUsdc: freeAssets(1500n * U + RETURN_PROFIT, lockedProfit(LOCK_AFTER_RETURN, timeOf(15))),
  totalShares: 1500n * U,
})
/** Shares A asked to withdraw. */
export const REQUEST = 200n * U

export function fixtureEvents(): VaultEvent[] {
  const at = (id: string, ledger: number) => ({ id, ledger, time: timeOf(ledger) })
  return [
    { ...at('1', 10), kind: 'registry', registry: REGISTRY },
    { ...at('2', 11), kind: 'deposit', account: A, amount: 1000n * U, shares: 1000n * U - 1000n, deadShares: 1000n },
    { ...at('3', 12), kind: 'deposit', account: B, amount: 500n * U, shares: 500n * U, deadShares: 0n },
    { ...at('4', 13), kind: 'draw', account: K, amount: 100n * U },
    { ...at('5', 14), kind: 'return', account: K, amount: 110n * U, profit: RETURN_PROFIT, remaining: 0n, fee: RETURN_FEE },
    { ...at('6', 15), kind: 'withdraw', account: B, shares: 100n * U, amount: WITHDRAWN },
    { ...at('7', 16), kind: 'flash', account: K, amount: 200n * U, profit: FLASH_PROFIT, fee: FLASH_FEE },
    { ...at('8', 17), kind: 'wreq', account: A, shares: REQUEST },
  ]
}

export function fixtureKeeper(): KeeperRecord {
  return {
    operator: K,
    name: 'k',
    stake: 1000n * U,
    hasActiveDraw: false,
    drawAmount: 0n,
    drawTimestamp: 0n,
    slashed: false,
    totalSlashed: 0n,
    approved: true,
    // floor(1000 × (10000 − 1000) / 10000)
    drawLimit: 900n * U,
  }
}

/**
 * `s` with what follows from its books recomputed through src/core: the locked profit the vault
 * reports at the close time and every depositor's balance on free assets (for tests that move
 * the books or the clock).
 */
export function repriced(s: AuditSnapshot): AuditSnapshot {
  const locked = lockedProfit(s.books, s.closeTime)
  const free = freeAssets(s.books.totalUsdc, locked)
  s.locked = { before: locked, after: locked }
  for (const d of s.depositors) d.balance = d.shares === 0n ? 0n : usdcForShares({ shares: d.shares, totalUsdc: free, totalShares: s.books.totalShares })
  return s
}

export function fixtureSnapshot(): AuditSnapshot {
  const totalUsdc = 1500n * U + RETURN_PROFIT - WITHDRAWN + FLASH_PROFIT
  const totalShares = 1400n * U
  const books = { totalUsdc, totalShares, totalProfit: RETURN_PROFIT + FLASH_PROFIT, activeLiq: 0n, ...LOCK, pendingShares: REQUEST }
  const locked = lockedProfit(LOCK, CLOSE_TIME)
  const depositor = (account: string, shares: bigint, basis: bigint, withdrawRequest: bigint) => ({
    account,
    shares,
    costBasis: basis,
    totalDeposited: basis,
    totalWithdrawn: 0n,
    withdrawRequest,
    balance: usdcForShares({ shares, totalUsdc: freeAssets(totalUsdc, locked), totalShares }),
  })
  const keeper = fixtureKeeper()
  return {
    addresses: { vault: VAULT, registry: REGISTRY, usdc: USDC },
    ledger: LEDGER,
    closeTime: CLOSE_TIME,
    wiring: { vaultRegistry: { address: REGISTRY }, registryVault: { address: VAULT }, vaultUsdc: USDC, registryUsdc: USDC },
    registrySettings: { minStake: 1000n * U, slashTimeout: 3600n, slashRateBps: 1000, usdcToken: USDC, executorWasm: 'ab'.repeat(32) },
    vaultSettings: { depositCap: 1_000_000n * U, withdrawCooldown: 0, maxDrawPerKeeper: 500n * U, keeperFeeBps: FEE_BPS, profitUnlockSecs: Number(UNLOCK_SECS) },
    books,
    locked: { before: locked, after: locked },
    deadShares: 1000n,
    vaultUsdcBalance: totalUsdc,
    registryUsdcBalance: 1000n * U,
    keepers: [keeper],
    draws: [{ account: K, draw: 0n, keeper }],
    depositors: [depositor(A, 1000n * U - 1000n, 1000n * U, REQUEST), depositor(B, 400n * U, 400n * U, 0n)],
    history: { events: fixtureEvents(), fromLedger: 5, toLedger: LEDGER, complete: true },
  }
}
