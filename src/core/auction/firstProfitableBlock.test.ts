import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { auctionProfitability } from './auctionProfitability.js'
import { firstProfitableBlock } from './firstProfitableBlock.js'
import { meetsMinProfit } from './meetsMinProfit.js'
import type { AuctionQuotes } from './auctionValue.js'
import type { AuctionData } from './types.js'

const usdc = { price: 1_0000000n, decimals: 7 }

function bruteForce(auction: AuctionData, percent: number, lotQuotes: AuctionQuotes, bidQuotes: AuctionQuotes, minProfit: bigint, from: number): number | null {
  for (let block = Math.max(from, auction.block); block <= auction.block + 400; block++) {
    const r = auctionProfitability({ auction, block, percent, lotQuotes, bidQuotes })
    if (meetsMinProfit(r.lotValue, r.bidCost, minProfit)) return block
  }
  const late = Math.max(from, auction.block + 400)
  const r = auctionProfitability({ auction, block: late, percent, lotQuotes, bidQuotes })
  return meetsMinProfit(r.lotValue, r.bidCost, minProfit) ? late : null
}

describe('firstProfitableBlock: worked examples', () => {
  const auction = { bid: { USDC: 100_0000000n }, lot: { XLM: 1000_0000000n }, block: 5000 }
  it('lot phase: 1100 USD of lot for 100 USD of bid reaches 1.05 at d = 20', () => {
    const r = firstProfitableBlock({ auction, percent: 100, lotQuotes: { XLM: { price: 1_1000000n, decimals: 7 } }, bidQuotes: { USDC: usdc }, minProfit: 1_0500000n })
    expect(r).toMatchObject({ block: 5020, delta: 20, lotValue: 110_0000000n, bidCost: 100_0000000n })
  })
  it('bid phase: 80 USD of lot for 100 USD of bid reaches 1.05 when the bid is <= 76.19, at d = 248', () => {
    // bid(d) = 100 * (400 - d) / 200 <= 80 / 1.05 = 76.190476 -> d >= 247.62 -> 248
    const r = firstProfitableBlock({ auction, percent: 100, lotQuotes: { XLM: { price: 800000n, decimals: 7 } }, bidQuotes: { USDC: usdc }, minProfit: 1_0500000n })
    expect(r).toMatchObject({ block: 5248, delta: 248, lotValue: 80_0000000n, bidCost: 76_0000000n })
  })
  it('fromBlock after the answer returns fromBlock; an empty lot never pays', () => {
    const q = { XLM: { price: 1_1000000n, decimals: 7 } }
    expect(firstProfitableBlock({ auction, percent: 100, lotQuotes: q, bidQuotes: { USDC: usdc }, minProfit: 1_0500000n, fromBlock: 5100 })?.block).toBe(5100)
    expect(firstProfitableBlock({ auction: { ...auction, lot: {} }, percent: 100, lotQuotes: q, bidQuotes: { USDC: usdc }, minProfit: 1n })).toBeNull()
    expect(firstProfitableBlock({ auction, percent: 100, lotQuotes: q, bidQuotes: { USDC: usdc }, minProfit: 1n, fromBlock: 9000 })?.block).toBe(9000)
  })
  it('with no minimum every block qualifies, even for an empty lot (as the predicate says)', () => {
    const q = { XLM: { price: 1_1000000n, decimals: 7 } }
    expect(firstProfitableBlock({ auction: { ...auction, lot: { XLM: 0n } }, percent: 1, lotQuotes: q, bidQuotes: { USDC: usdc }, minProfit: 0n })?.block).toBe(5000)
  })
})

describe('firstProfitableBlock: closed form equals a brute-force scan', () => {
  it('for random auctions, prices, rates, percents and minimums (property)', () => {
    const quote = fc.record({ price: fc.bigInt({ min: 1n, max: 10n ** 10n }), decimals: fc.integer({ min: 0, max: 9 }), rate: fc.option(fc.bigInt({ min: 10n ** 12n, max: 2n * 10n ** 12n }), { nil: undefined }) })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: 1n, max: 10n ** 13n }),
        quote,
        quote,
        quote,
        fc.integer({ min: 1, max: 100 }),
        fc.bigInt({ min: 0n, max: 5n * 10n ** 7n }),
        fc.nat({ max: 450 }),
        (lotA, lotB, bidA, qa, qb, qbid, percent, minProfit, fromDelta) => {
          const clean = (q: { price: bigint; decimals: number; rate: bigint | undefined }) => (q.rate === undefined ? { price: q.price, decimals: q.decimals } : { price: q.price, decimals: q.decimals, rate: q.rate })
          const auction: AuctionData = { bid: { D: bidA }, lot: { A: lotA, B: lotB }, block: 1000 }
          const lotQuotes = { A: clean(qa), B: clean(qb) }
          const bidQuotes = { D: clean(qbid) }
          const expected = bruteForce(auction, percent, lotQuotes, bidQuotes, minProfit, 1000 + fromDelta)
          const got = firstProfitableBlock({ auction, percent, lotQuotes, bidQuotes, minProfit, fromBlock: 1000 + fromDelta })
          expect(got?.block ?? null).toBe(expected)
        },
      ),
      { numRuns: 1000 },
    )
  })
})
