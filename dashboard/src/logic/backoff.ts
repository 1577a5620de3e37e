/**
 * The reconnection schedule of the live log's event streams: exponential, capped. Pure, so the
 * schedule is tested without timers; the caller counts failed attempts and resets the count
 * once a stream opens.
 */

export interface BackoffPolicy {
  /** Delay before the first retry (ms). */
  initialMs: number
  /** Each further retry waits this many times longer. */
  factor: number
  /** No wait is longer than this (ms). */
  maxMs: number
}

/** 1 s, 2 s, 4 s, … up to 30 s. */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1_000, factor: 2, maxMs: 30_000 }

/**
 * The wait before retry number `attempt` (0 = the first retry after a failure):
 * `min(maxMs, initialMs × factor^attempt)`, whole milliseconds.
 *
 * @example
 * backoffDelay(0) // 1000
 * backoffDelay(3) // 8000
 * backoffDelay(20) // 30000
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a non-negative integer, got ${attempt}`)
  if (!(policy.initialMs > 0) || !(policy.factor >= 1) || !(policy.maxMs >= policy.initialMs))
    throw new RangeError('backoff policy needs initialMs > 0, factor >= 1 and maxMs >= initialMs')
  // Growing one step at a time stops at the cap, so a large attempt count never overflows.
  let delay = policy.initialMs
  for (let i = 0; i < attempt && delay < policy.maxMs; i++) delay *= policy.factor
  return Math.round(Math.min(delay, policy.maxMs))
}

/** The first `n` delays of a policy, for display and tests. */
export function backoffSchedule(n: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number[] {
  return Array.from({ length: n }, (_, i) => backoffDelay(i, policy))
}
