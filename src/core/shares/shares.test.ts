import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { I128_MAX } from '../fixed/constants.js'
import { DEAD_SHARES, SHARE_PRICE_SCALAR } from './constants.js'
import { sharePrice } from './sharePrice.js'
import { sharesForDeposit } from './sharesForDeposit.js'
import { usdcForShares } from './usdcForShares.js'

const RUNS = { numRuns: 1000 }
const U = 10_000_000n
const code = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    if (e instanceof BaseError) return e.code
    throw e
  }
  return 'no error'
}

// A vault state reachable in practice: shares outstanding, USDC anywhere from a 99% loss to 100x profit.
const amount = fc.bigInt({ min: 1n, max: 10n ** 18n })
const state = fc
  .record({ totalShares: fc.bigInt({ min: DEAD_SHARES, max: 10n ** 18n }), pricePpm: fc.bigInt({ min: 10_000n, max: 100_000_000n }) })
  .map(({ totalShares, pricePpm }) => ({ totalShares, totalUsdc: (totalShares * pricePpm) / 1_000_000n + 1n }))

describe('sharesForDeposit: worked examples', () => {
  it('first deposit: 1000 USDC -> 1000 USDC of shares minus 1000 dead units', () => {
    expect(sharesForDeposit({ amount: 1000n * U, totalUsdc: 0n, totalShares: 0n })).toEqual({ shares: 9_999_999_000n, deadShares: 1000n })
  })
  it('first deposit at or below DEAD_SHARES -> ZeroShares', () => {
    expect(code(() => sharesForDeposit({ amount: 1000n, totalUsdc: 0n, totalShares: 0n }))).toBe('ZeroShares')
    expect(sharesForDeposit({ amount: 1001n, totalUsdc: 0n, totalShares: 0n })).toEqual({ shares: 1n, deadShares: 1000n })
  })
  it('100 into 300 USDC / 200 shares = floor(66.67) = 66', () => {
    expect(sharesForDeposit({ amount: 100n, totalUsdc: 300n, totalShares: 200n })).toEqual({ shares: 66n, deadShares: 0n })
  })
  it('after 10% profit 100 USDC buys floor(100/1.1) = 90.9090909 shares', () => {
    expect(sharesForDeposit({ amount: 100n * U, totalUsdc: 1100n * U, totalShares: 1000n * U }).shares).toBe(909_090_909n)
  })
  it('errors: zero, negative, insolvent, rounding to zero, overflow', () => {
    expect(code(() => sharesForDeposit({ amount: 0n, totalUsdc: 1n, totalShares: 1n }))).toBe('InvalidAmount')
    expect(code(() => sharesForDeposit({ amount: -1n, totalUsdc: 1n, totalShares: 1n }))).toBe('InvalidAmount')
    expect(code(() => sharesForDeposit({ amount: 5n, totalUsdc: 0n, totalShares: 10n }))).toBe('PoolInsolvent')
    expect(code(() => sharesForDeposit({ amount: 2n, totalUsdc: 3000n, totalShares: 1000n }))).toBe('ZeroShares')
    expect(code(() => sharesForDeposit({ amount: I128_MAX, totalUsdc: I128_MAX, totalShares: 2n }))).toBe('Overflow')
    expect(code(() => sharesForDeposit({ amount: I128_MAX + 1n, totalUsdc: 0n, totalShares: 0n }))).toBe('Overflow')
    expect(code(() => sharesForDeposit({ amount: 1n, totalUsdc: -1n, totalShares: 0n }))).toBe('InvalidInput')
  })
})

describe('usdcForShares / sharePrice: worked examples', () => {
  it('66 shares of 400 USDC / 266 shares = floor(99.2) = 99', () => {
    expect(usdcForShares({ shares: 66n, totalUsdc: 400n, totalShares: 266n })).toBe(99n)
  })
  it('errors', () => {
    expect(code(() => usdcForShares({ shares: 0n, totalUsdc: 1n, totalShares: 1n }))).toBe('InvalidAmount')
    expect(code(() => usdcForShares({ shares: 2n, totalUsdc: 1n, totalShares: 1n }))).toBe('InvalidAmount')
    expect(code(() => usdcForShares({ shares: 1n << 70n, totalUsdc: 1n << 70n, totalShares: 1n << 80n }))).toBe('Overflow')
  })
  it('prices', () => {
    expect(sharePrice({ totalUsdc: 0n, totalShares: 0n })).toBe(SHARE_PRICE_SCALAR)
    expect(sharePrice({ totalUsdc: 1100n * U, totalShares: 1000n * U })).toBe(11_000_000n)
    expect(sharePrice({ totalUsdc: 2n, totalShares: 3n })).toBe(6_666_666n)
    expect(sharePrice({ totalUsdc: 0n, totalShares: 5n })).toBe(0n)
  })
})

