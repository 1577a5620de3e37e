import { describe, expect, it } from 'vitest'
import { shortAddress } from './address.js'
import { formatDuration } from './time.js'

describe('formatDuration', () => {
  it('shows at most two units', () => {
    expect(formatDuration(0)).toBe('0 s')
    expect(formatDuration(-3)).toBe('0 s')
    expect(formatDuration(59.9)).toBe('59 s')
    expect(formatDuration(125)).toBe('2 min 5 s')
    expect(formatDuration(3 * 3600 + 59)).toBe('3 h 0 min')
    expect(formatDuration(2 * 86_400 + 4 * 3600 + 7)).toBe('2 d 4 h')
  })
})

describe('shortAddress', () => {
  it('keeps the first six and last four characters', () => {
    expect(shortAddress('GDFYZR' + 'A'.repeat(46) + '3WCX')).toBe('GDFYZR…3WCX')
    expect(shortAddress('short')).toBe('short')
  })
})
