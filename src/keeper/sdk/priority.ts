import { sortTasksByPriority as coreSort, taskPriority as coreTaskPriority } from '../../core/index.js'
import { clampPriority as coreClamp } from '../../core/priority/clampPriority.js'
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
 * A priority brought into [0, 10] (the core's `clampPriority`): above 10 gives 10, below 0 gives
 * 0, NaN or a non-number gives 0.
 */
export function clampPriority(priority: number): number {
  return coreClamp(priority)
}

/**
 * The tasks with their priority clamped to [0, 10] (`clampPriority`), in the same order. A task
 * already in range is returned as is; one outside gets a copy with the clamped priority, so the
 * adapter's own objects are never changed. This is how tasks enter the execution engine: an
 * adapter that returns 99, -3 or NaN cannot jump the queue or break its order.
 */
export function clampTaskPriorities<T extends Pick<Task, 'priority'>>(tasks: readonly T[]): T[] {
  return tasks.map((t) => {
    const p = coreClamp(t.priority)
    return Object.is(p, t.priority) ? t : { ...t, priority: p }
  })
}

/**
 * Stable sort by priority, highest first (tasks of equal priority keep the adapter's order).
 * Priorities outside [0, 10] are ordered as if clamped. Returns a new array (the core's
 * `sortTasksByPriority`).
 */
export function sortTasksByPriority<T extends Pick<Task, 'priority'>>(tasks: readonly T[]): T[] {
  return coreSort(tasks)
}
