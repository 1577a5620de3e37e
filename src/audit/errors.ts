import { ChainError } from '../chain/errors.js'

/**
 * The auditor could not read what it needs from the chain: an RPC call failed (network, node
 * error, a simulation that trapped), or the chain kept changing under every read round. The
 * message names the call and the reason, e.g.
 * `reading vault.get_state (CABC...) failed: simulation failed: HostError: ...`.
 *
 * An audit that could read everything never throws it: a broken invariant is a report, not an
 * error.
 */
export class ChainReadError extends ChainError {
  override name = 'ChainReadError'
  /** The call that failed, e.g. `vault.get_state`, `getEvents`, `usdc.balance(vault)`. */
  readonly call: string
  /** Why, in one line. */
  readonly reason: string

  constructor(call: string, reason: string, options: { cause?: unknown } = {}) {
    super(`reading ${call} failed`, { details: reason, ...options })
    this.call = call
    this.reason = reason
  }
}

/** One line describing any thrown value. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return (err.message.split('\n')[0] ?? err.message) || err.name
  return String(err)
}
