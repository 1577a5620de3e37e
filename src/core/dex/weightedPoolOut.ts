import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { SCALAR_7 } from '../fixed/constants.js'

/**
 * One weighted pool (Balancer's math, as Comet implements it) as seen from the seller: its
 * balances of the token sold and the token bought, their weights (any common scale) and the swap
 * fee (7 decimals: 0.3 % = 30_000).
 */
export type WeightedPool = {
  balanceIn: bigint
  weightIn: bigint
  balanceOut: bigint
  weightOut: bigint
  /** Swap fee taken from the input, 7 decimals. */
  fee: bigint
  /** The most the pool takes in one swap (Comet: a third of `balanceIn`); more pays nothing. */
  maxIn?: bigint
}

/** Comet's MAX_IN_RATIO, 7 decimals: a swap may bring in at most a third of the pool's balance. */
export const COMET_MAX_IN_RATIO = 3_333_334n

/** The most a Comet pool holding `balanceIn` of the token sold takes in one swap. */
export const cometMaxIn = (balanceIn: bigint): bigint => (balanceIn * COMET_MAX_IN_RATIO) / SCALAR_7

/**
 * Comet computes in its own 7-decimal fixed point with a series for the power; the quote is
 * kept this far (0.001 %) under the exact formula so it never promises more than the pool pays.
 */
const MARGIN = 100_000n

/**
 * What selling `amountIn` into a weighted pool pays out (Balancer's out-given-in):
 *
 *   out = balanceOut × (1 − (balanceIn / (balanceIn + amountIn × (1 − fee)))^(weightIn / weightOut))
 *
 * Equal weights make it the constant-product formula, computed exactly in integers; other
 * weights take the power in floating point. Either way the result is rounded down and kept
 * 0.001 % under the formula (Comet's own rounding). Zero for a zero input, an empty pool, or an
 * input above `maxIn` (the pool would refuse the swap).
 *
 * Errors: `InvalidInput` for a negative amount, balance or weight, or a fee outside 0..1.
 *
 * @example
 * import { weightedPoolOut } from './index.js'
 * const pool = { balanceIn: 1000_0000000n, weightIn: 5n, balanceOut: 1000_0000000n, weightOut: 5n, fee: 30_000n }
 * weightedPoolOut(10_0000000n, pool) // 9_8714815n (a 0.3 % pair pays 9_8715803n)
 */
export function weightedPoolOut(amountIn: bigint, pool: WeightedPool): bigint {
  for (const [name, v] of [['amountIn', amountIn], ['balanceIn', pool.balanceIn], ['balanceOut', pool.balanceOut]] as const) assertI128(v, name)
  if (amountIn < 0n || pool.balanceIn < 0n || pool.balanceOut < 0n || pool.weightIn < 0n || pool.weightOut < 0n)
    throw new InvalidInputError('Swap amounts, balances and weights must be >= 0.', `in = ${amountIn}, balances = ${pool.balanceIn} / ${pool.balanceOut}, weights = ${pool.weightIn} / ${pool.weightOut}`)
  if (pool.fee < 0n || pool.fee >= SCALAR_7) throw new InvalidInputError('The fee must be in 0..1 (7 decimals).', `fee = ${pool.fee}`)
  if (pool.maxIn !== undefined && amountIn > pool.maxIn) return 0n
  if (amountIn === 0n || pool.balanceIn === 0n || pool.balanceOut === 0n || pool.weightIn === 0n || pool.weightOut === 0n) return 0n
  const inAfterFee = checkedMul(amountIn, SCALAR_7 - pool.fee)
  let out: bigint
  if (pool.weightIn === pool.weightOut) {
    out = checkedMul(inAfterFee, pool.balanceOut) / (checkedMul(pool.balanceIn, SCALAR_7) + inAfterFee)
  } else {
    const base = Number(pool.balanceIn * SCALAR_7) / (Number(pool.balanceIn * SCALAR_7) + Number(inAfterFee))
    const share = 1 - Math.pow(base, Number(pool.weightIn) / Number(pool.weightOut))
    out = BigInt(Math.floor(Number(pool.balanceOut) * share))
  }
  out -= out / MARGIN + (out > 0n ? 1n : 0n)
  return out > 0n ? out : 0n
}
