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
}

/** `VaultConfig`. */
export interface VaultConfig {
  depositCap: bigint
  /** Seconds after a deposit before its depositor may withdraw. */
  withdrawCooldown: number
  maxDrawPerKeeper: bigint
}

/** `DepositorInfo`. */
export interface DepositorInfo {
  shares: bigint
  costBasis: bigint
  totalDeposited: bigint
  totalWithdrawn: bigint
  /** Ledger timestamp (s) of the depositor's last deposit; 0 when none. */
  lastDepositTime: number
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
  }
}

export function toVaultConfig(v: unknown): VaultConfig {
  const r = asRecord(v)
  return {
    depositCap: toBigInt(r.deposit_cap),
    withdrawCooldown: toNumber(r.withdraw_cooldown),
    maxDrawPerKeeper: toBigInt(r.max_draw_per_keeper),
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
    raw: r,
  }
}
