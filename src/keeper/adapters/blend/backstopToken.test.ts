import { describe, expect, it } from 'vitest'
import { cometExitUsdc, cometJoinUsdc, exitablePercent, type CometState } from './backstopToken.js'

const ONE = 1_0000000n
// Blend's fixture Comet: 80 % BLND / 20 % USDC, 0.3 % fee, 200k LP over ~50k USDC
const comet: CometState = { supply: 200_000n * ONE, usdcBalance: 50_025n * ONE, usdcWeight: 2_000_000n, swapFee: 30_000n }

describe('cometExitUsdc', () => {
  it('prices a single-sided exit with the weighted-pool formula (hand-checked)', () => {
    // 2,000 LP = 1 % of supply: 50,025 * (1 - 0.99^5) = 2,450.24; fee (1 - 0.8 * 0.003); 0.1 % margin
    const out = cometExitUsdc(comet, 2_000n * ONE)
    const expected = 50_025 * (1 - 0.99 ** 5) * (1 - 0.8 * 0.003) * 0.999
    expect(Number(out) / 1e7).toBeCloseTo(expected, 3)
    // less than the spot value (5 * USDC balance / supply per LP = 1.2506 USDC)
    expect(out).toBeLessThan(2_000n * 12_506_250n)
  })

  it('is 0 when Comet would refuse the exit (above 1/3 of its USDC) or the input is empty', () => {
    expect(cometExitUsdc(comet, 0n)).toBe(0n)
    expect(cometExitUsdc(comet, 20_000n * ONE)).toBe(0n) // 10 % of supply -> 41 % of the USDC
    expect(cometExitUsdc(comet, comet.supply)).toBe(0n)
  })
})

describe('exitablePercent', () => {
  it('is the largest percent of a lot whose exit Comet takes', () => {
    expect(exitablePercent(comet, 2_000n * ONE)).toBe(100)
    // 20,000 LP would take 41 % of the USDC: the largest part that stays within a third
    const p = exitablePercent(comet, 20_000n * ONE)!
    expect(p).toBeGreaterThan(1)
    expect(p).toBeLessThan(100)
    expect(cometExitUsdc(comet, (20_000n * ONE * BigInt(p)) / 100n)).toBeGreaterThan(0n)
    expect(cometExitUsdc(comet, (20_000n * ONE * BigInt(p + 1)) / 100n)).toBe(0n)
    expect(exitablePercent(comet, 0n)).toBeNull()
  })
})

describe('cometJoinUsdc', () => {
  it('prices minting LP with a single-sided USDC join (hand-checked), above the spot value', () => {
    // 2,000 LP = 1 % of supply: 50,025 * (1.01^5 - 1) = 2,550.77; / (1 - 0.8 * 0.003); 0.1 % margin
    const cost = cometJoinUsdc(comet, 2_000n * ONE)
    const expected = ((50_025 * (1.01 ** 5 - 1)) / (1 - 0.8 * 0.003)) * 1.001
    expect(Number(cost) / 1e7).toBeCloseTo(expected, 3)
    expect(cost).toBeGreaterThan(2_000n * 12_506_250n)
    // a round trip (join then exit) loses money
    expect(cometExitUsdc(comet, 2_000n * ONE)).toBeLessThan(cost)
  })

  it('is 0 for nothing or for a join Comet would refuse', () => {
    expect(cometJoinUsdc(comet, 0n)).toBe(0n)
    expect(cometJoinUsdc(comet, 20_000n * ONE)).toBe(0n)
  })
})
