/**
 * Typed errors of the Blend v2 lending-pool adapter. Each carries a short message and, where it
 * helps an operator, details; `code` is stable and safe to match on.
 */
import { CodedError } from '../../errors.js'

export class BlendAdapterError extends CodedError {
  override name = 'BlendAdapterError'
}

/** A ledger entry could not be decoded into the Blend v2 shape it should have. */
export class ErrDecode extends BlendAdapterError {
  override name = 'ErrDecode'
  constructor(what: string, details?: string) {
    super('DECODE', `cannot decode ${what}`, details)
  }
}

/**
 * The pool is not a Blend v2 pool (a Blend v1 pool, or no Blend pool at all): refused before any
 * of its entries is decoded, in one line naming what it is (poolKind.ts).
 */
export class ErrNotBlendV2 extends BlendAdapterError {
  override name = 'ErrNotBlendV2'
  readonly pool: string
  readonly kind: 'blend-v1' | 'other'
  /** What the pool is, as a phrase: "a Blend v1 pool (its PoolConfig has no min_collateral, ...)". */
  readonly what: string
  constructor(pool: string, kind: 'blend-v1' | 'other', what: string) {
    super('NOT_BLEND_V2', `pool ${pool}: ${what}, not Blend v2 — only Blend v2 pools are supported`)
    this.pool = pool
    this.kind = kind
    this.what = what
  }
}

/** A ledger entry the pool must have (instance, reserve config/data) is absent. */
export class ErrMissingEntry extends BlendAdapterError {
  override name = 'ErrMissingEntry'
  constructor(what: string) {
    super('MISSING_ENTRY', `ledger entry missing: ${what}`)
  }
}

/** The oracle has no usable price for an asset (none, <= 0, or not a PriceData). */
export class ErrNoPrice extends BlendAdapterError {
  override name = 'ErrNoPrice'
  constructor(asset: string, details?: string) {
    super('NO_PRICE', `oracle has no price for ${asset}`, details)
  }
}

/** Another keeper filled the auction first (or it no longer exists): nothing was spent. */
export class ErrAlreadyFilled extends BlendAdapterError {
  override name = 'ErrAlreadyFilled'
  constructor(user: string, details?: string) {
    super('ALREADY_FILLED', `auction for ${user} already filled`, details)
  }
}

/** No liquidation percent in 1..100 leaves the borrower's HF inside Blend's [1.03, 1.15] band. */
export class ErrNoValidPercent extends BlendAdapterError {
  override name = 'ErrNoValidPercent'
  constructor(user: string) {
    super('NO_VALID_PERCENT', `no liquidation percent satisfies the post-liquidation rule for ${user}`)
  }
}

/** The auction never becomes profitable enough (lot value / bid cost < MIN_PROFIT) on its curve. */
export class ErrUnprofitable extends BlendAdapterError {
  override name = 'ErrUnprofitable'
  constructor(details: string) {
    super('UNPROFITABLE', 'auction does not clear MIN_PROFIT', details)
  }
}

/** A task handed to this adapter is not one it produced (bad input is refused before any spend). */
export class ErrBadTask extends BlendAdapterError {
  override name = 'ErrBadTask'
  constructor(details: string) {
    super('BAD_TASK', 'task is not a Blend liquidation task', details)
  }
}
