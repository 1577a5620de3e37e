import { BaseError } from '../errors.js'
import { I128_MAX } from '../fixed/constants.js'
import { DEAD_SHARES } from '../shares/constants.js'
import { sharePrice } from '../shares/sharePrice.js'
import { sharesForDeposit } from '../shares/sharesForDeposit.js'
import { usdcForShares } from '../shares/usdcForShares.js'

type ErrorExpect = { error: string }
type DepositExpect = { shares: string; dead_shares: string } | ErrorExpect
type RedeemExpect = { usdc: string } | ErrorExpect
export type ShareMathCase =
  | { name: string; op: 'deposit'; amount: string; total_usdc: string; total_shares: string; expect: DepositExpect }
  | { name: string; op: 'redeem'; shares: string; total_usdc: string; total_shares: string; expect: RedeemExpect }
  | { name: string; op: 'share_price'; total_usdc: string; total_shares: string; expect: { price: string } }

export type ShareMathVectors = { dead_shares: string; cases: ShareMathCase[] }

/** A share-math input without its expectation; the expectation is computed by the core. */
export type ShareMathInput =
  | { name: string; op: 'deposit'; amount: bigint; totalUsdc: bigint; totalShares: bigint }
  | { name: string; op: 'redeem'; shares: bigint; totalUsdc: bigint; totalShares: bigint }
  | { name: string; op: 'share_price'; totalUsdc: bigint; totalShares: bigint }

const U = 10_000_000n // 1 USDC

/** The inputs of `vectors/share-math.json`: every edge the vault contract must agree on. */
export const SHARE_MATH_INPUTS: readonly ShareMathInput[] = [
  // first deposit
  { name: 'first deposit 1000 USDC mints 1:1 minus dead shares', op: 'deposit', amount: 1000n * U, totalUsdc: 0n, totalShares: 0n },
  { name: 'first deposit of DEAD_SHARES + 1 leaves the depositor 1 share', op: 'deposit', amount: DEAD_SHARES + 1n, totalUsdc: 0n, totalShares: 0n },
  { name: 'first deposit equal to DEAD_SHARES mints zero', op: 'deposit', amount: DEAD_SHARES, totalUsdc: 0n, totalShares: 0n },
  { name: 'first deposit below DEAD_SHARES mints zero', op: 'deposit', amount: 1n, totalUsdc: 0n, totalShares: 0n },
  { name: 'first deposit ignores USDC donated to an empty vault', op: 'deposit', amount: 5000n, totalUsdc: 123n, totalShares: 0n },
  { name: 'first deposit of i128 max', op: 'deposit', amount: I128_MAX, totalUsdc: 0n, totalShares: 0n },
  // invalid amounts
  { name: 'deposit of zero', op: 'deposit', amount: 0n, totalUsdc: 100n * U, totalShares: 100n * U },
  { name: 'deposit of a negative amount', op: 'deposit', amount: -5n, totalUsdc: 100n * U, totalShares: 100n * U },
  // price 1.0
  { name: 'deposit at price 1.0', op: 'deposit', amount: 250n * U, totalUsdc: 1000n * U, totalShares: 1000n * U },
  // after profit
  { name: 'deposit after 10% profit rounds down', op: 'deposit', amount: 100n * U, totalUsdc: 1100n * U, totalShares: 1000n * U },
  { name: 'deposit 100 into 300 USDC / 200 shares floors 66.67 to 66', op: 'deposit', amount: 100n, totalUsdc: 300n, totalShares: 200n },
  { name: 'deposit worth less than one share rounds to zero', op: 'deposit', amount: 1n, totalUsdc: 3000n, totalShares: 1000n },
  { name: 'deposit just worth one share', op: 'deposit', amount: 3n, totalUsdc: 3000n, totalShares: 1000n },
  // after loss
  { name: 'deposit after 50% loss gets twice the shares', op: 'deposit', amount: 10n * U, totalUsdc: 500n * U, totalShares: 1000n * U },
  { name: 'deposit into an insolvent pool', op: 'deposit', amount: 10n * U, totalUsdc: 0n, totalShares: 1000n * U },
  { name: 'deposit into a pool holding only dead shares and no USDC', op: 'deposit', amount: 10n * U, totalUsdc: 0n, totalShares: DEAD_SHARES },
  // overflow
  { name: 'deposit whose amount * total_shares overflows i128', op: 'deposit', amount: 1n << 100n, totalUsdc: 1n << 100n, totalShares: 1n << 30n },
  { name: 'deposit whose product is exactly at the i128 edge', op: 'deposit', amount: I128_MAX, totalUsdc: I128_MAX, totalShares: 1n },
  { name: 'deposit of i128 max into a pool with 2 shares overflows', op: 'deposit', amount: I128_MAX, totalUsdc: I128_MAX, totalShares: 2n },
  // redeem
  { name: 'redeem at price 1.0', op: 'redeem', shares: 250n * U, totalUsdc: 1000n * U, totalShares: 1000n * U },
  { name: 'redeem after 10% profit', op: 'redeem', shares: 100n * U, totalUsdc: 1100n * U, totalShares: 1000n * U },
  { name: 'redeem after 50% loss', op: 'redeem', shares: 100n * U, totalUsdc: 500n * U, totalShares: 1000n * U },
  { name: 'redeem floors 66 shares of 400/266 to 99', op: 'redeem', shares: 66n, totalUsdc: 400n, totalShares: 266n },
  { name: 'redeem of one share worth less than one unit rounds to zero', op: 'redeem', shares: 1n, totalUsdc: 999n, totalShares: 1000n },
  { name: 'redeem every share outstanding', op: 'redeem', shares: 1000n * U, totalUsdc: 1234n * U, totalShares: 1000n * U },
  { name: 'redeem from an insolvent pool pays zero', op: 'redeem', shares: 10n * U, totalUsdc: 0n, totalShares: 1000n * U },
  { name: 'redeem of zero shares', op: 'redeem', shares: 0n, totalUsdc: 1000n * U, totalShares: 1000n * U },
  { name: 'redeem of negative shares', op: 'redeem', shares: -1n, totalUsdc: 1000n * U, totalShares: 1000n * U },
  { name: 'redeem of more shares than exist', op: 'redeem', shares: 1001n * U, totalUsdc: 1000n * U, totalShares: 1000n * U },
  { name: 'redeem from an empty vault', op: 'redeem', shares: 1n, totalUsdc: 0n, totalShares: 0n },
  { name: 'redeem whose shares * total_usdc overflows i128', op: 'redeem', shares: 1n << 70n, totalUsdc: 1n << 70n, totalShares: 1n << 80n },
  { name: 'redeem near i128 max without overflow', op: 'redeem', shares: 1n, totalUsdc: I128_MAX, totalShares: 3n },
  // share price
  { name: 'share price of an empty vault is 1.0', op: 'share_price', totalUsdc: 0n, totalShares: 0n },
  { name: 'share price of an empty vault ignores donations', op: 'share_price', totalUsdc: 55n, totalShares: 0n },
  { name: 'share price 1.0', op: 'share_price', totalUsdc: 1000n * U, totalShares: 1000n * U },
  { name: 'share price after 10% profit', op: 'share_price', totalUsdc: 1100n * U, totalShares: 1000n * U },
  { name: 'share price after 50% loss', op: 'share_price', totalUsdc: 500n * U, totalShares: 1000n * U },
  { name: 'share price floors 2/3', op: 'share_price', totalUsdc: 2n, totalShares: 3n },
  { name: 'share price of an insolvent pool is 0', op: 'share_price', totalUsdc: 0n, totalShares: 1000n * U },
  { name: 'share price with only dead shares after a donation', op: 'share_price', totalUsdc: 1000n * U, totalShares: DEAD_SHARES },
]

