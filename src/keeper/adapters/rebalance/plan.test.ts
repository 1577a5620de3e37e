import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrBadRebalanceInput, planRebalance } from './plan.js'

const ONE = 1_0000000n

describe('planRebalance', () => {
  it('worked example: 80/20 against 50/50 buys 300 worth of XLM with base', () => {
    const plan = planRebalance({
      base: 'USDC',
      driftThresholdBps: 500,
      holdings: [
        { asset: 'USDC', balance: 800n * ONE, price: ONE, weightBps: 5000 },
        { asset: 'XLM', balance: 2000n * ONE, price: ONE / 10n, weightBps: 5000 },
      ],
    })
    expect(plan.totalValue).toBe(1000n * ONE)
    expect(plan.maxDriftBps).toBe(3000)
    expect(plan.trades).toEqual([{ side: 'buy', asset: 'XLM', amountIn: 300n * ONE, value: 300n * ONE }])
  })

  it('sells over-weight assets for base', () => {
    const plan = planRebalance({
      base: 'USDC',
      driftThresholdBps: 100,
      holdings: [
        { asset: 'USDC', balance: 100n * ONE, price: ONE, weightBps: 4000 },
        { asset: 'XLM', balance: 4000n * ONE, price: ONE / 10n, weightBps: 3000 }, // 400
        { asset: 'BTC', balance: ONE / 2n, price: 1000n * ONE, weightBps: 3000 }, // 500
      ],
    })
    // total 1000: targets 400/300/300
    expect(plan.trades).toEqual([
      { side: 'sell', asset: 'XLM', amountIn: 1000n * ONE, value: 100n * ONE },
      { side: 'sell', asset: 'BTC', amountIn: ONE / 5n, value: 200n * ONE },
    ])
  })

  it('does nothing when drift is within the threshold (boundary inclusive)', () => {
    const plan = planRebalance({
      base: 'USDC',
      driftThresholdBps: 500,
      holdings: [
        { asset: 'USDC', balance: 550n * ONE, price: ONE, weightBps: 5000 },
        { asset: 'XLM', balance: 4500n * ONE, price: ONE / 10n, weightBps: 5000 },
      ],
    })
    expect(plan.maxDriftBps).toBe(500)
    expect(plan.trades).toEqual([])
  })

  it('refuses bad weights, prices, thresholds and a missing base', () => {
    const h = [{ asset: 'USDC', balance: ONE, price: ONE, weightBps: 10_000 }]
    expect(() => planRebalance({ base: 'USDC', driftThresholdBps: 10_001, holdings: h })).toThrow(ErrBadRebalanceInput)
    expect(() => planRebalance({ base: 'X', driftThresholdBps: 5, holdings: h })).toThrow(/base/)
    expect(() => planRebalance({ base: 'USDC', driftThresholdBps: 5, holdings: [{ ...h[0]!, weightBps: 9000 }] })).toThrow(/weights/)
    expect(() => planRebalance({ base: 'USDC', driftThresholdBps: 5, holdings: [{ ...h[0]!, price: 0n }] })).toThrow(/price/)
  })

  it('never sells more than the balance of an asset nor moves more than the total value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 9n }), { minLength: 2, maxLength: 2 }),
        fc.integer({ min: 1, max: 9998 }),
        (balances, prices, w0) => {
          const w1 = Math.floor((10_000 - w0) / 2)
          const w2 = 10_000 - w0 - w1
          const holdings = [
            { asset: 'B', balance: balances[0]!, price: ONE, weightBps: w0 },
            { asset: 'X', balance: balances[1]!, price: prices[0]!, weightBps: w1 },
            { asset: 'Y', balance: balances[2]!, price: prices[1]!, weightBps: w2 },
          ]
          const plan = planRebalance({ base: 'B', driftThresholdBps: 0, holdings })
          for (const t of plan.trades) {
            const d = plan.drifts.find((x) => x.asset === t.asset)!
            if (t.side === 'sell') expect(t.amountIn).toBeLessThanOrEqual(d.balance)
            expect(t.value).toBeLessThanOrEqual(plan.totalValue)
          }
        },
      ),
      { numRuns: 1000 },
    )
  })
})
