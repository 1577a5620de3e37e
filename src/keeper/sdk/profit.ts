import type { Result } from './types.js'

/**
 * Builds a `Result` with `profit = max(0, proceeds - drew)` (a loss books no profit; the vault
 * absorbs it in total_usdc).
 *
 * @example
 * import { makeResult } from './profit.js'
 * makeResult({ drew: 100n, proceeds: 103n, responseTimeMs: 850 }).profit // 3n
 */
export function makeResult(r: Omit<Result, 'profit'>): Result {
  const profit = r.proceeds > r.drew ? r.proceeds - r.drew : 0n
  return { ...r, profit }
}
