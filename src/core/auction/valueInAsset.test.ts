import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { valueInAsset } from './valueInAsset.js'

describe('valueInAsset', () => {
  it('worked examples', () => {
    expect(valueInAsset(2500000n, { price: 1_0000000n, decimals: 7 }, 'floor')).toBe(2500000n)
    // XLM at 0.12 USD and USDC at 0.99 USD, 14-decimal oracle: 0.1212121 USDC per XLM.
    expect(valueInAsset(12n * 10n ** 12n, { price: 99n * 10n ** 12n, decimals: 7 }, 'floor')).toBe(1212121n)
    expect(valueInAsset(12n * 10n ** 12n, { price: 99n * 10n ** 12n, decimals: 7 }, 'ceil')).toBe(1212122n)
    expect(() => valueInAsset(1n, { price: 0n, decimals: 7 }, 'floor')).toThrow(BaseError)
    expect(() => valueInAsset(1n, { price: 1n, decimals: 39 }, 'floor')).toThrow(BaseError)
  })

  it('inverts auction valuation within one unit (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 16n }), fc.integer({ min: 0, max: 18 }), (value, price, decimals) => {
        const amount = valueInAsset(value, { price, decimals }, 'floor')
        const scale = 10n ** BigInt(decimals)
        expect(amount * price <= value * scale).toBe(true)
        expect((amount + 1n) * price > value * scale).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
