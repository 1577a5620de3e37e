import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../errors.js'
import { accrueReserve } from './accrueReserve.js'
import { calcAccrual } from './calcAccrual.js'
import { toAssetFromBToken, toAssetFromDToken, toEffectiveAssetFromBToken, toEffectiveAssetFromDToken } from './conversions.js'
import { DEFAULT_CONFIG, DEFAULT_DATA } from './testReserves.js'
import { utilization } from './utilization.js'

const RUNS = { numRuns: 1000 }

// Expected numbers below are the ones Blend v2's own pool tests assert for the same inputs.
describe('conversions and utilization (Blend v2 test values)', () => {
  it('token conversions round owed amounts up and owned amounts down', () => {
    const rate = 1_321_834_961_000n
    expect(toAssetFromDToken({ d_rate: rate }, 1_1234567n)).toBe(1_4850244n)
    expect(toAssetFromBToken({ b_rate: rate }, 1_1234567n)).toBe(1_4850243n)
    expect(toEffectiveAssetFromDToken({ l_factor: 1_1000000 }, { d_rate: rate }, 1_1234567n)).toBe(1_3500222n)
    expect(toEffectiveAssetFromBToken({ c_factor: 8_500_000 }, { b_rate: rate }, 1_1234567n)).toBe(1_2622706n)
    expect(toAssetFromDToken({ d_rate: 1_823_912_692_000n }, 65_0000000n)).toBe(118_5543250n)
    expect(toAssetFromBToken({ b_rate: 1_823_912_692_000n }, 99_0000000n)).toBe(180_5673565n)
  })
  it('utilization', () => {
    const data = { ...DEFAULT_DATA, d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, b_supply: 99_0000000n, d_supply: 65_0000000n }
    expect(utilization(data)).toBe(7_864_353n)
    expect(utilization({ ...data, b_supply: 0n, d_supply: 0n })).toBe(0n)
    expect(utilization({ ...data, b_supply: 1_1234567n, d_supply: 0n })).toBe(0n)
    expect(utilization({ ...data, b_supply: 1_1234567n, d_supply: 2_1234567n })).toBe(10_000_000n)
  })
})

describe('calcAccrual (Blend v2 test values)', () => {
  const at = (u: bigint, irMod = 10_000_000n, deltaTime = 500n, config = DEFAULT_CONFIG) => calcAccrual({ config, utilization: u, irMod, deltaTime })
  it('under, over target and over 95 %', () => {
    expect(at(6_565_656n)).toEqual({ loanAccrual: 1_000_000_852_536n, irMod: 9_999_066n })
    expect(at(7_979_797n)).toEqual({ loanAccrual: 1_000_002_853_078n, irMod: 10_000_479n })
    expect(at(9_696_969n)).toEqual({ loanAccrual: 1_000_018_247_510n, irMod: 10_002_196n })
  })
  it('ir_mod clamps at 10 and 0.1; reactivity 0 freezes it', () => {
    expect(at(9_696_969n, 99_970_000n, 12_345n).irMod).toBe(100_000_000n)
    expect(at(2_020_202n, 1_500_000n, 50_000n).irMod).toBe(1_000_000n)
    expect(at(6_565_656n, 10_000_000n, 500n, { ...DEFAULT_CONFIG, reactivity: 0 })).toEqual({ loanAccrual: 1_000_000_852_536n, irMod: 10_000_000n })
  })
  it('rounds the accrual up even for one second of dust', () => {
    expect(at(5n, 1_000_000n, 1n, { ...DEFAULT_CONFIG, r_base: 1000 })).toEqual({ loanAccrual: 1_000_000_000_001n, irMod: 1_000_000n })
  })
  it('a fixed rate accrues the same at any utilization', () => {
    const fixed = { ...DEFAULT_CONFIG, r_base: 2_500_000, r_one: 0, r_two: 0, r_three: 0 }
    expect(at(0n, 10_000_000n, 500n, fixed)).toEqual({ loanAccrual: 1_000_003_963_724n, irMod: 9_992_500n })
    expect(at(6_565_656n, 10_000_000n, 500n, fixed)).toEqual({ loanAccrual: 1_000_003_963_724n, irMod: 9_999_066n })
    expect(at(7_565_656n, 10_000_000n, 500n, fixed)).toEqual({ loanAccrual: 1_000_003_963_724n, irMod: 10_000_065n })
    expect(at(9_565_656n, 10_000_000n, 500n, fixed)).toEqual({ loanAccrual: 1_000_003_963_724n, irMod: 10_002_065n })
  })
  it('needs time to pass', () => {
    expect(() => at(5_000_000n, 10_000_000n, 0n)).toThrow(InvalidInputError)
  })
})

