import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { SCALAR_7, SCALAR_12 } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'
import { calcAccrual } from './calcAccrual.js'
import { toAssetFromBToken, toAssetFromDToken } from './conversions.js'
import { utilization } from './utilization.js'
import type { ReserveConfig, ReserveData } from './types.js'

export type AccrueReserveParameters = {
  config: ReserveConfig
  data: ReserveData
  /** The pool's backstop take rate (`PoolConfig.bstop_rate`), 7 decimals. */
  bstopRate: number
  /** Unix seconds to accrue to (the ledger close time the pool would see). */
  timestamp: bigint
}

/**
 * A reserve's data accrued to `timestamp`, as Blend v2's `Reserve::load` does before every use:
 *
 * - same timestamp: unchanged; no bTokens or no utilization: only `last_time` moves.
 * - else `(loan_accrual, ir_mod) = calcAccrual(...)`; `d_rate = ceil(loan_accrual * d_rate / 1e12)`;
 *   the interest accrued is the growth of `ceil(d_supply * d_rate)`; the backstop is credited
 *   `floor(accrued * bstop_rate / 1e7)` and `b_rate = floor((supply + accrued - credit) * 1e12 / b_supply)`.
 *
 * The raw `ResData` read from the ledger is stale until this runs; `get_reserve` returns the
 * accrued values. A `timestamp` before `last_time` is an `InvalidInput` (the pool traps).
 *
 * @example
 * import { accrueReserve } from './index.js'
 * const config = { index: 0, decimals: 7, c_factor: 7_500_000, l_factor: 7_500_000, util: 7_500_000, max_util: 9_500_000,
 *   r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20 }
 * const raw = { d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, ir_mod: 10_000_000n,
 *   b_supply: 99_0000000n, d_supply: 65_0000000n, backstop_credit: 0n, last_time: 0n }
 * accrueReserve({ config, data: raw, bstopRate: 2_000_000, timestamp: 617_280n })
 * // { d_rate: 1_349_657_798_173n, b_rate: 1_125_547_124_242n, ir_mod: 10_449_815n, backstop_credit: 517_357n, ... }
 */
export function accrueReserve(parameters: AccrueReserveParameters): ReserveData {
  const { config, bstopRate, timestamp } = parameters
  const data = { ...parameters.data }
  for (const key of ['d_rate', 'b_rate', 'ir_mod', 'b_supply', 'd_supply', 'backstop_credit'] as const) assertI128(data[key], key)
  if (timestamp < data.last_time)
    throw new InvalidInputError('Cannot accrue a reserve backwards in time.', `timestamp = ${timestamp}, last_time = ${data.last_time}`)
  if (timestamp === data.last_time) return data
  if (data.b_supply === 0n) return { ...data, last_time: timestamp }
  const u = utilization(data)
  if (u === 0n) return { ...data, last_time: timestamp }

  const { loanAccrual, irMod } = calcAccrual({ config, utilization: u, irMod: data.ir_mod, deltaTime: timestamp - data.last_time })
  data.ir_mod = irMod
  const before = toAssetFromDToken(data, data.d_supply)
  data.d_rate = mulDiv(loanAccrual, data.d_rate, SCALAR_12, 'ceil')
  const accrued = toAssetFromDToken(data, data.d_supply) - before

  const supplyBefore = toAssetFromBToken(data, data.b_supply)
  if (accrued > 0n) {
    let credit = 0n
    if (bstopRate > 0) {
      // floor: the backstop's cut never exceeds its rate; the rest goes to suppliers
      credit = mulDiv(accrued, BigInt(bstopRate), SCALAR_7, 'floor')
      data.backstop_credit = assertI128(data.backstop_credit + credit, 'backstop_credit')
    }
    data.b_rate = mulDiv(supplyBefore + accrued - credit, SCALAR_12, data.b_supply, 'floor')
  }
  data.last_time = timestamp
  return data
}
