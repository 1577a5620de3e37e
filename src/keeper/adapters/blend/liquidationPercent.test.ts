import { describe, expect, it } from 'vitest'
import { randomContract } from './fakeLedger.test-util.js'
import { checkLiquidationPercent, chooseLiquidationPercent } from './liquidationPercent.js'
import type { Reserve } from './loadPool.js'
import { healthFactorOf, isLiquidatable, positionData, type PoolValuation } from './positionData.js'
import type { Positions } from './storage.js'

const ONE = 1_0000000n
const RATE_ONE = 10n ** 12n

function reserve(asset: string, index: number, cFactor: number, lFactor: number): Reserve {
  return {
    asset,
    config: {
      index, decimals: 7, c_factor: cFactor, l_factor: lFactor, util: 5_000_000, max_util: 9_500_000,
      r_base: 0, r_one: 0, r_two: 0, r_three: 0, reactivity: 0, supply_cap: 10n ** 20n, enabled: true,
    },
    data: { b_rate: RATE_ONE, d_rate: RATE_ONE, ir_mod: ONE, b_supply: 0n, d_supply: 0n, backstop_credit: 0n, last_time: 0n },
  }
}

const usdc = randomContract()
const xlm = randomContract()
const valuation: PoolValuation = {
  reserveList: [usdc, xlm],
  reserves: new Map([
    [usdc, reserve(usdc, 0, 9_500_000, 10_000_000)],
    [xlm, reserve(xlm, 1, 7_500_000, 10_000_000)],
  ]),
  prices: new Map([
    [usdc, { price: ONE, timestamp: 0n }],
    [xlm, { price: ONE / 10n, timestamp: 0n }],
  ]),
  oracleDecimals: 7,
}

/** 1000 XLM (100 USDC raw, 75 effective) of collateral against `debt` USDC. */
const user = (debt: bigint): Positions => ({
  collateral: new Map([[1, 1000n * ONE]]),
  liabilities: new Map([[0, debt]]),
  supply: new Map(),
})

describe('position data', () => {
  it('values collateral with c_factor and liabilities with l_factor (hand-checked)', () => {
    const pd = positionData(valuation, user(80n * ONE))
    expect(pd).toEqual({ collateralBase: 75n * ONE, collateralRaw: 100n * ONE, liabilityBase: 80n * ONE, liabilityRaw: 80n * ONE, scalar: ONE })
    expect(healthFactorOf(pd)).toBeCloseTo(0.9375, 9)
    expect(isLiquidatable(pd)).toBe(true)
    expect(isLiquidatable(positionData(valuation, user(70n * ONE)))).toBe(false)
  })
})

describe('liquidation percent', () => {
  it('keeps 50 % when it lands the user in [1.03, 1.15] (80 debt -> HF 1.031)', () => {
    expect(checkLiquidationPercent(valuation, user(80n * ONE), 50)).toBe('ok')
    expect(chooseLiquidationPercent(valuation, user(80n * ONE))).toBe(50)
  })

  it('picks a smaller percent when 50 % would leave HF above 1.15', () => {
    const u = user(75_1000000n) // HF 0.9987: 50 % leaves ~1.154
    expect(checkLiquidationPercent(valuation, u, 50)).toBe('too_large')
    const p = chooseLiquidationPercent(valuation, u)!
    expect(p).toBeLessThan(50)
    expect(checkLiquidationPercent(valuation, u, p)).toBe('ok')
    expect(checkLiquidationPercent(valuation, u, p + 1)).toBe('too_large')
  })

  it('falls back to a full liquidation when no partial one is valid', () => {
    const u = user(95n * ONE) // HF 0.79: every partial leaves HF < 1.03
    expect(checkLiquidationPercent(valuation, u, 50)).toBe('too_small')
    expect(chooseLiquidationPercent(valuation, u)).toBe(100)
  })

  it('refuses a healthy user and out-of-range percents', () => {
    expect(chooseLiquidationPercent(valuation, user(50n * ONE))).toBeUndefined()
    expect(checkLiquidationPercent(valuation, user(80n * ONE), 0)).toBe('invalid')
    expect(checkLiquidationPercent(valuation, user(80n * ONE), 101)).toBe('invalid')
  })
})

describe('valuation reserves', () => {
  it('accrues debt to the valuation time (d_rate grows with utilization and elapsed time)', async () => {
    const { valuationReserves } = await import('./scan.js')
    const r = reserve(usdc, 0, 9_500_000, 10_000_000)
    r.config = { ...r.config, r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20 }
    r.data = { ...r.data, b_supply: 100n * ONE, d_supply: 50n * ONE, last_time: 1_000_000n }
    const later = valuationReserves(new Map([[usdc, r]]), 1_000_000, 1_000_000n + 365n * 86_400n).get(usdc)!
    expect(later.data.d_rate > RATE_ONE).toBe(true)
    expect(later.data.b_rate > RATE_ONE).toBe(true)
    expect(later.data.last_time).toBe(1_000_000n + 365n * 86_400n)
    // the same time: unchanged
    expect(valuationReserves(new Map([[usdc, r]]), 1_000_000, 1_000_000n).get(usdc)!.data).toEqual(r.data)
  })
})
