import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { constantProductOut, type ConstantProductPool } from './constantProductOut.js'

export type BestSplitReturnType = {
  /** Sold into the first pool. */
  first: bigint
  /** Sold into the second pool (`amountIn - first`). */
  second: bigint
  /** Total paid out by both pools. */
  out: bigint
}

/**
 * The split of `amountIn` between two constant-product pools (two venues for the same pair)
 * that pays the most in total.
 *
 * The total `f(x) = out1(x) + out2(amountIn - x)` is concave in the amount `x` sent to the first
 * pool, so an integer ternary search over `x` finds its top, to within the pools' own rounding
 * (a unit or two of output on the flat top); the last few candidates and both all-in-one-pool
 * splits are compared exactly. Ties go to the larger share for the first pool.
 *
 * Errors: `InvalidInput` for a negative amount; the pools' own (see `constantProductOut`).
 *
 * @example
 * import { bestSplit } from './index.js'
 * const deep = { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }
 * const shallow = { reserveIn: 100_0000000n, reserveOut: 100_0000000n }
 * bestSplit(100_0000000n, deep, shallow).out // 91_4145202n (all of it into the deep pool: 90_6610893n)
 */
export function bestSplit(amountIn: bigint, firstPool: ConstantProductPool, secondPool: ConstantProductPool): BestSplitReturnType {
  return bestSplitBy(amountIn, (x) => constantProductOut(x, firstPool), (x) => constantProductOut(x, secondPool))
}

/**
 * The split of `amountIn` between two venues, each given by what it pays for an amount (a
 * nondecreasing, concave function: a pool, a route of pools, a weighted pool) that pays the most
 * in total; as {@link bestSplit}, whose search it is.
 *
 * Errors: `InvalidInput` for a negative amount; the venues' own.
 *
 * @example
 * import { bestSplitBy, constantProductOut, routeOut } from './index.js'
 * const direct = { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }
 * const via = [{ reserveIn: 2000_0000000n, reserveOut: 2000_0000000n }, { reserveIn: 2000_0000000n, reserveOut: 2000_0000000n }]
 * bestSplitBy(100_0000000n, (x) => constantProductOut(x, direct), (x) => routeOut(x, via)).out // more than either alone
 */
export function bestSplitBy(
  amountIn: bigint,
  firstOut: (amount: bigint) => bigint,
  secondOut: (amount: bigint) => bigint,
  /** The most each venue takes (a Comet pool: a third of its balance); the split stays within both. */
  caps: { first?: bigint; second?: bigint } = {},
): BestSplitReturnType {
  assertI128(amountIn, 'amountIn')
  if (amountIn < 0n) throw new InvalidInputError('amountIn must be >= 0.', `amountIn = ${amountIn}`)
  const total = (x: bigint): bigint => firstOut(x) + secondOut(amountIn - x)
  let lo = caps.second === undefined || caps.second >= amountIn ? 0n : amountIn - caps.second
  let hi = caps.first === undefined || caps.first >= amountIn ? amountIn : caps.first
  // No split within both caps: the whole amount on the first venue (what it pays, maybe nothing).
  if (lo > hi) return { first: amountIn, second: 0n, out: total(amountIn) }
  const bottom = lo
  const top = hi
  while (hi - lo > 8n) {
    const third = (hi - lo) / 3n
    const m1 = lo + third
    const m2 = hi - third
    if (total(m1) < total(m2)) lo = m1 + 1n
    else hi = m2
  }
  let best = { first: top, second: amountIn - top, out: total(top) }
  const consider = (x: bigint) => {
    const out = total(x)
    if (out > best.out || (out === best.out && x > best.first)) best = { first: x, second: amountIn - x, out }
  }
  for (let x = lo; x <= hi; x++) consider(x)
  consider(bottom)
  return best
}
