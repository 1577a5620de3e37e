import { InvalidInputError } from '../errors.js'
import { U64_MAX } from './profitLock.js'

/**
 * Returns `value` unchanged when it is a u64 (a ledger timestamp or a duration in seconds), else
 * throws `InvalidInput`. Internal to `profit/`.
 */
export function assertTimestamp(value: bigint, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX)
    throw new InvalidInputError(`${what} must be a u64 (0..2^64 - 1).`, `${what} = ${String(value)}`)
  return value
}
