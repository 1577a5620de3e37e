/**
 * The vault contract's records (contracts/vault/src/types.rs) as the rest of the project reads
 * them: one decoder per struct, from the value `scValToNative` returns. Browser-safe.
 */
import { asRecord, pick, toBigInt, toNumber } from './convert.js'

/** `VaultState`: the vault's books. */
export interface VaultState {
  totalUsdc: bigint
  totalShares: bigint
  totalProfit: bigint
  activeLiq: bigint
  /** Profit booked but not yet released to the share price, as of `lockStart`. */
  lockedProfit: bigint
  /**
   * Ledger timestamps (s, u64) between which `lockedProfit` unlocks linearly; bigints, so a
   * VaultState is src/core's `ProfitLock` (`lockedProfit(state, now)`).
   */
  lockStart: bigint
  lockEnd: bigint
  /** Shares depositors asked to withdraw (`request_withdraw`). */
  pendingShares: bigint
}

/** `VaultConfig`. */
export interface VaultConfig {
  depositCap: bigint
  /** Seconds after a deposit before its depositor may withdraw. */
  withdrawCooldown: number
  maxDrawPerKeeper: bigint
  /** The keeper's share of a fill's gross profit, in basis points (at most 5000). */
  keeperFeeBps: number
  /** Seconds over which booked profit unlocks into the share price. */
  profitUnlockSecs: number
}

/** `DepositorInfo`. */
export interface DepositorInfo {
  shares: bigint
  costBasis: bigint
  totalDeposited: bigint
  totalWithdrawn: bigint
  /** Ledger timestamp (s) of the depositor's last deposit; 0 when none. */
  lastDepositTime: number
  /** Shares the depositor asked to withdraw (`request_withdraw`), at most `shares`. */
  withdrawRequest: bigint
  /** Every field the contract returned, as decoded. */
  raw: Record<string, unknown>
}

export function toVaultState(v: unknown): VaultState {
  const r = asRecord(v)
  return {
    totalUsdc: toBigInt(r.total_usdc),
    totalShares: toBigInt(r.total_shares),
    totalProfit: toBigInt(r.total_profit),
    activeLiq: toBigInt(r.active_liq),
    lockedProfit: toBigInt(r.locked_profit),
    lockStart: toBigInt(r.lock_start),
    lockEnd: toBigInt(r.lock_end),
    pendingShares: toBigInt(r.pending_shares),
  }
}

export function toVaultConfig(v: unknown): VaultConfig {
  const r = asRecord(v)
  return {
    depositCap: toBigInt(r.deposit_cap),
    withdrawCooldown: toNumber(r.withdraw_cooldown),
    maxDrawPerKeeper: toBigInt(r.max_draw_per_keeper),
    keeperFeeBps: toNumber(r.keeper_fee_bps),
    profitUnlockSecs: toNumber(r.profit_unlock_secs),
  }
}

export function toDepositorInfo(v: unknown): DepositorInfo {
  const r = asRecord(v)
  return {
    shares: toBigInt(pick(r, 'shares')),
    costBasis: toBigInt(pick(r, 'cost_basis', 'deposited', 'total_deposited')),
    totalDeposited: toBigInt(r.total_deposited),
    totalWithdrawn: toBigInt(r.total_withdrawn),
    lastDepositTime: toNumber(pick(r, 'last_deposit_time', 'last_deposit', 'last_deposit_ts')),
    withdrawRequest: toBigInt(r.withdraw_request),
    raw: r,
  }
}
