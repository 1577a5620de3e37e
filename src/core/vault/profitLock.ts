/**
 * The vault's profit lock, the three fields of `VaultState` that spread booked profit over time:
 * `lockedProfit` (i128) was locked at `lockStart` and unlocks linearly until `lockEnd` (Unix
 * seconds, u64). The empty lock of a new vault is `{ lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }`.
 */
export type ProfitLock = {
  /** Profit (USDC, 7 decimals) locked at `lockStart`, >= 0. */
  lockedProfit: bigint
  /** When the lock started: the last booking's timestamp. */
  lockStart: bigint
  /** When all of it is unlocked, >= `lockStart`. */
  lockEnd: bigint
}

/** Largest u64, the range of a ledger timestamp and of the lock's times. */
export const U64_MAX = (1n << 64n) - 1n
