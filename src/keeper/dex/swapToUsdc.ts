/**
 * SwapToUSDC: sell seized collateral for USDC on the primary venue, falling back to the next
 * venue only on a transient venue error.
 *
 * - Quote first. A quote below the slippage floor `refValue * (10000 - bps) / 10000` (refValue =
 *   the oracle-implied USDC value of the input) is {@link ErrSlippageExceeded}: the price is the
 *   problem, so no other venue is tried.
 * - The swap is sent with `amount_out_min = floor`, so execution cannot land below it either; a
 *   router refusing for that reason is also ErrSlippageExceeded.
 * - Any other venue failure (paused, no pair, node error, failed transaction) is recorded and the
 *   next venue tried; when none is left: {@link ErrNoRoute}.
 * - Proceeds = the measured USDC balance delta of the recipient. A confirmed swap that does not
 *   raise the balance is {@link ErrNoProceeds} and books nothing.
 * - No automatic retry: a failed swap waits for the next cycle.
 */
import { slippageFloor } from '../../core/index.js'
import { ErrBadSwapInput, ErrNoProceeds, ErrNoRoute, ErrSlippageExceeded, type VenueFailure } from './errors.js'

/** A swap venue (a Soroswap-interface router, for instance). */
export interface Venue {
  readonly name: string
  /** Expected output of selling `amountIn` along `path` (last hop's amount). */
  quote(amountIn: bigint, path: readonly string[]): Promise<bigint>
  /**
   * Sell exactly `amountIn`, refusing below `amountOutMin`. Must throw {@link ErrSlippageExceeded}
   * when the venue refused because of `amountOutMin`; any other throw counts as a venue failure.
   */
  swap(amountIn: bigint, amountOutMin: bigint, path: readonly string[]): Promise<{ txHash?: string }>
}

export interface SwapToUsdcParameters {
  /** Tried in order: primary first, then fallbacks. */
  venues: readonly Venue[]
  tokenIn: string
  usdc: string
  amountIn: bigint
  /** Oracle-implied USDC value of `amountIn` (7 decimals). */
  refValue: bigint
  slippageBps: number
  /** Reads the recipient's USDC balance (before and after the swap). */
  usdcBalance: () => Promise<bigint>
}

export interface SwapToUsdcReturnType {
  /** Measured USDC balance delta. */
  proceeds: bigint
  venue: string
  quote: bigint
  amountOutMin: bigint
  txHash: string | undefined
  /** Venues that failed transiently before the one that worked. */
  failures: VenueFailure[]
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * @example
 * import { swapToUsdc } from './swapToUsdc.js'
 * const { proceeds } = await swapToUsdc({ venues: [primary, fallback], tokenIn: xlm, usdc,
 *   amountIn: 100_0000000n, refValue: 12_0000000n, slippageBps: 100, usdcBalance })
 */
export async function swapToUsdc(p: SwapToUsdcParameters): Promise<SwapToUsdcReturnType> {
  if (p.amountIn <= 0n) throw new ErrBadSwapInput(`amountIn ${p.amountIn} <= 0`)
  if (p.refValue <= 0n) throw new ErrBadSwapInput(`refValue ${p.refValue} <= 0`)
  if (p.tokenIn === p.usdc) throw new ErrBadSwapInput('token in is already USDC')
  if (!Number.isInteger(p.slippageBps) || p.slippageBps < 0 || p.slippageBps > 10_000)
    throw new ErrBadSwapInput(`slippage bps ${p.slippageBps} not in [0, 10000]`)
  const floor = slippageFloor(p.refValue, p.slippageBps)
  const path = [p.tokenIn, p.usdc]
  const failures: VenueFailure[] = []
  for (const venue of p.venues) {
    let quote: bigint
    try {
      quote = await venue.quote(p.amountIn, path)
    } catch (err) {
      if (err instanceof ErrSlippageExceeded) throw err
      failures.push({ venue: venue.name, error: describe(err) })
      continue
    }
    if (quote < floor) throw new ErrSlippageExceeded(venue.name, floor, quote)

    const before = await p.usdcBalance()
    let txHash: string | undefined
    try {
      txHash = (await venue.swap(p.amountIn, floor, path)).txHash
    } catch (err) {
      if (err instanceof ErrSlippageExceeded) throw err
      failures.push({ venue: venue.name, error: describe(err) })
      continue
    }
    const after = await p.usdcBalance()
    const proceeds = after - before
    if (proceeds <= 0n) throw new ErrNoProceeds(venue.name, proceeds)
    return { proceeds, venue: venue.name, quote, amountOutMin: floor, txHash, failures }
  }
  throw new ErrNoRoute(failures)
}