function expectOf(run: () => Record<string, string>): Record<string, string> {
  try {
    return run()
  } catch (e) {
    if (e instanceof BaseError) return { error: e.code }
    throw e
  }
}

/**
 * Builds the content of `vectors/share-math.json` from {@link SHARE_MATH_INPUTS}: each case's
 * expectation is what the TypeScript core computes. The vault contract's tests read the file and
 * must agree case by case.
 */
export function buildShareMathVectors(): ShareMathVectors {
  const cases = SHARE_MATH_INPUTS.map((input): ShareMathCase => {
    if (input.op === 'deposit') {
      const expect = expectOf(() => {
        const r = sharesForDeposit(input)
        return { shares: r.shares.toString(), dead_shares: r.deadShares.toString() }
      })
      return { name: input.name, op: 'deposit', amount: input.amount.toString(), total_usdc: input.totalUsdc.toString(), total_shares: input.totalShares.toString(), expect: expect as DepositExpect }
    }
    if (input.op === 'redeem') {
      const expect = expectOf(() => ({ usdc: usdcForShares(input).toString() }))
      return { name: input.name, op: 'redeem', shares: input.shares.toString(), total_usdc: input.totalUsdc.toString(), total_shares: input.totalShares.toString(), expect: expect as RedeemExpect }
    }
    const price = sharePrice(input)
    return { name: input.name, op: 'share_price', total_usdc: input.totalUsdc.toString(), total_shares: input.totalShares.toString(), expect: { price: price.toString() } }
  })
  return { dead_shares: DEAD_SHARES.toString(), cases }
}

/** The exact text of `vectors/share-math.json` (two-space JSON, trailing newline). */
export function renderShareMathVectors(): string {
  return `${JSON.stringify(buildShareMathVectors(), null, 2)}\n`
}
