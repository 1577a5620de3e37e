import type { Task } from './types.js'

/**
 * Priority of a position by health factor: < 0.5 → 10, < 0.8 → 7, < 0.95 → 4, else 1.
 * Unhealthier positions first: they are the most profitable and the most urgent for the pool.
 */
export function taskPriority(healthFactor: number): number {
  if (healthFactor < 0.5) return 10
  if (healthFactor < 0.8) return 7
  if (healthFactor < 0.95) return 4
  return 1
}

/**
 * Stable sort by priority, highest first (tasks of equal priority keep the adapter's order).
 * Returns a new array.
 */
export function sortTasksByPriority<T extends Pick<Task, 'priority'>>(tasks: readonly T[]): T[] {
  return tasks
    .map((task, i) => ({ task, i }))
    .sort((a, b) => b.task.priority - a.task.priority || a.i - b.i)
    .map((x) => x.task)
}
