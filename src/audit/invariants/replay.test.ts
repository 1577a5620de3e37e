import { describe, expect, it } from 'vitest'
import { fixtureEvents, fixtureSnapshot } from '../../../test/audit/snapshotFixture.js'
import { priceFell, replayBackward } from './replay.js'

describe('replayBackward', () => {
  it('undoes the whole history down to empty books', () => {
    const { books } = fixtureSnapshot()
    const r = replayBackward(fixtureEvents(), books)
    expect(r.initial).toEqual({ totalUsdc: 0n, totalShares: 0n, totalProfit: 0n, activeLiq: 0n })
    expect(r.steps).toHaveLength(6)
    expect(r.steps.at(-1)!.after).toEqual(books)
    for (let i = 1; i < r.steps.length; i++) expect(r.steps[i]!.before).toEqual(r.steps[i - 1]!.after)
    // The draw moved active_liq only; the return brought it back and booked the profit.
    expect(r.steps[3]!.after.activeLiq - r.steps[3]!.before.activeLiq).toBe(100_0000000n)
    expect(r.steps[4]!.after.activeLiq).toBe(0n)
    expect(r.steps[4]!.after.totalProfit).toBe(10_0000000n)
  })
})

describe('priceFell', () => {
  const b = (totalUsdc: bigint, totalShares: bigint) => ({ totalUsdc, totalShares, totalProfit: 0n, activeLiq: 0n })
  it('compares exactly, an empty vault at 1', () => {
    expect(priceFell(b(0n, 0n), b(1000n, 1000n))).toBe(false)
    expect(priceFell(b(0n, 0n), b(999n, 1000n))).toBe(true)
    expect(priceFell(b(3n, 2n), b(4n, 3n))).toBe(true)
    expect(priceFell(b(3n, 2n), b(6n, 4n))).toBe(false)
    expect(priceFell(b(10n ** 30n + 1n, 10n ** 30n), b(10n ** 30n, 10n ** 30n))).toBe(true)
  })
})
