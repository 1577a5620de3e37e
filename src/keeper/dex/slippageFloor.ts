import { mulDiv } from '../../core/index.js'
import { ErrBadSwapInput } from './errors.js'

/**
 * Least acceptable USDC output: `refValue * (10000 - bps) / 10000`, rounded up so that a quote
 * exactly at the boundary never undercuts the configured tolerance (toward the vault).
 */
export function slippageFloor(refValue: bigint, bps: number): bigint {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new ErrBadSwapInput(`slippage bps ${bps} not in [0, 10000]`)
  return mulDiv(refValue, BigInt(10_000 - bps), 10_000n, 'ceil')
}
