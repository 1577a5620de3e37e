import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clampPriority } from './clampPriority.js'
import { sortTasksByPriority } from './sortTasksByPriority.js'
import { taskPriority } from './taskPriority.js'

describe('taskPriority', () => {
  it('maps the thresholds exactly (7 decimals and other scalars)', () => {
    expect(taskPriority(0n)).toBe(10)
    expect(taskPriority(4_999_999n)).toBe(10)
    expect(taskPriority(5_000_000n)).toBe(7)
    expect(taskPriority(7_999_999n)).toBe(7)
    expect(taskPriority(8_000_000n)).toBe(4)
    expect(taskPriority(9_499_999n)).toBe(4)
    expect(taskPriority(9_500_000n)).toBe(1)
    expect(taskPriority(50_000_000n)).toBe(1)
    expect(taskPriority(null)).toBe(1)
    expect(taskPriority(49n, 100n)).toBe(10)
    expect(taskPriority(94n, 100n)).toBe(4)
  })
  it('never rises as the health factor rises (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 3n * 10n ** 7n }), fc.bigInt({ min: 0n, max: 3n * 10n ** 7n }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(taskPriority(hi) <= taskPriority(lo)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('sortTasksByPriority', () => {
  it('worked example', () => {
    const tasks = [
      { id: 'a', priority: 1 },
      { id: 'b', priority: 7 },
      { id: 'c', priority: 10 },
      { id: 'd', priority: 7 },
      { id: 'e', priority: 1 },
    ]
    expect(sortTasksByPriority(tasks).map((t) => t.id)).toEqual(['c', 'b', 'd', 'a', 'e'])
    expect(tasks.map((t) => t.id)).toEqual(['a', 'b', 'c', 'd', 'e']) // input untouched
  })
  it('is a stable sort, highest priority first (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(1, 4, 7, 10), { maxLength: 60 }), (priorities) => {
        const tasks = priorities.map((priority, id) => ({ id, priority }))
        const sorted = sortTasksByPriority(tasks)
        expect(sorted.length).toBe(tasks.length)
        expect(new Set(sorted.map((t) => t.id)).size).toBe(tasks.length)
        for (let i = 1; i < sorted.length; i++) {
          const prev = sorted[i - 1]!
          const cur = sorted[i]!
          expect(prev.priority >= cur.priority).toBe(true)
          if (prev.priority === cur.priority) expect(prev.id < cur.id).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })
})

describe('clampPriority', () => {
  it('brings any number into [0, 10]; NaN and non-numbers count as 0', () => {
    expect(clampPriority(99)).toBe(10)
    expect(clampPriority(-3)).toBe(0)
    expect(clampPriority(Number.NaN)).toBe(0)
    expect(clampPriority(Number.POSITIVE_INFINITY)).toBe(10)
    expect(clampPriority(Number.NEGATIVE_INFINITY)).toBe(0)
    expect(clampPriority('7' as unknown as number)).toBe(0)
    expect(clampPriority(4)).toBe(4)
    expect(clampPriority(2.5)).toBe(2.5)
  })
})

describe('sortTasksByPriority with priorities outside 0-10', () => {
  it('sorts 99 with the 10s, -3 and NaN with the 0s, stable within each', () => {
    const tasks = [
      { id: 'a', priority: 10 },
      { id: 'b', priority: 99 },
      { id: 'c', priority: Number.NaN },
      { id: 'd', priority: 4 },
      { id: 'e', priority: -3 },
      { id: 'f', priority: 0 },
    ]
    expect(sortTasksByPriority(tasks).map((t) => t.id)).toEqual(['a', 'b', 'd', 'c', 'e', 'f'])
  })

  it('is a stable sort by the clamped priority for any numbers, NaN and infinities included (property)', () => {
    const anyPriority = fc.oneof(
      fc.double(),
      fc.integer({ min: -1000, max: 1000 }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 10, -0),
    )
    fc.assert(
      fc.property(fc.array(anyPriority, { maxLength: 60 }), (priorities) => {
        const tasks = priorities.map((priority, id) => ({ id, priority }))
        const sorted = sortTasksByPriority(tasks)
        expect(sorted.length).toBe(tasks.length)
        expect(new Set(sorted.map((t) => t.id)).size).toBe(tasks.length)
        for (let i = 1; i < sorted.length; i++) {
          const prev = clampPriority(sorted[i - 1]!.priority)
          const cur = clampPriority(sorted[i]!.priority)
          expect(prev >= cur).toBe(true)
          if (prev === cur) expect(sorted[i - 1]!.id < sorted[i]!.id).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })
})
