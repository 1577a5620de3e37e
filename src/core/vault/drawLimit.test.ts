import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bondForDraw, drawLimit } from '../index.js'

const rate = fc.integer({ min: 1, max: 5_000 })
const amount = fc.bigInt({ min: 0n, max: 10n ** 20n })

describe('drawLimit and bondForDraw', () => {
  it('a draw at the limit and the penalty are both covered by the stake', () => {
    fc.assert(
      fc.property(amount, rate, (stake, bps) => {
        const penalty = (stake * BigInt(bps)) / 10_000n
        expect(drawLimit(stake, bps) + penalty).toBeLessThanOrEqual(stake)
      }),
      { numRuns: 1_000 },
    )
  })

  it('min_stake plus bondForDraw(d) backs a draw of d, and one unit less of bond may not', () => {
    fc.assert(
      fc.property(amount, fc.bigInt({ min: 1n, max: 10n ** 12n }), rate, (d, minStake, bps) => {
        const bond = bondForDraw(d, minStake, bps)
        expect(drawLimit(minStake + bond, bps)).toBeGreaterThanOrEqual(d)
        if (bond > 0n) expect(drawLimit(minStake + bond - 1n, bps)).toBeLessThan(d)
      }),
      { numRuns: 1_000 },
    )
  })

  it('matches the registry on the testnet preset and refuses rates the registry refuses', () => {
    expect(drawLimit(100_0000000n, 1000)).toBe(90_0000000n)
    expect(bondForDraw(90_0000000n, 100_0000000n, 1000)).toBe(0n)
    expect(() => drawLimit(1n, 0)).toThrow(/slashRateBps/)
    expect(() => drawLimit(-1n, 1000)).toThrow(/stake/)
  })
})
