import { describe, expect, it } from 'vitest'
import { shortAddress } from './address.js'
import { formatDuration, formatLedgerTime, keeperTimeOnLedgerClock, keeperTimeText, ledgersAheadText, onLedgerClock, utcClockOf } from './time.js'

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

describe('ledgersAheadText', () => {
  it('turns ledgers into time at the network’s ledger time', () => {
    expect(ledgersAheadText(180, 100, 2500)).toBe('in about 3 min 20 s at 2.5 s per ledger')
    expect(ledgersAheadText(180, 100, 5000)).toBe('in about 6 min 40 s at 5 s per ledger')
    expect(ledgersAheadText(180, null, 2500)).toBe('about 7 min 30 s after the start at 2.5 s per ledger')
    expect(ledgersAheadText(100, 180, 2500)).toBe('reached')
  })
})

describe('formatLedgerTime', () => {
  const t = Date.UTC(2025, 0, 1, 14, 3, 22) / 1000

  it('is the UTC clock time with the ledger beside it', () => {
    expect(formatLedgerTime(t, 555)).toBe('14:03:22 · ledger 555')
    expect(formatLedgerTime(t + 0.4)).toBe('14:03:22')
  })

  it('says what it knows when the time is unknown', () => {
    expect(formatLedgerTime(undefined)).toBe('—')
    expect(formatLedgerTime(0, 7)).toBe('ledger 7')
    expect(formatLedgerTime(Number.NaN)).toBe('—')
  })
})

describe('the ledger clock for keeper times', () => {
  // The sandbox's ledger clock runs an hour ahead of wall time.
  const seenAtMs = Date.UTC(2025, 0, 1, 12, 0, 0)
  const anchor = { sequence: 555, closeTime: seenAtMs / 1000 + 3600, seenAtMs }

  it('moves a wall-clock instant by the ledger clock’s offset', () => {
    expect(onLedgerClock(seenAtMs - 10_000, anchor)).toBe(anchor.closeTime - 10)
    expect(keeperTimeOnLedgerClock('2025-01-01T11:59:50.000Z', anchor, 553)).toBe('12:59:50 · ledger 553')
    expect(keeperTimeOnLedgerClock('2025-01-01T11:59:50.000Z', anchor)).toBe('12:59:50')
  })

  it('is undefined without a ledger clock or a time', () => {
    expect(keeperTimeOnLedgerClock('2025-01-01T11:59:50.000Z', undefined)).toBeUndefined()
    expect(keeperTimeOnLedgerClock(null, anchor)).toBeUndefined()
    expect(keeperTimeOnLedgerClock('not a time', anchor)).toBeUndefined()
  })

  it('falls back to the UTC clock an ISO time was written in, never the raw ISO text', () => {
    expect(utcClockOf('2025-01-01T11:59:50.000Z')).toBe('11:59:50')
    expect(utcClockOf('garbage')).toBe('—')
  })

  it('shows a keeper time on the ledger clock, or marks the keeper’s clock before the ledger clock is read', () => {
    expect(keeperTimeText('2025-01-01T11:59:50.000Z', anchor, 553)).toBe('12:59:50 · ledger 553')
    expect(keeperTimeText('2025-01-01T11:59:50.000Z', undefined)).toBe('11:59:50 keeper clock')
    expect(keeperTimeText('2025-01-01T11:59:50.000Z', undefined, 553)).toBe('11:59:50 keeper clock · ledger 553')
  })
})

describe('shortAddress', () => {
  it('keeps the first six and last four characters', () => {
    expect(shortAddress('GDFYZR' + 'A'.repeat(46) + '3WCX')).toBe('GDFYZR…3WCX')
    expect(shortAddress('short')).toBe('short')
  })
})
