import { describe, expect, it } from 'vitest'
import type { AuctionCreated, AuctionFilled } from '../../../src/world/runEvents.js'
import { fillsByAuction, remainingPercent } from './auctionFills.js'

const created = (user: string, ledger: number, type = 0): AuctionCreated => ({ type, user, ledger, closeTime: 0n, percent: 50, auction: { bid: new Map(), lot: new Map(), block: ledger } })
const filled = (user: string, ledger: number, percent: bigint, type = 0): AuctionFilled => ({
  type,
  user,
  ledger,
  filler: 'K',
  percent,
  filled: { bid: new Map(), lot: new Map(), block: 0 },
  txHash: `${user}${ledger}${percent}`,
})

describe('fillsByAuction', () => {
  it('gives each auction its partial fills up to the one that takes 100 %, then the next auction the rest', () => {
    const auctions = [created('A', 10), created('B', 12), created('A', 40), created('A', 90)]
    const fills = [filled('A', 20, 30n), filled('B', 21, 100n), filled('A', 21, 50n), filled('A', 25, 100n), filled('A', 45, 10n), filled('A', 46, 20n)]
    const byAuction = fillsByAuction(auctions, fills)
    expect(byAuction.map((fs) => fs.map((f) => `${f.user}${f.ledger}:${f.percent}`))).toEqual([['A20:30', 'A21:50', 'A25:100'], ['B21:100'], ['A45:10', 'A46:20'], []])
  })
  it('keeps pools apart: the same user (a backstop) in two pools', () => {
    const inPool = <T extends object>(pool: string, e: T): T => ({ ...e, pool })
    const auctions = [inPool('P1', created('X', 1, 1)), inPool('P2', created('X', 2, 1))]
    const fills = [inPool('P2', filled('X', 5, 100n, 1)), inPool('P1', filled('X', 6, 100n, 1))]
    expect(fillsByAuction(auctions, fills).map((fs) => fs.map((f) => f.ledger))).toEqual([[6], [5]])
  })
  it('keeps auction types apart', () => {
    const byAuction = fillsByAuction([created('X', 1, 1), created('X', 1, 2)], [filled('X', 5, 100n, 2), filled('X', 6, 100n, 1)])
    expect(byAuction.map((fs) => fs.map((f) => f.ledger))).toEqual([[6], [5]])
  })
})

describe('remainingPercent', () => {
  it('compounds the percents of what was left', () => {
    expect(remainingPercent([])).toBe(100)
    expect(remainingPercent([50n, 50n])).toBe(25)
    expect(remainingPercent([30n, 100n])).toBe(0)
    expect(remainingPercent([1n, 1n, 1n])).toBe(97.0299)
  })
})
