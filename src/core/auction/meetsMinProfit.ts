import { SCALAR_7 } from '../fixed/constants.js'

/**
 * Whether a fill worth `lotValue` and costing `bidCost` reaches `minProfit` (a 7-decimal ratio,
 * e.g. `10_500_000n` = 1.05). Exact cross-multiplication, so it equals `floor(ratio) >= minProfit`
 * without a rounding step; a free lot (bid costs 0) counts only when it is worth something.
 *
 * @example
 * import { meetsMinProfit } from './index.js'
 * meetsMinProfit(105n, 100n, 10_500_000n) // true
 * meetsMinProfit(104n, 100n, 10_500_000n) // false
 */
export function meetsMinProfit(lotValue: bigint, bidCost: bigint, minProfit: bigint): boolean {
  if (bidCost === 0n) return lotValue > 0n
  return lotValue * SCALAR_7 >= minProfit * bidCost
}
