/** Lowest and highest task priority. */
export const PRIORITY_MIN = 0
export const PRIORITY_MAX = 10

/**
 * A task priority brought into [0, 10]: below 0 (or -Infinity) gives 0, above 10 (or Infinity)
 * gives 10, and a value that is not a number at all (NaN, or not of type number) gives 0, the
 * lowest, so a broken priority never jumps the queue. Values inside the range are kept as they
 * are (fractions included).
 *
 * @example
 * import { clampPriority } from './clampPriority.js'
 * clampPriority(99) // 10
 * clampPriority(-3) // 0
 * clampPriority(Number.NaN) // 0
 * clampPriority(4) // 4
 */
export function clampPriority(priority: number): number {
  if (typeof priority !== 'number' || Number.isNaN(priority)) return PRIORITY_MIN
  return Math.min(PRIORITY_MAX, Math.max(PRIORITY_MIN, priority))
}
