/** Largest signed 128-bit integer, 2^127 - 1. */
export const I128_MAX = (1n << 127n) - 1n
/** Smallest signed 128-bit integer, -2^127. */
export const I128_MIN = -(1n << 127n)
/** 1.0 with 7 decimals (token amounts, Blend factors, share price). */
export const SCALAR_7 = 10_000_000n
/** 1.0 with 12 decimals (Blend b_rate / d_rate). */
export const SCALAR_12 = 1_000_000_000_000n

/** Direction of an inexact division: `floor` toward -infinity, `ceil` toward +infinity. */
export type Rounding = 'floor' | 'ceil'
