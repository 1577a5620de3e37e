import { sortTasksByPriority as coreSort, taskPriority as coreTaskPriority } from '../../core/index.js'
import type { Task } from './types.js'

/**
 * Priority of a position by health factor (a float, 1.0 = liquidation threshold):
 * < 0.5 → 10, < 0.8 → 7, < 0.95 → 4, else 1. Unhealthier positions first: they are the most
 * profitable and the most urgent for the pool. Delegates to the core's 7-decimal `taskPriority`.
 */
export function taskPriority(healthFactor: number): number {
  if (!Number.isFinite(healthFactor)) return 1
  return coreTaskPriority(BigInt(Math.round(healthFactor * 1e7)))
}

/**
 * Stable sort by priority, highest first (tasks of equal priority keep the adapter's order).
 * Returns a new array (the core's `sortTasksByPriority`).
 */
export function sortTasksByPriority<T extends Pick<Task, 'priority'>>(tasks: readonly T[]): T[] {
  return coreSort(tasks)
}
