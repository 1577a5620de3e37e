import { describe, expect, it } from 'vitest'
import { formatAmount, formatDelta } from './format.js'

describe('formatAmount', () => {
  it('writes 7 decimals exactly, with the sign', () => {
    expect(formatAmount(0n)).toBe('0.0000000')
    expect(formatAmount(1n)).toBe('0.0000001')
    expect(formatAmount(-1n)).toBe('-0.0000001')
    expect(formatAmount(12_5000000n)).toBe('12.5000000')
    expect(formatAmount(-1234_0000000n)).toBe('-1234.0000000')
    expect(formatAmount(170141183460469231731687303715884105727n)).toBe('17014118346046923173168730371588.4105727')
  })
  it('formatDelta shows a plus for surpluses', () => {
    expect(formatDelta(3n)).toBe('+0.0000003')
    expect(formatDelta(0n)).toBe('0.0000000')
    expect(formatDelta(-3n)).toBe('-0.0000003')
  })
})
