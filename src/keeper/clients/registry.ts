import type { Keypair } from '@stellar/stellar-sdk'
import { addr, invoke, read, str, type Chain } from '../../chain/index.js'
import { toKeeperInfo, toRegistryConfig, type KeeperInfo, type RegistryConfig } from '../../chain/records/registry.js'

/** Registry error codes (contracts/registry, band 200-299) the keeper reacts to. */
export const RegistryErrorCode = {
  AlreadyRegistered: 201,
  NotRegistered: 202,
  Unauthorized: 203,
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

  async getKeeper(operator: string): Promise<KeeperInfo> {
    return toKeeperInfo(await read(this.chain, this.contractId, 'get_keeper', [addr(operator)]))
  }

  async getKeepers(): Promise<KeeperInfo[]> {
    const list = await read<unknown[]>(this.chain, this.contractId, 'get_keepers')
    return (Array.isArray(list) ? list : []).map(toKeeperInfo)
  }

  async getConfig(): Promise<RegistryConfig> {
    return toRegistryConfig(await read(this.chain, this.contractId, 'get_config'))
  }
}
