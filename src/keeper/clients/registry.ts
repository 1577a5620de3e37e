import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, i128, invoke, read, readKeeperPages, str, u32, type Chain } from '../../chain/index.js'
import { toKeeperInfo, toRegistryConfig, type KeeperInfo, type RegistryConfig } from '../../chain/records/registry.js'
import { toNumber } from './convert.js'

/** Registry error codes (contracts/registry, band 200-299) the keeper reacts to. */
export const RegistryErrorCode = {
  AlreadyRegistered: 201,
  NotRegistered: 202,
  Unauthorized: 203,
  VaultNotSet: 204,
  DrawOutstanding: 206,
  KeeperBanned: 209,
  InvalidAmount: 210,
  /** `withdraw_bond` would leave less than min_stake. */
  BondBelowMinimum: 215,
  /** A new two-step draw above the keeper's `draw_limit` (its bond backs less). */
  BondTooSmall: 216,
  PageOutOfRange: 217,
  InvalidPageSize: 218,
} as const

export { toKeeperInfo, type KeeperInfo, type RegistryConfig } from '../../chain/records/registry.js'

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

  /** add_bond(operator, amount): more of the operator's USDC behind its draws (raises `drawLimit`). */
  async addBond(operator: Keypair, amount: bigint): Promise<void> {
    await invoke(this.chain, operator, this.contractId, 'add_bond', [addr(operator.publicKey()), i128(amount)])
  }

  /** withdraw_bond(operator, amount): bond back to the operator (at least min_stake stays; never while a draw is out). */
  async withdrawBond(operator: Keypair, amount: bigint): Promise<void> {
    await invoke(this.chain, operator, this.contractId, 'withdraw_bond', [addr(operator.publicKey()), i128(amount)])
  }

  /**
   * deploy_executor(owner, salt): the registry deploys its approved executor code for `owner`
   * (constructor owner, vault, usdc, registry). Returns the executor's address; the keeper's
   * `ExecutorContract.deployFromRegistry` wraps it in a client.
   */
  async deployExecutor(owner: Keypair, salt: Uint8Array): Promise<string> {
    const res = await invoke<string>(this.chain, owner, this.contractId, 'deploy_executor', [addr(owner.publicKey()), xdr.ScVal.scvBytes(Buffer.from(salt))])
    return String(res.value)
  }

  async getKeeper(operator: string): Promise<KeeperInfo> {
    return toKeeperInfo(await read(this.chain, this.contractId, 'get_keeper', [addr(operator)]))
  }

  /** One page of keepers: slots [start, min(start + limit, keeper_count)), limit 1-200. */
  async getKeeperPage(start: number, limit: number): Promise<KeeperInfo[]> {
    const list = await read<unknown[]>(this.chain, this.contractId, 'get_keepers', [u32(start), u32(limit)])
    return (Array.isArray(list) ? list : []).map(toKeeperInfo)
  }

  async keeperCount(): Promise<number> {
    return toNumber(await read(this.chain, this.contractId, 'keeper_count'))
  }

  /** Every registered keeper, read a page of 200 at a time. */
  async getKeepers(): Promise<KeeperInfo[]> {
    return readKeeperPages((start, limit) => this.getKeeperPage(start, limit), { count: () => this.keeperCount() })
  }

  /** Whether `address` is an executor this registry deployed (`is_executor`). */
  async isExecutor(address: string): Promise<boolean> {
    return (await read<boolean>(this.chain, this.contractId, 'is_executor', [addr(address)])) === true
  }

  /** The pools and routers an approved executor may use (empty when never set). */
  async getVenues(): Promise<string[]> {
    const list = await read<unknown[]>(this.chain, this.contractId, 'get_venues')
    return (Array.isArray(list) ? list : []).map(String)
  }

  async getConfig(): Promise<RegistryConfig> {
    return toRegistryConfig(await read(this.chain, this.contractId, 'get_config'))
  }
}
