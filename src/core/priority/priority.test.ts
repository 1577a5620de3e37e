import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
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
