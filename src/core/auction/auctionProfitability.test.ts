import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidPriceError } from '../errors.js'
import { auctionProfitability } from './auctionProfitability.js'
import { auctionValue } from './auctionValue.js'
import { meetsMinProfit } from './meetsMinProfit.js'

const usdc = { price: 1_0000000n, decimals: 7 }

describe('auctionValue', () => {
  it('values tokens through the reserve rate, then the price, each with the named rounding', () => {
    // 100 bXLM at b_rate 1.1 = 110 XLM; at 0.12 USD = 13.2 USD
    expect(auctionValue({ XLM: 100_0000000n }, { XLM: { price: 1200000n, decimals: 7, rate: 1_100_000_000_000n } }, 'floor')).toBe(13_2000000n)
    // 3 units of a 6-decimal asset at d_rate 1.0000000000005 (ceil -> 4 units) priced 1.0
    expect(auctionValue({ Q: 3n }, { Q: { price: 1_0000000n, decimals: 6, rate: 1_000_000_000_001n } }, 'ceil')).toBe(40n)
    expect(auctionValue({ Q: 3n }, { Q: { price: 1_0000000n, decimals: 6, rate: 1_000_000_000_001n } }, 'floor')).toBe(30n)
  })
  it('rejects a missing or non-positive price', () => {
    expect(() => auctionValue({ Z: 1n }, {}, 'floor')).toThrow(InvalidPriceError)
    expect(() => auctionValue({ Z: 1n }, { Z: { price: 0n, decimals: 7 } }, 'floor')).toThrow(InvalidPriceError)
  })
})

describe('auctionProfitability', () => {
  const auction = { bid: { USDC: 100_0000000n }, lot: { XLM: 1000_0000000n }, block: 0 }
  const lotQuotes = { XLM: { price: 2500000n, decimals: 7 } } // 0.25 USD
  it('worked example: 1000 XLM at 0.25 against 100 USDC', () => {
    // d=100: half the lot (125 USD) for the whole bid
    expect(auctionProfitability({ auction, block: 100, percent: 100, lotQuotes, bidQuotes: { USDC: usdc } })).toEqual({ lotValue: 125_0000000n, bidCost: 100_0000000n, ratio: 12_500_000n })
    // d=300: whole lot (250 USD) for half the bid
    expect(auctionProfitability({ auction, block: 300, percent: 100, lotQuotes, bidQuotes: { USDC: usdc } })).toEqual({ lotValue: 250_0000000n, bidCost: 50_0000000n, ratio: 50_000_000n })
    // d=400: free lot
    expect(auctionProfitability({ auction, block: 400, percent: 100, lotQuotes, bidQuotes: { USDC: usdc } }).ratio).toBeNull()
  })

  it('the ratio is never above the exact lot/bid quotient', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.nat({ max: 399 }), (bid, lot, price, block) => {
        const r = auctionProfitability({ auction: { bid: { U: bid }, lot: { L: lot }, block: 0 }, block, percent: 100, lotQuotes: { L: { price, decimals: 7 } }, bidQuotes: { U: usdc } })
        if (r.ratio === null) return
        expect(r.ratio * r.bidCost <= r.lotValue * 10_000_000n).toBe(true)
        expect(meetsMinProfit(r.lotValue, r.bidCost, r.ratio)).toBe(true)
        expect(meetsMinProfit(r.lotValue, r.bidCost, r.ratio + 1n)).toBe(false)
      }),
      { numRuns: 1000 },
    )
  })
})
