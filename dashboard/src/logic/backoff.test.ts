import { describe, expect, it } from 'vitest'
import { DEFAULT_BACKOFF, backoffDelay, backoffSchedule } from './backoff.js'

describe('backoffDelay', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect(backoffSchedule(8)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
  })

  it('stays at the cap for any later attempt, without overflowing', () => {
    expect(backoffDelay(1_000)).toBe(DEFAULT_BACKOFF.maxMs)
    expect(backoffDelay(Number.MAX_SAFE_INTEGER)).toBe(DEFAULT_BACKOFF.maxMs)
  })

  it('follows another policy', () => {
    expect(backoffSchedule(5, { initialMs: 250, factor: 3, maxMs: 5_000 })).toEqual([250, 750, 2_250, 5_000, 5_000])
    expect(backoffSchedule(3, { initialMs: 500, factor: 1, maxMs: 500 })).toEqual([500, 500, 500])
  })

  it('rejects a negative or fractional attempt and a bad policy', () => {
    expect(() => backoffDelay(-1)).toThrow(RangeError)
    expect(() => backoffDelay(1.5)).toThrow(RangeError)
    expect(() => backoffDelay(0, { initialMs: 0, factor: 2, maxMs: 10 })).toThrow(RangeError)
    expect(() => backoffDelay(0, { initialMs: 100, factor: 0.5, maxMs: 1000 })).toThrow(RangeError)
    expect(() => backoffDelay(0, { initialMs: 100, factor: 2, maxMs: 50 })).toThrow(RangeError)
  })
})
