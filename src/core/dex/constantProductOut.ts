import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'

/** One constant-product pool as seen from the seller: what it holds of the token sold and of the token bought. */
export type ConstantProductPool = {
  /** Reserve of the token going in. */
  reserveIn: bigint
  /** Reserve of the token coming out. */
  reserveOut: bigint
}

/** The part of the input a pool keeps after its fee: 997 / 1000 (a 0.3 % fee), as contracts/dex-pair and Soroswap. */
export const POOL_FEE_KEEP = 997n
export const POOL_FEE_DENOM = 1000n

/**
 * What selling `amountIn` into a constant-product pool pays out:
 * `floor(amountIn * 997 * reserveOut / (reserveIn * 1000 + amountIn * 997))`, exactly as the
 * pair contract computes it (rounded down: the trader gets less, never more). Zero for a zero
 * input or an empty pool.
 *
 * Errors: `InvalidInput` for a negative amount or reserve; `Overflow` past i128.
 *
 * @example
 * import { constantProductOut } from './index.js'
 * constantProductOut(10_0000000n, { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }) // 9_8715803n
 */
export function constantProductOut(amountIn: bigint, pool: ConstantProductPool): bigint {
  assertI128(amountIn, 'amountIn')
  assertI128(pool.reserveIn, 'reserveIn')
  assertI128(pool.reserveOut, 'reserveOut')
  if (amountIn < 0n || pool.reserveIn < 0n || pool.reserveOut < 0n)
    throw new InvalidInputError('Swap amounts and reserves must be >= 0.', `in = ${amountIn}, reserves = ${pool.reserveIn} / ${pool.reserveOut}`)
  if (amountIn === 0n || pool.reserveIn === 0n || pool.reserveOut === 0n) return 0n
  const inWithFee = checkedMul(amountIn, POOL_FEE_KEEP)
  const numerator = checkedMul(inWithFee, pool.reserveOut)
  const denominator = assertI128(checkedMul(pool.reserveIn, POOL_FEE_DENOM) + inWithFee, 'denominator')
  return numerator / denominator
}
