import { clampPriority } from './clampPriority.js'

/**
 * Tasks ordered by `priority`, highest first; tasks of equal priority keep their input order
 * (stable), so a deterministic input gives a deterministic plan. Returns a new array.
 *
 * The order uses each priority clamped to [0, 10] (`clampPriority`: NaN and non-numbers count as
 * 0), so a task outside the range cannot break the order of the others: 99 sorts with the 10s,
 * -3 and NaN with the 0s. The tasks themselves are returned unchanged.
 *
 * @example
 * import { sortTasksByPriority } from './index.js'
 * sortTasksByPriority([{ id: 'a', priority: 1 }, { id: 'b', priority: 7 }, { id: 'c', priority: 7 }])
 * // [{ id: 'b', ... }, { id: 'c', ... }, { id: 'a', ... }]
 */
export function sortTasksByPriority<T extends { readonly priority: number }>(tasks: readonly T[]): T[] {
  return tasks
    .map((task, position) => ({ task, position, key: clampPriority(task.priority) }))
    .sort((a, b) => b.key - a.key || a.position - b.position)
    .map(({ task }) => task)
}
