import { describe, expect, it } from 'vitest'
import type { KeeperInfo } from '../../../src/chain/records/index.js'
import { formatDelay, keeperRow, keeperRows, ownKeeper } from './keeperRows.js'

const OP = 'GDFYZR' + 'A'.repeat(46) + '3WCX'
const EXECUTOR = 'CBEXEC' + 'E'.repeat(46) + 'UTOR'

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
  approved: false,
  drawLimit: 9_000_000_000n,
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
    expect(young.drawSince).toBe('01:46:40')
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

  it('a keeper registered with its own account: that account is the operator, no executor', () => {
    const row = keeperRow(keeper(), ctx)
    expect(row.registered).toBe(OP)
    expect(row.operator).toBe(OP)
    expect(row.executor).toBeUndefined()
  })

  it('a keeper registered through an executor contract: the contract is the executor, its owner the operator', () => {
    const k = keeper({ operator: EXECUTOR })
    const unknownOwner = keeperRow(k, ctx)
    expect(unknownOwner.registered).toBe(EXECUTOR)
    expect(unknownOwner.executor).toBe(EXECUTOR)
    expect(unknownOwner.operator).toBeUndefined()
    expect(unknownOwner.operatorShort).toBe('—')
    const known = keeperRow(k, { ...ctx, owners: { [EXECUTOR]: OP } })
    expect(known.operator).toBe(OP)
    expect(known.operatorShort).toBe('GDFYZR…3WCX')
    expect(known.executor).toBe(EXECUTOR)
  })

  it('the average fill delay: a dash before any execution, 0 as on time, then in ms, s or minutes', () => {
    expect(keeperRow(keeper({ totalExecutions: 0, successfulFills: 0, avgResponseTimeMs: 0 }), ctx).avgDelay).toBe('—')
    expect(keeperRow(keeper({ avgResponseTimeMs: 0 }), ctx).avgDelay).toBe('0 s (on time)')
    expect(keeperRow(keeper(), ctx).avgDelay).toBe('120 ms')
    expect(formatDelay(12_500)).toBe('12.5 s')
    expect(formatDelay(125_000)).toBe('2 min 5 s')
  })

  it('carries the bond (stake) and the two-step draw limit it backs', () => {
    const row = keeperRow(keeper({ stake: 1_111_111_1111112n, drawLimit: 1_000_000_0000000n }), ctx)
    expect(row.stake).toBe(1_111_111_1111112n)
    expect(row.drawLimit).toBe(1_000_000_0000000n)
  })

  it('marks and finds the connected wallet’s own record', () => {
    const other = keeper({ operator: 'G' + 'B'.repeat(55) })
    expect(keeperRows([keeper(), other], { ...ctx, me: OP }).map((r) => r.mine)).toEqual([true, false])
    expect(ownKeeper([other, keeper()], OP)?.name).toBe('demo-keeper-1')
    expect(ownKeeper([other], undefined)).toBeUndefined()
  })
})
