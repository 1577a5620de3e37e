import { assertI128 } from './assertI128.js'

/**
 * i128 multiplication that throws {@link OverflowError} instead of wrapping, like Rust's
 * `i128::checked_mul(..).ok_or(Overflow)`. Operands must themselves be i128.
 *
 * @example
 * import { checkedMul } from './index.js'
 * checkedMul(3n, 4n) // 12n
 */
export function checkedMul(a: bigint, b: bigint, what = 'product'): bigint {
  assertI128(a, `${what} (left operand)`)
  assertI128(b, `${what} (right operand)`)
  return assertI128(a * b, what)
}
