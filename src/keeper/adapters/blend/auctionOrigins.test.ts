import { describe, expect, it } from 'vitest'
import { AuctionOrigins } from './auctionOrigins.js'
import type { AuctionData } from './storage.js'

const auction = (lot: Record<string, bigint>, block = 100): AuctionData => ({ bid: new Map([['USDC', 1_000n]]), lot: new Map(Object.entries(lot)), block })

describe('AuctionOrigins', () => {
  it('counts what is left of the lot against the auction as first seen', () => {
    const o = new AuctionOrigins()
    expect(o.left('u:100', auction({ A: 1_000_000n, B: 500n }))).toBe(100)
    // a 40 % part fill: Blend scales every asset, B rounds
    expect(o.left('u:100', auction({ A: 600_000n, B: 301n }))).toBe(60)
    // the least-filled asset does not hide a more-filled one
    expect(o.left('u:100', auction({ A: 250_000n, B: 301n }))).toBe(25)
    expect(o.left('u:100', auction({ A: 0n, B: 0n }))).toBe(0)
  })

  it('keeps auctions apart by id, and rounds down to a tenth', () => {
    const o = new AuctionOrigins()
    o.left('u:100', auction({ A: 3n }))
    o.left('u:200', auction({ A: 1_000n }, 200))
    expect(o.left('u:100', auction({ A: 2n }))).toBe(66.6)
    expect(o.left('u:200', auction({ A: 1_000n }, 200))).toBe(100)
  })
})