describe('accrueReserve (Blend v2 test values)', () => {
  const data = { ...DEFAULT_DATA, d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, d_supply: 65_0000000n, b_supply: 99_0000000n }
  it('accrues d_rate, b_rate, ir_mod and the backstop credit', () => {
    expect(accrueReserve({ config: DEFAULT_CONFIG, data, bstopRate: 2_000_000, timestamp: 617_280n })).toEqual({
      d_rate: 1_349_657_798_173n,
      b_rate: 1_125_547_124_242n,
      ir_mod: 10_449_815n,
      d_supply: 65_0000000n,
      b_supply: 99_0000000n,
      backstop_credit: 517_357n,
      last_time: 617_280n,
    })
  })
  it('without a backstop rate the suppliers get all of it', () => {
    const r = accrueReserve({ config: DEFAULT_CONFIG, data, bstopRate: 0, timestamp: 617_280n })
    expect(r.b_rate).toBe(1_126_069_707_070n)
    expect(r.backstop_credit).toBe(0n)
  })
  it('five seconds on an 18-decimal reserve still moves both rates', () => {
    const scalar = 10n ** 18n
    const r = accrueReserve({
      config: { ...DEFAULT_CONFIG, decimals: 18 },
      data: { ...DEFAULT_DATA, d_rate: 1_500_000_000_000n, b_rate: 1_300_000_000_000n, d_supply: 100_000_000n * scalar, b_supply: 10_000_000_000n * scalar, last_time: 995n },
      bstopRate: 2_000_000,
      timestamp: 1000n,
    })
    expect(r).toMatchObject({ last_time: 1000n, b_rate: 1_300_000_000_020n, d_rate: 1_500_000_002_562n, ir_mod: 9_999_927n, backstop_credit: 51_240_000_000_000_000n })
  })
  it('no supply, no utilization, same time: only last_time moves', () => {
    expect(accrueReserve({ config: DEFAULT_CONFIG, data: { ...DEFAULT_DATA, d_rate: 0n, b_rate: 0n, d_supply: 0n, b_supply: 0n }, bstopRate: 2_000_000, timestamp: 617_280n })).toMatchObject({ d_rate: 0n, b_rate: 0n, ir_mod: 10_000_000n, last_time: 617_280n })
    expect(accrueReserve({ config: DEFAULT_CONFIG, data: { ...data, d_supply: 0n }, bstopRate: 2_000_000, timestamp: 617_280n })).toEqual({ ...data, d_supply: 0n, last_time: 617_280n })
    expect(accrueReserve({ config: DEFAULT_CONFIG, data, bstopRate: 2_000_000, timestamp: 0n })).toEqual(data)
    expect(() => accrueReserve({ config: DEFAULT_CONFIG, data: { ...data, last_time: 10n }, bstopRate: 0, timestamp: 9n })).toThrow(InvalidInputError)
  })

  it('rates never fall, interest splits between suppliers and backstop without creating value (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 7n, max: 10n ** 16n }),
        fc.integer({ min: 1, max: 99 }),
        fc.bigInt({ min: 10n ** 12n, max: 3n * 10n ** 12n }),
        fc.bigInt({ min: 10n ** 12n, max: 3n * 10n ** 12n }),
        fc.bigInt({ min: 1_000_000n, max: 100_000_000n }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.bigInt({ min: 1n, max: 10n * 31_536_000n }),
        (bSupply, usedPct, bRate, dRate, irMod, bstopRate, dt) => {
          const supply = (bSupply * bRate) / 10n ** 12n
          const dSupply = (supply * BigInt(usedPct)) / 100n / (dRate / 10n ** 12n + 1n)
          const before = { ...DEFAULT_DATA, b_supply: bSupply, d_supply: dSupply, b_rate: bRate, d_rate: dRate, ir_mod: irMod, last_time: 1000n }
          const after = accrueReserve({ config: DEFAULT_CONFIG, data: before, bstopRate, timestamp: 1000n + dt })
          expect(after.d_rate >= before.d_rate).toBe(true)
          expect(after.b_rate >= before.b_rate).toBe(true)
          expect(after.ir_mod >= 1_000_000n && after.ir_mod <= 100_000_000n).toBe(true)
          const accrued = toAssetFromDToken(after, dSupply) - toAssetFromDToken(before, dSupply)
          const supplierGain = toAssetFromBToken(after, bSupply) - toAssetFromBToken(before, bSupply)
          const credit = after.backstop_credit - before.backstop_credit
          expect(supplierGain + credit <= accrued).toBe(true)
        },
      ),
      RUNS,
    )
  })
})
