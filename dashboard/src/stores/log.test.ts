import { describe, expect, it } from 'vitest'
import { LOG_CAP, appendLines, isRoutine, keeperLabel, statusText, toLogLine, type LogLine } from './log.js'

const line = (i: number): LogLine => ({ key: `0:${i}`, time: '2025-01-01T00:00:00Z', keeper: 'k', kind: 'scan', summary: `line ${i}` })

describe('the log', () => {
  it('keeps the newest lines last and at most LOG_CAP of them', () => {
    const many = Array.from({ length: LOG_CAP }, (_, i) => line(i))
    const next = appendLines(many, [line(LOG_CAP), line(LOG_CAP + 1)])
    expect(next).toHaveLength(LOG_CAP)
    expect(next[0]!.summary).toBe('line 2')
    expect(next.at(-1)!.summary).toBe(`line ${LOG_CAP + 1}`)
    expect(appendLines([line(1)], [line(2)], 5).map((l) => l.key)).toEqual(['0:1', '0:2'])
  })

  it('adds a line it already has only once (a reconnected stream sends its recent events again)', () => {
    const shown = appendLines([], [line(1), line(2)])
    expect(appendLines(shown, [line(1), line(2), line(3)]).map((l) => l.key)).toEqual(['0:1', '0:2', '0:3'])
    expect(appendLines(shown, [line(2)])).toBe(shown)
    expect(appendLines([], [line(4), line(4)]).map((l) => l.key)).toEqual(['0:4'])
  })

  it('calls scans routine, and what a depositor cares about not', () => {
    expect(isRoutine({ kind: 'scan' })).toBe(true)
    for (const kind of ['fill', 'draw', 'lifecycle', 'register', 'fill_lost', 'miss', 'recovery']) expect(isRoutine({ kind })).toBe(false)
  })

  it('turns a keeper event into a line keyed by keeper index and event id', () => {
    expect(toLogLine(2, '127.0.0.1:8082', { id: 7, ts: '2025-01-01T00:00:07Z', kind: 'fill', message: 'blend: GA: filled' })).toEqual({
      key: '2:7:2025-01-01T00:00:07Z',
      time: '2025-01-01T00:00:07Z',
      keeper: '127.0.0.1:8082',
      kind: 'fill',
      summary: 'blend: GA: filled',
    })
    expect(toLogLine(0, 'k', { id: 8, ts: '2025-01-01T00:00:08Z', kind: 'progress', message: 'block 3', data: { ledger: 199 } }).ledger).toBe(199)
    expect(toLogLine(0, 'k', { id: 9, ts: '2025-01-01T00:00:09Z', kind: 'plan', message: 'planned', data: { targetLedger: 286 } }).ledger).toBeUndefined()
    expect(keeperLabel('http://127.0.0.1:8080/')).toBe('127.0.0.1:8080')
    expect(keeperLabel('not a url')).toBe('not a url')
  })

  it('says the connection status in words', () => {
    expect(statusText({ state: 'open', since: 0 })).toBe('connected')
    expect(statusText({ state: 'connecting', attempt: 0 })).toBe('connecting…')
    expect(statusText({ state: 'connecting', attempt: 2 })).toBe('reconnecting… (attempt 3)')
    expect(statusText({ state: 'retrying', attempt: 3, inMs: 4_000 })).toBe('disconnected, retrying in 4 s (attempt 3)')
    expect(statusText({ state: 'closed' })).toBe('closed')
  })
})
