import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clampPriority, clampTaskPriorities, sortTasksByPriority, taskPriority } from './priority.js'
import { makeResult } from './profit.js'

describe('taskPriority', () => {
  it('maps health factors to the priority bands', () => {
    expect(taskPriority(0.1)).toBe(10)
    expect(taskPriority(0.4999)).toBe(10)
    expect(taskPriority(0.5)).toBe(7)
    expect(taskPriority(0.7999)).toBe(7)
    expect(taskPriority(0.8)).toBe(4)
    expect(taskPriority(0.9499)).toBe(4)
    expect(taskPriority(0.95)).toBe(1)
    expect(taskPriority(1.2)).toBe(1)
  })
})

describe('sortTasksByPriority', () => {
  it('orders highest first and keeps the order of equal priorities', () => {
    const tasks = [
      { priority: 1, id: 'a' },
      { priority: 7, id: 'b' },
      { priority: 1, id: 'c' },
      { priority: 10, id: 'd' },
      { priority: 7, id: 'e' },
    ]
    expect(sortTasksByPriority(tasks).map((t) => t.id)).toEqual(['d', 'b', 'e', 'a', 'c'])
    expect(tasks[0]!.id).toBe('a') // input untouched
  })

  it('is a stable descending permutation for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10 })), (ps) => {
        const tasks = ps.map((priority, i) => ({ priority, i }))
        const sorted = sortTasksByPriority(tasks)
        expect(sorted).toHaveLength(tasks.length)
        for (let k = 1; k < sorted.length; k++) {
          const a = sorted[k - 1]!
          const b = sorted[k]!
          expect(a.priority > b.priority || (a.priority === b.priority && a.i < b.i)).toBe(true)
        }
      }),
    )
  })
})

describe('priorities out of range', () => {
  it('clamps 99 to 10, -3 and NaN to 0, copying only the tasks it changes', () => {
    expect([99, -3, Number.NaN, 7].map(clampPriority)).toEqual([10, 0, 0, 7])
    const tasks = [
      { priority: 99, id: 'a' },
      { priority: 7, id: 'b' },
      { priority: Number.NaN, id: 'c' },
      { priority: -3, id: 'd' },
    ]
    const clamped = clampTaskPriorities(tasks)
    expect(clamped.map((t) => [t.id, t.priority])).toEqual([
      ['a', 10],
      ['b', 7],
      ['c', 0],
      ['d', 0],
    ])
    expect(clamped[1]).toBe(tasks[1])
    expect(tasks[0]!.priority).toBe(99) // the adapter's objects are left alone
  })

  it('sorts any numbers as if clamped, stably', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double(), fc.constantFrom(Number.NaN, 99, -3))), (ps) => {
        const sorted = clampTaskPriorities(sortTasksByPriority(ps.map((priority, i) => ({ priority, i }))))
        for (let k = 1; k < sorted.length; k++) {
          const a = sorted[k - 1]!
          const b = sorted[k]!
          expect(a.priority >= 0 && a.priority <= 10).toBe(true)
          expect(a.priority > b.priority || (a.priority === b.priority && a.i < b.i)).toBe(true)
        }
      }),
    )
  })
})

describe('makeResult', () => {
  it('books profit only above the draw', () => {
    expect(makeResult({ drew: 100n, proceeds: 103n, responseTimeMs: 1 }).profit).toBe(3n)
    expect(makeResult({ drew: 100n, proceeds: 90n, responseTimeMs: 1 }).profit).toBe(0n)
  })
})
