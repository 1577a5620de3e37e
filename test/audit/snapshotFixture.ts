/**
 * A small, consistent `AuditSnapshot` built by hand (for the pure invariant tests): two
 * depositors, one keeper that drew and returned with profit, one partial withdrawal. Every
 * invariant holds on it; tests change one field to break one.
 */
import { usdcForShares } from '../../src/core/index.js'
import type { VaultEvent } from '../../src/audit/events.js'
import type { AuditSnapshot } from '../../src/audit/snapshot.js'

export const U = 10_000_000n
export const VAULT = 'CVAULT'
export const REGISTRY = 'CREGISTRY'
export const USDC = 'CUSDC'
export const A = 'GDEPOSITORA'
export const B = 'GDEPOSITORB'
export const K = 'GKEEPER'

/** 100 shares of B redeemed at 1510 USDC / 1500 shares: floor(100.666...) USDC. */
export const WITHDRAWN = (100n * U * 1510n) / 1500n

export function fixtureEvents(): VaultEvent[] {
  return [
    { id: '1', ledger: 10, kind: 'registry', registry: REGISTRY },
    { id: '2', ledger: 11, kind: 'deposit', account: A, amount: 1000n * U, shares: 1000n * U - 1000n, deadShares: 1000n },
    { id: '3', ledger: 12, kind: 'deposit', account: B, amount: 500n * U, shares: 500n * U, deadShares: 0n },
    { id: '4', ledger: 13, kind: 'draw', account: K, amount: 100n * U },
    { id: '5', ledger: 14, kind: 'return', account: K, amount: 110n * U, profit: 10n * U, remaining: 0n },
    { id: '6', ledger: 15, kind: 'withdraw', account: B, shares: 100n * U, amount: WITHDRAWN },
  ]
}

export function fixtureSnapshot(): AuditSnapshot {
  const totalUsdc = 1510n * U - WITHDRAWN
  const totalShares = 1400n * U
  const books = { totalUsdc, totalShares, totalProfit: 10n * U, activeLiq: 0n }
  const depositor = (account: string, shares: bigint, basis: bigint) => ({
    account,
    shares,
    costBasis: basis,
    totalDeposited: basis,
    totalWithdrawn: 0n,
    balance: usdcForShares({ shares, totalUsdc, totalShares }),
  })
  const keeper = {
    operator: K,
    name: 'k',
    stake: 1000n * U,
    hasActiveDraw: false,
    drawAmount: 0n,
    drawTimestamp: 0n,
    slashed: false,
    totalSlashed: 0n,
  }
  return {
    addresses: { vault: VAULT, registry: REGISTRY, usdc: USDC },
    ledger: 20,
    closeTime: 100_000n,
    wiring: { vaultRegistry: { address: REGISTRY }, registryVault: { address: VAULT }, vaultUsdc: USDC, registryUsdc: USDC },
    registrySettings: { minStake: 1000n * U, slashTimeout: 3600n, slashRateBps: 1000, usdcToken: USDC },
    books,
    deadShares: 1000n,
    vaultUsdcBalance: totalUsdc,
    registryUsdcBalance: 1000n * U,
    keepers: [keeper],
    draws: [{ account: K, draw: 0n, keeper }],
    depositors: [depositor(A, 1000n * U - 1000n, 1000n * U), depositor(B, 400n * U, 400n * U)],
    history: { events: fixtureEvents(), fromLedger: 5, toLedger: 20, complete: true },
  }
}
