import { describe, expect, it } from 'vitest'
import type { KeeperInfo } from '../../../src/chain/records/index.js'
import { keeperRow, keeperRows, ownKeeper } from './keeperRows.js'

const OP = 'GDFYZR' + 'A'.repeat(46) + '3WCX'

const keeper = (over: Partial<KeeperInfo> = {}): KeeperInfo => ({
  operator: OP,
  name: 'demo-keeper-1',
  stake: 10_000_000_000n,
  totalExecutions: 4,
  successfulFills: 3,
  totalProfit: 0n,
  avgResponseTimeMs: 120,
  hasActiveDraw: false,
  drawAmount: 0n,
  drawTimestamp: 0,
  registeredAt: 1,
  slashed: false,
  slashCount: 0,
  totalSlashed: 0n,
  ...over,
})

describe('keeperRow', () => {
  const ctx = { slashTimeout: 3600, closeTime: 10_000, me: undefined }

  it('win rate is fills / executions, a dash before the first execution', () => {
    expect(keeperRow(keeper(), ctx).winRate).toBe('75.00%')
    expect(keeperRow(keeper({ totalExecutions: 0, successfulFills: 0 }), ctx).winRate).toBe('—')
    expect(keeperRow(keeper(), ctx).operatorShort).toBe('GDFYZR…3WCX')
  })

  it('a draw has an age from the ledger clock and is slashable only strictly after slash_timeout', () => {
    const drawn = (ts: number) => keeper({ hasActiveDraw: true, drawAmount: 5_000_000n, drawTimestamp: ts })
    const young = keeperRow(drawn(10_000 - 3600), ctx)
    expect(young.drawAgeSeconds).toBe(3600)
    expect(young.drawAge).toBe('1 h 0 min')
    expect(young.draw).toBe(5_000_000n)
    expect(young.slashable).toBe(false)
    expect(keeperRow(drawn(10_000 - 3601), ctx).slashable).toBe(true)
    expect(keeperRow(keeper({ hasActiveDraw: true, drawAmount: 1n, drawTimestamp: 1, slashed: true }), ctx).slashable).toBe(false)
    expect(keeperRow(drawn(1), { ...ctx, closeTime: 0 }).slashable).toBe(false)
  })

  it('no draw: no age, not slashable', () => {
    const row = keeperRow(keeper(), ctx)
    expect(row.draw).toBeUndefined()
    expect(row.drawAge).toBe('—')
    expect(row.slashable).toBe(false)
  })

  it('marks and finds the connected wallet’s own record', () => {
    const other = keeper({ operator: 'G' + 'B'.repeat(55) })
    expect(keeperRows([keeper(), other], { ...ctx, me: OP }).map((r) => r.mine)).toEqual([true, false])
    expect(ownKeeper([other, keeper()], OP)?.name).toBe('demo-keeper-1')
    expect(ownKeeper([other], undefined)).toBeUndefined()
  })
})
