import { describe, expect, it } from 'vitest'
import { scaleAuction } from '../../../src/core/index.js'
import { toCoreAuction } from '../../../src/keeper/adapters/blend/auctionPlan.js'
import type { ScanResult } from '../../../src/keeper/adapters/blend/scan.js'
import { AuctionType, type AuctionData } from '../../../src/keeper/adapters/blend/storage.js'
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
