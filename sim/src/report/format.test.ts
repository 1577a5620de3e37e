import { describe, expect, it } from 'vitest'
import { formatAmount, formatCount, formatDuration, formatHours, formatLedger, formatPct, formatPrice, shortAddress } from './format.js'

describe('display formatting', () => {
  it('formats amounts with two decimals and separators, keeping small non-zero amounts visible', () => {
    expect(formatAmount(1234567.891)).toBe('1,234,567.89')
    expect(formatAmount(-1234.5)).toBe('-1,234.50')
    expect(formatAmount(0)).toBe('0.00')
    expect(formatAmount(0.0012345)).toBe('0.0012345')
    expect(formatAmount(-0.00000001)).toBe('0')
    expect(formatAmount(null)).toBe('—')
    expect(formatAmount(Number.NaN)).toBe('—')
  })

  it('formats percentages, prices, counts, ledgers and hours', () => {
    expect(formatPct(0.0012346, 4)).toBe('0.1235%')
    expect(formatPct(-0.00001)).toBe('0.00%')
    expect(formatPct(null)).toBe('—')
    expect(formatPrice(1.0012345)).toBe('1.0012345')
    expect(formatCount(12345)).toBe('12,345')
    expect(formatCount(2.5)).toBe('2.5')
    expect(formatCount(null)).toBe('—')
    expect(formatLedger(1234567)).toBe('1234567')
    expect(formatHours(5400)).toBe('1.5 h')
  })

  it('formats durations in their largest whole unit', () => {
    expect([45, 90, 60, 900, 3_600, 5_400, 86_400, 2 * 86_400, Number.NaN].map(formatDuration)).toEqual(['45 s', '90 s', '1 min', '15 min', '1 h', '1 h 30 min', '1 d', '2 d', '—'])
  })

  it('shortens long addresses only', () => {
    expect(shortAddress('CAKEEPERAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAZ')).toBe('CAKE…AAAZ')
    expect(shortAddress('GUSER1')).toBe('GUSER1')
  })
})
