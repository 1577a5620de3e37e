/**
 * The keeper registry's records (contracts/registry/src/types.rs), one decoder per struct from
 * the value `scValToNative` returns. Browser-safe.
 */
import { asRecord, pick, toBigInt, toBool, toHex, toNumber, toStr } from './convert.js'

/** `KeeperInfo`: a registered operator, its stake and its performance counters. */
export interface KeeperInfo {
  operator: string
  name: string
  stake: bigint
  totalExecutions: number
  successfulFills: number
  totalProfit: bigint
  avgResponseTimeMs: number
  hasActiveDraw: boolean
  drawAmount: bigint
  /** Ledger timestamp (s) the current draw was marked; 0 when none. */
  drawTimestamp: number
  registeredAt: number
  slashed: boolean
  slashCount: number
  totalSlashed: bigint
  /** The operator is an executor the registry deployed from its executor code (may flash-draw). */
  approved: boolean
  /** The largest new two-step draw the keeper's stake backs: floor(stake × (10000 − slash_rate_bps) / 10000). */
  drawLimit: bigint
}

/** `RegistryConfig`. */
export interface RegistryConfig {
  minStake: bigint
  /** Seconds a draw may stay out before anyone may slash its keeper. */
  slashTimeout: number
  slashRateBps: number
  usdcToken: string
  /** Hash (hex) of the executor code `deploy_executor` deploys. */
  executorWasm: string
}

export function toKeeperInfo(v: unknown): KeeperInfo {
  const r = asRecord(v)
  const slashCount = toNumber(pick(r, 'slash_count', 'slashed_count', 'times_slashed'))
  const slashedRaw = pick(r, 'slashed', 'is_slashed')
  return {
    operator: toStr(r.operator),
    name: toStr(r.name),
    stake: toBigInt(r.stake),
    totalExecutions: toNumber(r.total_executions),
    successfulFills: toNumber(r.successful_fills),
    totalProfit: toBigInt(r.total_profit),
    avgResponseTimeMs: toNumber(r.avg_response_time_ms),
    hasActiveDraw: toBool(r.has_active_draw),
    drawAmount: toBigInt(r.draw_amount),
    drawTimestamp: toNumber(r.draw_timestamp),
    registeredAt: toNumber(r.registered_at),
    slashed: slashedRaw === undefined ? slashCount > 0 : toBool(slashedRaw),
    slashCount,
    totalSlashed: toBigInt(r.total_slashed),
    approved: toBool(r.approved),
    drawLimit: toBigInt(r.draw_limit),
  }
}

export function toRegistryConfig(v: unknown): RegistryConfig {
  const r = asRecord(v)
  return {
    minStake: toBigInt(r.min_stake),
    slashTimeout: toNumber(r.slash_timeout),
    slashRateBps: toNumber(r.slash_rate_bps),
    usdcToken: toStr(r.usdc_token),
    executorWasm: toHex(r.executor_wasm),
  }
}
