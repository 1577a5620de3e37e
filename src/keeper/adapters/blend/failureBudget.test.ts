import { describe, expect, it } from 'vitest'
import { FailureBudget } from './failureBudget.js'

describe('FailureBudget', () => {
  it('doubles the wait after each failure and stops at the budget', () => {
    const b = new FailureBudget(3)
    expect(b.limits('a')).toEqual({ spent: false, notBefore: 0, maxPercent: 100, failures: 0 })
    expect(b.record('a', 100, 'other', 40)).toMatchObject({ failures: 1, notBefore: 102, maxPercent: 100 })
    expect(b.record('a', 102, 'other', 40)).toMatchObject({ failures: 2, notBefore: 105 })
    expect(b.limits('a').spent).toBe(false)
    expect(b.record('a', 105, 'other', 40)).toMatchObject({ failures: 3, notBefore: 110 })
    expect(b.limits('a').spent).toBe(true)
    // other auctions are not affected
    expect(b.limits('b').spent).toBe(false)
  })
  it('halves the percent after a failure on the price, never below 1, never back up', () => {
    const b = new FailureBudget(10)
    expect(b.record('a', 1, 'slippage', 60).maxPercent).toBe(30)
    expect(b.record('a', 2, 'other', 60).maxPercent).toBe(30)
    expect(b.record('a', 3, 'slippage', 30).maxPercent).toBe(15)
    expect(b.record('a', 4, 'slippage', 1).maxPercent).toBe(1)
  })
  it('a landed fill or a closed auction clears the record', () => {
    const b = new FailureBudget(1)
    b.record('a', 1, 'other', 10)
    b.record('b', 1, 'other', 10)
    b.clear('a')
    expect(b.limits('a').spent).toBe(false)
    b.retain(new Set(['c']))
    expect(b.limits('b').spent).toBe(false)
    expect(() => new FailureBudget(0)).toThrow(RangeError)
  })
})
