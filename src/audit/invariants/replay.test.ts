import { describe, expect, it } from 'vitest'
import { lockedProfit } from '../../core/index.js'
import { FLASH_FEE, FLASH_PROFIT, LOCK, LOCK_AFTER_RETURN, RETURN_FEE, RETURN_PROFIT, fixtureEvents, fixtureSnapshot, timeOf } from '../../../test/audit/snapshotFixture.js'
import { EMPTY_LOCK, bookedProfit, freeTotals, priceFell, profitLocks, replayBackward, undo } from './replay.js'

describe('replayBackward', () => {
  it('undoes the whole history down to empty totals', () => {
    const { books } = fixtureSnapshot()
    const r = replayBackward(fixtureEvents(), books)
    expect(r.initial).toEqual({ totalUsdc: 0n, totalShares: 0n, totalProfit: 0n, activeLiq: 0n })
    expect(r.steps).toHaveLength(8)
    expect(r.steps.at(-1)!.after).toEqual({ totalUsdc: books.totalUsdc, totalShares: books.totalShares, totalProfit: books.totalProfit, activeLiq: 0n })
    for (let i = 1; i < r.steps.length; i++) expect(r.steps[i]!.before).toEqual(r.steps[i - 1]!.after)
    // The draw moved active_liq only; the return brought the principal back (its fee left again) and booked the profit.
    expect(r.steps[3]!.after.activeLiq - r.steps[3]!.before.activeLiq).toBe(100_0000000n)
    expect(r.steps[4]!.after.activeLiq).toBe(0n)
    expect(r.steps[4]!.after.totalProfit).toBe(RETURN_PROFIT)
    expect(r.steps[4]!.after.totalUsdc - r.steps[4]!.before.totalUsdc).toBe(RETURN_PROFIT)
    // The flash draw booked its profit and left active_liq alone; a request moves no total.
    expect(r.steps[6]!.after.totalProfit - r.steps[6]!.before.totalProfit).toBe(FLASH_PROFIT)
    expect(r.steps[6]!.after.activeLiq).toBe(0n)
    expect(r.steps[7]!.before).toEqual(r.steps[7]!.after)
    expect(RETURN_FEE + FLASH_FEE).toBe(3_0000000n)
  })
  it('a write-off restores what it recovered and books a gain as profit', () => {
    const after = { totalUsdc: 1000n, totalShares: 1000n, totalProfit: 30n, activeLiq: 0n }
    const gain = { id: 'w', ledger: 1, kind: 'write_off', account: 'K', writtenDown: 50n, recovered: 60n } as const
    expect(bookedProfit(gain)).toBe(10n)
    expect(undo(gain, after)).toEqual({ totalUsdc: 990n, totalShares: 1000n, totalProfit: 20n, activeLiq: 50n })
    const loss = { ...gain, recovered: 20n }
    expect(bookedProfit(loss)).toBe(0n)
    expect(undo(loss, after)).toEqual({ totalUsdc: 1030n, totalShares: 1000n, totalProfit: 30n, activeLiq: 50n })
  })
})

describe('profitLocks', () => {
  it('rebuilds the lock from empty with the whole history', () => {
    const events = fixtureEvents()
    const l = profitLocks(events, LOCK, { fromEmpty: true, unlockSecs: 3600n })
    expect(l.rebuilt).toEqual(LOCK)
    expect(l.problem).toBeUndefined()
    expect(l.steps[3]).toEqual({ before: EMPTY_LOCK, after: EMPTY_LOCK })
    expect(l.steps[4]).toEqual({ before: EMPTY_LOCK, after: LOCK_AFTER_RETURN })
    expect(l.steps[5]).toEqual({ before: LOCK_AFTER_RETURN, after: LOCK_AFTER_RETURN })
    expect(l.steps[6]).toEqual({ before: LOCK_AFTER_RETURN, after: LOCK })
  })
  it('with part of it, knows only the lock after the last booking', () => {
    const events = fixtureEvents().slice(3)
    const l = profitLocks(events, LOCK, { fromEmpty: false, unlockSecs: 3600n })
    expect(l.rebuilt).toBeUndefined()
    expect(l.steps.map((s) => [s.before === undefined, s.after === undefined])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [true, false],
      [false, false],
    ])
  })
  it('stops, saying why, at a booking without a close time', () => {
    const events = fixtureEvents()
    delete (events[4] as { time?: bigint }).time
    const l = profitLocks(events, LOCK, { fromEmpty: true, unlockSecs: 3600n })
    expect(l.rebuilt).toBeUndefined()
    expect(l.problem).toMatch(/the return of ledger 14 booked profit but the node gave no close time/)
  })
})

describe('freeTotals', () => {
  it('takes the locked profit at the time out of total_usdc', () => {
    const t = timeOf(16) + 60n
    expect(freeTotals({ totalUsdc: 10_000_0000000n, totalShares: 5n }, LOCK, t)).toEqual({ totalUsdc: 10_000_0000000n - lockedProfit(LOCK, t), totalShares: 5n })
    expect(freeTotals({ totalUsdc: 1n, totalShares: 5n }, undefined, t)).toBeUndefined()
    expect(freeTotals({ totalUsdc: 1n, totalShares: 5n }, LOCK, undefined)).toBeUndefined()
    expect(freeTotals({ totalUsdc: -1n, totalShares: 5n }, LOCK, t)).toBeUndefined()
  })
})

describe('priceFell', () => {
  const b = (totalUsdc: bigint, totalShares: bigint) => ({ totalUsdc, totalShares })
  it('compares exactly, an empty vault at 1', () => {
    expect(priceFell(b(0n, 0n), b(1000n, 1000n))).toBe(false)
    expect(priceFell(b(0n, 0n), b(999n, 1000n))).toBe(true)
    expect(priceFell(b(3n, 2n), b(4n, 3n))).toBe(true)
    expect(priceFell(b(3n, 2n), b(6n, 4n))).toBe(false)
    expect(priceFell(b(10n ** 30n + 1n, 10n ** 30n), b(10n ** 30n, 10n ** 30n))).toBe(true)
  })
})
