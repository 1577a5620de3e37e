import { describe, expect, it } from 'vitest'
import { usdcForShares } from '../../../src/core/index.js'
import { accountReturn, earningsFigure, valueOfShares } from './earnings.js'

const U = 10_000_000n
const DAY = 86_400

describe('earnings', () => {
  it('values shares with the core’s usdcForShares', () => {
    const state = { totalUsdc: 1100n * U, totalShares: 1000n * U }
    expect(valueOfShares(909_090_909n, state)).toBe(usdcForShares({ shares: 909_090_909n, ...state }))
    expect(valueOfShares(0n, state)).toBe(0n)
  })

  it('reads a few stroops either way as rounding, not a loss', () => {
    expect(earningsFigure(2_499_999_999n, 2_500_000_000n)).toEqual({ amount: -1n, rounding: true, text: '0 USDC (rounding)' })
    expect(earningsFigure(2_500_000_009n, 2_500_000_000n).text).toBe('0 USDC (rounding)')
    expect(earningsFigure(2_600_000_000n, 2_500_000_000n)).toEqual({ amount: 100_000_000n, rounding: false, text: '+10.0000000 USDC' })
    expect(earningsFigure(2_400_000_000n, 2_500_000_000n).text).toBe('−10.0000000 USDC')
    expect(earningsFigure(2_500_000_010n, 2_500_000_000n).text).toBe('+0.0000010 USDC')
  })
})

describe('accountReturn', () => {
  const history = [
    { timestamp: 0, price: 10_000_000n, ledger: 10 },
    { timestamp: 2 * DAY, price: 10_100_000n, ledger: 20 },
    { timestamp: 12 * DAY, price: 10_200_000n, ledger: 30 },
  ]

  it('covers the share price from the deposit that began the holding, APY over ≥ 7 days', () => {
    const r = accountReturn(history, { ledger: 20, closeTime: 2 * DAY })
    expect(r.apy.kind).toBe('annualized')
    expect(r.apy.text).toMatch(/APY$/)
    expect(r.period).toBe('Over 10 d 0 h since your deposit of 1970-01-03 00:00:00 UTC · ledger 20: the share price’s change, as APY once the period reaches 7 days, cumulative before.')
  })

  it('is cumulative over a shorter holding and says when the history is only what the node keeps', () => {
    const short = accountReturn(history.slice(0, 2), { ledger: 10, closeTime: 0 })
    expect(short.apy.text).toBe('1.00% cumulative')
    const partial = accountReturn(history, undefined)
    expect(partial.period).toMatch(/^Over 12 d 0 h since ledger 10, the oldest history this node keeps/)
    expect(accountReturn([], undefined).apy.text).toBe('—')
  })
})
