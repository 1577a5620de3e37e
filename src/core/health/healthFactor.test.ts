import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError, InvalidPriceError } from '../errors.js'
import { DEFAULT_CONFIG, DEFAULT_DATA } from '../reserve/testReserves.js'
import type { Reserve } from '../reserve/types.js'
import { healthFactor } from './healthFactor.js'

const T = 10n ** 12n

describe('healthFactor: worked examples', () => {
  it('one collateral, one debt (numbers checked by hand)', () => {
    const reserves: Reserve[] = [
      { asset: 'USDC', config: { ...DEFAULT_CONFIG, index: 0, c_factor: 9_500_000, l_factor: 9_500_000 }, data: { ...DEFAULT_DATA, b_rate: 11n * T / 10n, d_rate: 12n * T / 10n } },
      { asset: 'XLM', config: { ...DEFAULT_CONFIG, index: 1 }, data: DEFAULT_DATA },
    ]
    // collateral: 1000 bXLM * 1.0 = 1000 XLM, * 0.75 = 750 XLM, * 0.10 USD = 75.0000000
    // liability:  60 dUSDC * 1.2 = 72 USDC, / 0.95 = 75.78947368.. -> ceil 75.7894737, * 1.0
    // HF = floor(75.0000000 / 75.7894737 * 1e7) = 0.9895833
    const r = healthFactor({ reserves, positions: { collateral: { 1: 1000_0000000n }, liabilities: { 0: 60_0000000n } }, prices: { USDC: 1_0000000n, XLM: 1_000_000n }, oracleDecimals: 7 })
    expect(r).toEqual({ healthFactor: 9_895_833n, collateralBase: 75_0000000n, liabilityBase: 75_7894737n, collateralRaw: 100_0000000n, liabilityRaw: 72_0000000n, scalar: 10_000_000n })
  })

  it('three reserves with 7, 9 and 6 decimals (collateral side equals Blend v1 test values; liabilities round up in v2)', () => {
    const reserves: Reserve[] = [
      { asset: 'R0', config: { ...DEFAULT_CONFIG, index: 0 }, data: DEFAULT_DATA },
      { asset: 'R1', config: { ...DEFAULT_CONFIG, index: 1, decimals: 9, c_factor: 8_500_000, l_factor: 8_000_000 }, data: { ...DEFAULT_DATA, b_rate: 1_100_000_000_000n, d_rate: 1_150_000_000_000n } },
      { asset: 'R2', config: { ...DEFAULT_CONFIG, index: 2, decimals: 6 }, data: { ...DEFAULT_DATA, b_rate: 1_001_100_000_000n, d_rate: 1_001_200_000_000n } },
    ]
    const positions = { collateral: new Map([[0, 100_1234567n], [2, 250_000n]]), liabilities: new Map([[0, 1_5000000n], [1, 50_987_654_321n]]), supply: new Map([[1, 120_987_654_321n]]) }
    const r = healthFactor({ reserves, positions, prices: new Map([['R0', 1_0000000n], ['R1', 2_5000000n], ['R2', 1000_0000000n]]), oracleDecimals: 7 })
    // R0 collateral 75.0925925, R2 collateral floor(0.250275 * 0.75) = 0.187706 * 1000 = 187.706 -> 262.7985925
    // R0 debt 1.5 / 0.75 = 2.0; R1 debt ceil(ceil(50.987654321 * 1.15) / 0.8) = 73.294753088 * 2.5 = 183.23688272 -> ceil 183.2368828
    expect(r.collateralBase).toBe(262_7985925n)
    expect(r.collateralRaw).toBe(350_3984567n)
    expect(r.liabilityBase).toBe(185_2368828n)
    expect(r.liabilityRaw).toBe(148_0895062n)
    expect(r.healthFactor).toBe(14_187_163n)
  })

  it('accrues the reserves first when asked', () => {
    const reserves: Reserve[] = [{ asset: 'R0', config: DEFAULT_CONFIG, data: { ...DEFAULT_DATA, d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, d_supply: 65_0000000n, b_supply: 99_0000000n } }]
    const positions = { collateral: {}, liabilities: { '0': 10_0000000n } }
    const stale = healthFactor({ reserves, positions, prices: { R0: 1_0000000n }, oracleDecimals: 7 })
    const fresh = healthFactor({ reserves, positions, prices: { R0: 1_0000000n }, oracleDecimals: 7, accrual: { timestamp: 617_280n, bstopRate: 2_000_000 } })
    // 10 dTokens at d_rate 1.345678123 -> 13.4567813 / 0.75 = 17.9423751; accrued d_rate 1.349657798173 -> 13.4965780 / 0.75 = 17.9954374
    expect(stale.liabilityBase).toBe(17_9423751n)
    expect(fresh.liabilityBase).toBe(17_9954374n)
    expect(fresh.healthFactor).toBe(0n)
  })

  it('no liabilities -> null; missing price or reserve -> typed error', () => {
    const reserves: Reserve[] = [{ asset: 'R0', config: DEFAULT_CONFIG, data: DEFAULT_DATA }]
    expect(healthFactor({ reserves, positions: { collateral: { 0: 5n }, liabilities: {} }, prices: { R0: 1n }, oracleDecimals: 7 }).healthFactor).toBeNull()
    expect(() => healthFactor({ reserves, positions: { collateral: { 0: 5n }, liabilities: {} }, prices: {}, oracleDecimals: 7 })).toThrow(InvalidPriceError)
    expect(() => healthFactor({ reserves, positions: { collateral: { 3: 5n }, liabilities: {} }, prices: { R0: 1n }, oracleDecimals: 7 })).toThrow(InvalidInputError)
    expect(() => healthFactor({ reserves, positions: { collateral: { 0: -5n }, liabilities: {} }, prices: { R0: 1n }, oracleDecimals: 7 })).toThrow(InvalidInputError)
  })
})

