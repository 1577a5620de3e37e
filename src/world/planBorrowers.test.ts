import { describe, expect, it } from 'vitest'
import { healthFactor } from '../core/index.js'
import { planBorrowers, type PlanBorrowersParameters } from './planBorrowers.js'

const UNIT = 10_000_000n
const params: PlanBorrowersParameters = {
  seed: 5n,
  count: 12,
  collaterals: [
    { price: 2_000n * UNIT, cFactor: 7_500_000 },
    { price: 60_000n * UNIT, cFactor: 7_000_000 },
  ],
  usdcLFactor: 9_500_000,
  healthFactor: { min: 10_400_000n, max: 11_000_000n },
}

const config = (index: number, c_factor: number, l_factor: number) => ({
  index, decimals: 7, c_factor, l_factor, util: 7_500_000, max_util: 9_500_000,
  r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20,
})
const data = { d_rate: 10n ** 12n, b_rate: 10n ** 12n, ir_mod: UNIT, b_supply: 0n, d_supply: 0n, backstop_credit: 0n, last_time: 0n }

describe('planBorrowers', () => {
  it('is the same for the same seed and differs for another', () => {
    expect(planBorrowers(params)).toEqual(planBorrowers(params))
    expect(planBorrowers({ ...params, seed: 6n })).not.toEqual(planBorrowers(params))
  })

  it('alternates collateral assets', () => {
    expect(planBorrowers(params).map((b) => b.collateralIndex)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
  })

  it("opens every position at its target health factor (to 1e-7 below, 1e-4 above) by Blend's own formula", () => {
    for (const b of planBorrowers(params)) {
      expect(b.targetHealthFactor).toBeGreaterThanOrEqual(params.healthFactor.min)
      expect(b.targetHealthFactor).toBeLessThanOrEqual(params.healthFactor.max)
      const c = params.collaterals[b.collateralIndex]!
      const reserves = [
        { asset: 'USDC', config: config(0, 9_500_000, params.usdcLFactor), data },
        { asset: 'X', config: config(1, c.cFactor, 7_500_000), data },
      ]
      const hf = healthFactor({
        reserves,
        positions: { collateral: { 1: b.collateral }, liabilities: { 0: b.borrowed } },
        prices: { USDC: UNIT, X: c.price },
        oracleDecimals: 7,
      }).healthFactor!
      expect(hf).toBeGreaterThanOrEqual(b.targetHealthFactor - 1n)
      expect(hf - b.targetHealthFactor).toBeLessThan(1_000n) // within 1e-4 above
    }
  })

  it('refuses an empty collateral list', () => {
    expect(() => planBorrowers({ ...params, collaterals: [] })).toThrow(/no collateral/)
  })

  it('splits borrowers over the collaterals by weight (equal weights alternate)', () => {
    const two = [{ price: 2_000n * UNIT, cFactor: 7_500_000 }, { price: 60_000n * UNIT, cFactor: 7_500_000 }]
    const equal = planBorrowers({ ...params, collaterals: two, count: 6 }).map((b) => b.collateralIndex)
    expect(equal).toEqual([0, 1, 0, 1, 0, 1])
    const mix = planBorrowers({ ...params, collaterals: two, count: 8, weights: [3, 1] }).map((b) => b.collateralIndex)
    expect(mix.filter((i) => i === 0)).toHaveLength(6)
    expect(planBorrowers({ ...params, collaterals: two, count: 4, weights: [0, 1] }).every((b) => b.collateralIndex === 1)).toBe(true)
    expect(() => planBorrowers({ ...params, collaterals: two, weights: [0, 0] })).toThrow(/weights/)
  })
})
