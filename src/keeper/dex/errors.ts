/**
 * Typed errors of the DEX client. `code` is stable and safe to match on.
 */
import { CodedError } from '../errors.js'

export class DexError extends CodedError {
  override name = 'DexError'
}

/**
 * The venue's quote (or its execution) is below the slippage floor
 * `refValue * (10000 - SLIPPAGE_BPS) / 10000` of the oracle-implied value. The price is the
 * problem, not the venue: no fallback is tried.
 */
export class ErrSlippageExceeded extends DexError {
  override name = 'ErrSlippageExceeded'
  readonly venue: string
  readonly quote: bigint | undefined
  readonly floor: bigint
  constructor(venue: string, floor: bigint, quote?: bigint) {
    super(
      'SLIPPAGE_EXCEEDED',
      `swap on ${venue} below the slippage floor`,
      quote === undefined ? `execution refused below ${floor}` : `quote ${quote} < floor ${floor}`,
    )
    this.venue = venue
    this.quote = quote
    this.floor = floor
  }
}

/** One venue's transient failure, recorded before the next venue is tried. */
export interface VenueFailure {
  venue: string
  error: string
}

/** Every venue failed (or none is configured). Nothing was swapped. */
export class ErrNoRoute extends DexError {
  override name = 'ErrNoRoute'
  readonly failures: readonly VenueFailure[]
  constructor(failures: readonly VenueFailure[]) {
    super(
      'NO_ROUTE',
      'no venue could swap to USDC',
      failures.length === 0 ? 'no venue configured' : failures.map((f) => `${f.venue}: ${f.error}`).join('; '),
    )
    this.failures = failures
  }
}

/** A swap was sent and confirmed but the USDC balance did not rise: nothing is booked. */
export class ErrNoProceeds extends DexError {
  override name = 'ErrNoProceeds'
  constructor(venue: string, delta: bigint) {
    super('NO_PROCEEDS', `swap on ${venue} did not raise the USDC balance`, `balance delta ${delta}`)
  }
}

/** Refused input (non-positive amount, same token in and out, bad bps): nothing was sent. */
export class ErrBadSwapInput extends DexError {
  override name = 'ErrBadSwapInput'
  constructor(details: string) {
    super('BAD_SWAP_INPUT', 'invalid swap request', details)
  }
}
