import { InvalidInputError } from '../errors.js'
import { SCALAR_7, SCALAR_12 } from '../fixed/constants.js'
import { divRound } from '../fixed/divRound.js'
import { mulDiv } from '../fixed/mulDiv.js'
import type { ReserveConfig } from './types.js'

/** Seconds in Blend's year (365 days). */
export const SECONDS_PER_YEAR = 31_536_000n
const UTIL_95 = 9_500_000n
const UTIL_5 = 500_000n
const IR_MOD_MAX = 10n * SCALAR_7
const IR_MOD_MIN = SCALAR_7 / 10n

export type CalcAccrualParameters = {
  config: Pick<ReserveConfig, 'util' | 'r_base' | 'r_one' | 'r_two' | 'r_three' | 'reactivity'>
  /** Current utilization, 7 decimals. */
  utilization: bigint
  /** Current interest rate modifier, 7 decimals. */
  irMod: bigint
  /** Seconds since the last accrual, >= 1. */
  deltaTime: bigint
}

export type CalcAccrualReturnType = {
  /** Factor to multiply `d_rate` by, 12 decimals. */
  loanAccrual: bigint
  /** The next interest rate modifier, 7 decimals, clamped to 0.1 .. 10. */
  irMod: bigint
}

/**
 * Blend v2's interest step (`interest::calc_accrual`), same order of operations and rounding:
 *
 * - annual rate from the three-slope curve: below target `ceil(ceil(u / target) * r_one) + r_base`;
 *   up to 95 % `ceil(ceil((u - target) / (0.95 - target)) * r_two) + r_one + r_base`; both times
 *   `ir_mod` (ceil). Above 95 % `ceil(ceil((u - 0.95) / 0.05) * r_three) + ceil(ir_mod * (r_two + r_one + r_base))`.
 *   Rates round up: the borrower pays at least the curve.
 * - `ir_mod` moves by `delta_time * (u - target) * reactivity` (floor when rising, ceil when
 *   falling, i.e. the smaller step both ways), clamped to 0.1 .. 10.
 * - `loan_accrual = 1e12 + ceil(floor(delta_time * 1e12 / SECONDS_PER_YEAR) * rate / 1e7)`.
 *
 * @example
 * import { calcAccrual } from './index.js'
 * calcAccrual({
 *   config: { util: 7_500_000, r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20 },
 *   utilization: 6_565_656n, irMod: 10_000_000n, deltaTime: 500n,
 * }) // { loanAccrual: 1_000_000_852_536n, irMod: 9_999_066n }
 */
export function calcAccrual(parameters: CalcAccrualParameters): CalcAccrualReturnType {
  const { config, utilization: u, irMod, deltaTime } = parameters
  if (deltaTime < 1n) throw new InvalidInputError('Accrual needs at least one second to pass.', `delta_time = ${deltaTime}`)
  const target = BigInt(config.util)
  const rBase = BigInt(config.r_base)
  const rOne = BigInt(config.r_one)
  const rTwo = BigInt(config.r_two)
  const rThree = BigInt(config.r_three)

  let rate: bigint
  if (u <= target) {
    const utilScalar = mulDiv(u, SCALAR_7, target, 'ceil')
    const baseRate = mulDiv(utilScalar, rOne, SCALAR_7, 'ceil') + rBase
    rate = mulDiv(baseRate, irMod, SCALAR_7, 'ceil')
  } else if (u <= UTIL_95) {
    const utilScalar = mulDiv(u - target, SCALAR_7, UTIL_95 - target, 'ceil')
    const baseRate = mulDiv(utilScalar, rTwo, SCALAR_7, 'ceil') + rOne + rBase
    rate = mulDiv(baseRate, irMod, SCALAR_7, 'ceil')
  } else {
    const utilScalar = mulDiv(u - UTIL_95, SCALAR_7, UTIL_5, 'ceil')
    const extraRate = mulDiv(utilScalar, rThree, SCALAR_7, 'ceil')
    const intersection = mulDiv(irMod, rTwo + rOne + rBase, SCALAR_7, 'ceil')
    rate = extraRate + intersection
  }

  const utilError = deltaTime * (u - target)
  let nextIrMod: bigint
  if (utilError >= 0n) {
    nextIrMod = irMod + mulDiv(utilError, BigInt(config.reactivity), SCALAR_7, 'floor')
    if (nextIrMod > IR_MOD_MAX) nextIrMod = IR_MOD_MAX
  } else {
    nextIrMod = irMod + mulDiv(utilError, BigInt(config.reactivity), SCALAR_7, 'ceil')
    if (nextIrMod < IR_MOD_MIN) nextIrMod = IR_MOD_MIN
  }

  const timeWeight = divRound(deltaTime * SCALAR_12, SECONDS_PER_YEAR, 'floor')
  return { loanAccrual: SCALAR_12 + mulDiv(timeWeight, rate, SCALAR_7, 'ceil'), irMod: nextIrMod }
}
