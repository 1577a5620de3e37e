/**
 * Every error the core throws is a {@link BaseError}: a short message, a stable `code` that
 * callers (and the Rust side, through the shared vectors) can match on, and optional details.
 */

/** Stable error codes. The first four are the share-math codes shared with the vault contract. */
export type CoreErrorCode =
  | 'InvalidAmount'
  | 'ZeroShares'
  | 'PoolInsolvent'
  | 'Overflow'
  | 'DivisionByZero'
  | 'InvalidInput'
  | 'InvalidPrice'

export type BaseErrorParameters = {
  /** Longer explanation: which value, which bound. */
  details?: string
  cause?: unknown
}

/**
 * Root of every error the core throws.
 *
 * @example
 * import { BaseError, sharesForDeposit } from './index.js'
 * try {
 *   sharesForDeposit({ amount: 0n, totalUsdc: 0n, totalShares: 0n })
 * } catch (e) {
 *   if (e instanceof BaseError) console.log(e.code) // 'InvalidAmount'
 * }
 */
export class BaseError extends Error {
  override name = 'BaseError'
  readonly code: CoreErrorCode
  readonly shortMessage: string
  readonly details: string | undefined

  constructor(code: CoreErrorCode, shortMessage: string, parameters: BaseErrorParameters = {}) {
    const message = parameters.details === undefined ? shortMessage : `${shortMessage}\n\nDetails: ${parameters.details}`
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.code = code
    this.shortMessage = shortMessage
    this.details = parameters.details
  }
}

/** An amount that must be strictly positive was zero or negative. */
export class InvalidAmountError extends BaseError {
  override name = 'InvalidAmountError'
  constructor(what: string, value: bigint) {
    super('InvalidAmount', `${what} must be > 0.`, { details: `${what} = ${value}` })
  }
}

/** A deposit would mint no shares for the depositor (rounds to zero, or is eaten by dead shares). */
export class ZeroSharesError extends BaseError {
  override name = 'ZeroSharesError'
  constructor(details: string) {
    super('ZeroShares', 'Deposit mints zero shares for the depositor.', { details })
  }
}

/** Shares exist but the pool holds no USDC, so a share has no price. */
export class PoolInsolventError extends BaseError {
  override name = 'PoolInsolventError'
  constructor(totalShares: bigint) {
    super('PoolInsolvent', 'Pool holds no USDC while shares exist; shares cannot be priced.', {
      details: `total_usdc = 0, total_shares = ${totalShares}`,
    })
  }
}

/** A value (input, intermediate or result) left the signed 128-bit range. */
export class OverflowError extends BaseError {
  override name = 'OverflowError'
  constructor(what: string, value: bigint) {
    super('Overflow', `${what} is outside the i128 range.`, { details: `${what} = ${value}` })
  }
}

/** A division by zero was requested. */
export class DivisionByZeroError extends BaseError {
  override name = 'DivisionByZeroError'
  constructor(what: string) {
    super('DivisionByZero', `Division by zero: ${what}.`)
  }
}

/** An input is malformed (negative where it cannot be, out of its domain, inconsistent). */
export class InvalidInputError extends BaseError {
  override name = 'InvalidInputError'
  constructor(shortMessage: string, details?: string) {
    super('InvalidInput', shortMessage, details === undefined ? {} : { details })
  }
}

/** An oracle price is missing, zero or negative. */
export class InvalidPriceError extends BaseError {
  override name = 'InvalidPriceError'
  constructor(what: string, value: bigint | undefined) {
    super('InvalidPrice', `Price for ${what} must be > 0.`, { details: `price = ${value}` })
  }
}