describe('share math properties', () => {
  it('a deposit never mints shares worth more than the amount (rounding favours the pool)', () => {
    fc.assert(
      fc.property(state, amount, ({ totalUsdc, totalShares }, a) => {
        let shares: bigint
        try {
          shares = sharesForDeposit({ amount: a, totalUsdc, totalShares }).shares
        } catch (e) {
          expect((e as BaseError).code).toBe('ZeroShares')
          expect(a * totalShares < totalUsdc).toBe(true)
          return
        }
        // shares / totalShares <= a / totalUsdc, and one more share would exceed it (floor, not less)
        expect(shares * totalUsdc <= a * totalShares).toBe(true)
        expect((shares + 1n) * totalUsdc > a * totalShares).toBe(true)
      }),
      RUNS,
    )
  })

  it('a redemption never pays more than the pro-rata value', () => {
    fc.assert(
      fc.property(state, fc.bigInt({ min: 1n, max: 10n ** 18n }), ({ totalUsdc, totalShares }, s0) => {
        const s = ((s0 - 1n) % totalShares) + 1n
        const usdc = usdcForShares({ shares: s, totalUsdc, totalShares })
        expect(usdc * totalShares <= s * totalUsdc).toBe(true)
        expect((usdc + 1n) * totalShares > s * totalUsdc).toBe(true)
      }),
      RUNS,
    )
  })

  it('deposit then withdraw never returns more than deposited absent profit', () => {
    fc.assert(
      fc.property(fc.option(state, { nil: undefined }), amount, (st, a) => {
        const totalUsdc = st?.totalUsdc ?? 0n
        const totalShares = st?.totalShares ?? 0n
        let minted: { shares: bigint; deadShares: bigint }
        try {
          minted = sharesForDeposit({ amount: a, totalUsdc, totalShares })
        } catch {
          return
        }
        const after = { totalUsdc: totalUsdc + a, totalShares: totalShares + minted.shares + minted.deadShares }
        const back = usdcForShares({ shares: minted.shares, ...after })
        expect(back <= a).toBe(true)
      }),
      RUNS,
    )
  })

  it('a deposit or a redemption never lowers the share price of those who stay', () => {
    fc.assert(
      fc.property(state, amount, ({ totalUsdc, totalShares }, a) => {
        let s: bigint
        try {
          s = sharesForDeposit({ amount: a, totalUsdc, totalShares }).shares
        } catch {
          return
        }
        const u2 = totalUsdc + a
        const s2 = totalShares + s
        // exact rational comparison: u2/s2 >= totalUsdc/totalShares
        expect(u2 * totalShares >= totalUsdc * s2).toBe(true)
        const r = s2 > 1n ? s2 / 2n : 1n
        const paid = usdcForShares({ shares: r, totalUsdc: u2, totalShares: s2 })
        if (s2 > r) expect((u2 - paid) * s2 >= u2 * (s2 - r)).toBe(true)
      }),
      RUNS,
    )
  })

  it('first deposit: depositor shares + dead shares == amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: DEAD_SHARES + 1n, max: I128_MAX }), (a) => {
        const r = sharesForDeposit({ amount: a, totalUsdc: 0n, totalShares: 0n })
        expect(r.shares + r.deadShares).toBe(a)
        expect(r.deadShares).toBe(DEAD_SHARES)
      }),
      RUNS,
    )
  })

  it('share price is monotone in total USDC and never above the exact ratio', () => {
    fc.assert(
      fc.property(state, fc.bigInt({ min: 0n, max: 10n ** 20n }), ({ totalUsdc, totalShares }, extra) => {
        const p1 = sharePrice({ totalUsdc, totalShares })
        const p2 = sharePrice({ totalUsdc: totalUsdc + extra, totalShares })
        expect(p2 >= p1).toBe(true)
        expect(p1 * totalShares <= totalUsdc * SHARE_PRICE_SCALAR).toBe(true)
      }),
      RUNS,
    )
  })
})
