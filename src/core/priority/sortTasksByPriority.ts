/**
 * Tasks ordered by `priority`, highest first; tasks of equal priority keep their input order
 * (stable), so a deterministic input gives a deterministic plan. Returns a new array.
 *
 * @example
 * import { sortTasksByPriority } from './index.js'
 * sortTasksByPriority([{ id: 'a', priority: 1 }, { id: 'b', priority: 7 }, { id: 'c', priority: 7 }])
 * // [{ id: 'b', ... }, { id: 'c', ... }, { id: 'a', ... }]
 */
export function sortTasksByPriority<T extends { readonly priority: number }>(tasks: readonly T[]): T[] {
  return tasks
    .map((task, position) => ({ task, position }))
    .sort((a, b) => b.task.priority - a.task.priority || a.position - b.position)
    .map(({ task }) => task)
}
