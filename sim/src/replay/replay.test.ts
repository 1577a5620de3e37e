import { describe, expect, it } from 'vitest'
import { scaleAuction } from '../../../src/core/index.js'
import { toCoreAuction } from '../../../src/keeper/adapters/blend/auctionPlan.js'
import type { ScanResult } from '../../../src/keeper/adapters/blend/scan.js'
import { AuctionType, type AuctionData } from '../../../src/keeper/adapters/blend/storage.js'
import type { VaultFlow } from '../../../src/world/runEvents.js'
import { CoreReplay } from './replay.js'

const BACKSTOP = 'GBACKSTOP'
const USDC = 'CUSDC'
const COMET = 'CCOMET'
const KEEPER = 'GKEEPER'

/** A scan that prices nothing: valuing a backstop-token lot with it would throw. */
const emptyScan = { valuation: { reserves: new Map() }, prices: { decimals: 7, prices: new Map() } } as unknown as ScanResult

function badDebtAuction(): AuctionData {
  return { bid: new Map([[USDC, 5_000_0000000n]]), lot: new Map([[COMET, 1_000_0000000n]]), block: 100 }
}

function created(auction: AuctionData) {
  return { type: AuctionType.BadDebt, user: BACKSTOP, ledger: 100, closeTime: 0n, percent: 100, auction }
}

function filledAt(ledger: number, auction: AuctionData, lotDelta = 0n) {
  const { filled } = scaleAuction({ auction: toCoreAuction(auction), block: ledger, percent: 100 })
  const lot = new Map(Object.entries(filled.lot).map(([k, v]) => [k, v + lotDelta]))
  return { type: AuctionType.BadDebt, user: BACKSTOP, ledger, filler: KEEPER, percent: 100n, filled: { bid: new Map(Object.entries(filled.bid)), lot, block: 100 }, txHash: 'h' }
}

describe('CoreReplay on backstop auctions', () => {
  it('checks a bad-debt fill\'s amounts but not its ledger, which the oracle cannot value', () => {
    const replay = new CoreReplay(1.02)
    const auction = badDebtAuction()
    replay.auctionCreated(created(auction), emptyScan)
    expect(() => replay.auctionFilled(filledAt(350, auction), 1.02, emptyScan)).not.toThrow()
    const checks = Object.fromEntries(replay.result().checks.map((c) => [c.kind, c]))
    expect(checks['fill-amounts']).toMatchObject({ checked: 1, mismatches: 0 })
    expect(checks['fill-ledger']).toMatchObject({ checked: 0, mismatches: 0 })
    expect(replay.fillValuations.size).toBe(0)
  })

  it('counts a fill whose lot differs from the core\'s scaling as a mismatch', () => {
    const replay = new CoreReplay(1.02)
    const auction = badDebtAuction()
    replay.auctionCreated(created(auction), undefined)
    replay.auctionFilled(filledAt(350, auction, 1n), 1.02, emptyScan)
    expect(replay.mismatchCount).toBe(1)
    expect(replay.result().mismatches[0]).toMatchObject({ kind: 'fill-amounts', ledger: 350 })
  })
})

describe('CoreReplay on the vault’s books', () => {
  const U = 10_000_000n
  const vault = (usdc: bigint, shares: bigint, lock = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }) => ({
    totalUsdc: usdc,
    totalShares: shares,
    activeLiq: 0n,
    totalProfit: 0n,
    ...lock,
    pendingShares: 0n,
    locked: 0n,
  })
  const flow = (kind: VaultFlow['kind'], ledger: number, data: Record<string, bigint>): VaultFlow => ({ kind, address: 'GX', ledger, closeTime: BigInt(ledger * 5), data, txHash: `t${ledger}` })

  it('prices deposits and withdrawals at the free assets: a booked profit is locked and unlocks over the period', () => {
    const r = new CoreReplay()
    r.startTotals(vault(1_000n * U, 1_000n * U), 3_600n)
    // A flash fill books 36 USDC at t = 500 (ledger 100): locked until t = 4,100.
    r.vaultFlow(flow('flash', 100, { amount: 50n * U, profit: 36n * U, fee: 4n * U }))
    // In the same ledger a deposit of 1,000 still buys at 1.0: 1,000 shares.
    r.vaultFlow(flow('deposit', 100, { amount: 1_000n * U, shares: 1_000n * U, dead_shares: 0n }))
    // Half the period later (t = 2,300): 18 of the 36 have unlocked; 2,018 free over 2,000 shares.
    r.vaultFlow(flow('withdraw', 460, { shares: 1_000n * U, amount: 1_009n * U }))
    r.checkTotals(460, vault(1_027n * U, 1_000n * U, { lockedProfit: 36n * U, lockStart: 500n, lockEnd: 4_100n }))
    const shareMath = r.result().checks.find((c) => c.kind === 'share-math')!
    expect(r.result().mismatches).toEqual([])
    expect(shareMath).toEqual({ kind: 'share-math', checked: 3, mismatches: 0 })
  })

  it('books a slash’s penalty (recovered beyond the draw written off) as locked income, and finds a lock that differs from get_state', () => {
    const r = new CoreReplay()
    r.startTotals(vault(1_000n * U, 1_000n * U), 100n)
    r.vaultFlow(flow('write_off', 20, { recovered: 1_000n * U, written_down: 900n * U }))
    r.checkTotals(20, vault(1_100n * U, 1_000n * U, { lockedProfit: 100n * U, lockStart: 100n, lockEnd: 200n }))
    expect(r.result().mismatches).toEqual([])
    r.vaultFlow(flow('return', 30, { amount: 10n * U, profit: 1n * U, remaining: 0n, fee: 0n }))
    r.checkTotals(30, vault(1_101n * U, 1_000n * U, { lockedProfit: 1n * U, lockStart: 150n, lockEnd: 250n }))
    expect(r.result().mismatches).toHaveLength(1)
    expect(r.result().mismatches[0]!.detail).toMatch(/lock/)
  })
})
