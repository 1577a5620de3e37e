import { describe, expect, it } from 'vitest'
import { FailureBudget, JITTER_LEDGERS, POOL_WAIT_CAP } from './failureBudget.js'

describe('FailureBudget', () => {
  it('doubles the wait after each failure; a spent budget waits for the free lot, then stops for good', () => {
    const b = new FailureBudget(3)
    const free = 500
    expect(b.limits('a')).toEqual({ spent: false, notBefore: 0, maxPercent: 100, failures: 0 })
    expect(b.record('a', 100, 'slippage', 40, free)).toMatchObject({ failures: 1, notBefore: 102, maxPercent: 20 })
    expect(b.record('a', 102, 'other', 20, free)).toMatchObject({ failures: 2, notBefore: 105 })
    expect(b.limits('a').spent).toBe(false)
    // the third: the auction waits for block 400 of its curve, whole again
    expect(b.record('a', 105, 'other', 20, free)).toMatchObject({ failures: 0, secondRound: true, notBefore: 500, maxPercent: 100 })
    expect(b.limits('a')).toEqual({ spent: false, notBefore: 500, maxPercent: 100, failures: 0 })
    b.record('a', 501, 'other', 100, free)
    b.record('a', 503, 'other', 100, free)
    expect(b.limits('a').spent).toBe(false)
    b.record('a', 506, 'other', 100, free)
    expect(b.limits('a').spent).toBe(true)
    // other auctions are not affected
    expect(b.limits('b').spent).toBe(false)
  })
  it('a budget spent once the lot is free starts its second round at once, after the usual wait', () => {
    const b = new FailureBudget(1)
    expect(b.record('a', 600, 'other', 10, 500)).toMatchObject({ secondRound: true, notBefore: 602 })
    b.record('a', 602, 'other', 10, 500)
    expect(b.limits('a').spent).toBe(true)
  })
  it('halves the percent after a failure on the price, never below 1, never back up', () => {
    const b = new FailureBudget(10)
    expect(b.record('a', 1, 'slippage', 60, 500).maxPercent).toBe(30)
    expect(b.record('a', 2, 'other', 60, 500).maxPercent).toBe(30)
    expect(b.record('a', 3, 'slippage', 30, 500).maxPercent).toBe(15)
    expect(b.record('a', 4, 'slippage', 1, 500).maxPercent).toBe(1)
  })
  it('spreads the waits of keepers that failed together, the same way every time', () => {
    const waits = (salt: string) =>
      Array.from({ length: 20 }, (_, i) => new FailureBudget(3, salt).record(`user${i}:100`, 200, 'slippage', 50, 500).notBefore - 202)
    const a = waits('GKEEPERA')
    for (const w of a) expect(w >= 0 && w <= JITTER_LEDGERS).toBe(true)
    expect(waits('GKEEPERA')).toEqual(a)
    expect(waits('GKEEPERB')).not.toEqual(a)
    expect(new Set(a).size).toBe(JITTER_LEDGERS + 1)
  })
  it('a pool a sale failed in waits 2, 3, 5, ... ledgers for every auction, at most the cap; a landed sale clears it', () => {
    const b = new FailureBudget(3)
    expect(b.poolsFrom(['WETH', 'WBTC'])).toBe(0)
    expect(b.contested('WETH', 100)).toBe(102)
    expect(b.contested('WETH', 102)).toBe(105)
    expect(b.poolsFrom(['WETH', 'WBTC'])).toBe(105)
    expect(b.poolsFrom(['WBTC'])).toBe(0)
    for (let i = 0; i < 10; i++) b.contested('WETH', 200)
    expect(b.contested('WETH', 300)).toBe(300 + POOL_WAIT_CAP + 1)
    b.sold('WETH')
    expect(b.poolsFrom(['WETH'])).toBe(0)
    expect(b.contested('WETH', 400)).toBe(402)
  })
  it('a landed fill or a closed auction clears the record', () => {
    const b = new FailureBudget(1)
    b.record('a', 1, 'other', 10, 500)
    b.record('a', 3, 'other', 10, 500)
    b.record('b', 1, 'other', 10, 500)
    b.record('b', 3, 'other', 10, 500)
    expect(b.limits('a').spent).toBe(true)
    b.clear('a')
    expect(b.limits('a').spent).toBe(false)
    b.retain(new Set(['c']))
    expect(b.limits('b').spent).toBe(false)
    expect(() => new FailureBudget(0)).toThrow(RangeError)
  })
})