describe('healthFactor: properties', () => {
  const reserves: Reserve[] = [
    { asset: 'C', config: { ...DEFAULT_CONFIG, index: 0, c_factor: 8_000_000 }, data: { ...DEFAULT_DATA, b_rate: 1_050_000_000_000n } },
    { asset: 'D', config: { ...DEFAULT_CONFIG, index: 1, decimals: 6, l_factor: 9_000_000 }, data: { ...DEFAULT_DATA, d_rate: 1_020_000_000_000n } },
    { asset: 'M', config: { ...DEFAULT_CONFIG, index: 2 }, data: { ...DEFAULT_DATA, b_rate: 1_010_000_000_000n, d_rate: 1_030_000_000_000n } },
  ]
  const amount = fc.bigInt({ min: 1n, max: 10n ** 15n })
  const price = fc.bigInt({ min: 1n, max: 10n ** 11n })
  it('HF is monotone in prices: collateral up never lowers it, debt up never raises it', () => {
    fc.assert(
      fc.property(amount, amount, amount, amount, price, price, price, price, (c, d, mc, md, pc, pd, pm, bump) => {
        const positions = { collateral: { 0: c, 2: mc }, liabilities: { 1: d, 2: md } }
        const at = (prices: Record<string, bigint>) => healthFactor({ reserves, positions, prices, oracleDecimals: 7 }).healthFactor!
        const base = at({ C: pc, D: pd, M: pm })
        expect(at({ C: pc + bump, D: pd, M: pm }) >= base).toBe(true)
        expect(at({ C: pc, D: pd + bump, M: pm }) <= base).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
  it('rounding never favours the borrower: HF <= exact collateral / exact liability', () => {
    fc.assert(
      fc.property(amount, amount, price, price, (c, d, pc, pd) => {
        const r = healthFactor({ reserves, positions: { collateral: { 0: c }, liabilities: { 1: d } }, prices: { C: pc, D: pd }, oracleDecimals: 7 })
        // exact: c * 1.05 * 0.8 * pc / 1e7  over  d * 1.02 / 0.9 * pd / 1e6, in 1e7 fixed point
        const num = c * 105n * 8n * pc * 9n * 10n ** 6n
        const den = d * 1020n * pd * 10n * 10n ** 7n
        // HF / 1e7 <= num / den
        expect(r.healthFactor! * den <= num * 10n ** 7n).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
