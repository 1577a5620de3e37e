import { describe, expect, it } from 'vitest'
import { formatLanes } from '../report/format.js'
import { keeperLanes } from './lanes.js'

describe('keeperLanes', () => {
  it('lists each lane with what the node accepted from it and what closes applied, operator first', () => {
    const lanes = keeperLanes({
      accounts: ['GOP', 'GC1', 'GC2'],
      sentBySource: new Map([
        ['GOP', 2],
        ['GC1', 1],
        ['GOTHER', 9],
      ]),
      applied: [{ source: 'GOP' }, { source: 'GC1' }, { source: 'GOP' }],
      tryAgainLater: 1,
    })
    expect(lanes).toEqual({ count: 3, accounts: ['GOP', 'GC1', 'GC2'], sent: [2, 1, 0], applied: [2, 1, 0], tryAgainLater: 1 })
    expect(formatLanes(lanes)).toBe('3: 2/1/0')
    expect(formatLanes(undefined)).toBe('—')
  })
})
