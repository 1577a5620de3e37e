import type { Keypair } from '@stellar/stellar-sdk'
import { addr, invoke, read, str, type Chain } from '../../chain/index.js'
import { asRecord, pick, toBigInt, toBool, toNumber, toStr } from './convert.js'

/** Registry error codes (contracts/registry, band 200-299) the keeper reacts to. */
export const RegistryErrorCode = {
  AlreadyRegistered: 201,
  NotRegistered: 202,
  Unauthorized: 203,
} as const

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
  drawTimestamp: number
  registeredAt: number
  slashed: boolean
  slashCount: number
  totalSlashed: bigint
}

export interface RegistryConfig {
  minStake: bigint
  slashTimeout: number
  slashRateBps: number
  usdcToken: string
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
  }
}

/** Client of the keeper registry contract (contracts/registry). */
export class RegistryContract {
  constructor(
    readonly chain: Chain,
    readonly contractId: string,
  ) {}

  /** register(operator, name): pulls exactly min_stake USDC from the operator. */
  async register(operator: Keypair, name: string): Promise<string> {
    const res = await invoke(this.chain, operator, this.contractId, 'register', [addr(operator.publicKey()), str(name)])
    return res.hash
  }

  async deregister(operator: Keypair): Promise<void> {
    await invoke(this.chain, operator, this.contractId, 'deregister', [addr(operator.publicKey())])
  }

  async getKeeper(operator: string): Promise<KeeperInfo> {
    return toKeeperInfo(await read(this.chain, this.contractId, 'get_keeper', [addr(operator)]))
  }

  async getKeepers(): Promise<KeeperInfo[]> {
    const list = await read<unknown[]>(this.chain, this.contractId, 'get_keepers')
    return (Array.isArray(list) ? list : []).map(toKeeperInfo)
  }

  async getConfig(): Promise<RegistryConfig> {
    const r = asRecord(await read(this.chain, this.contractId, 'get_config'))
    return {
      minStake: toBigInt(r.min_stake),
      slashTimeout: toNumber(r.slash_timeout),
      slashRateBps: toNumber(r.slash_rate_bps),
      usdcToken: toStr(r.usdc_token),
    }
  }
}
