/**
 * The dashboard's access to the chain: typed read-only simulations of the vault, the registry and
 * the USDC token through src/chain (no fee, no signature), and the `Chain` writes go through.
 */
import { scValToNative, type xdr } from '@stellar/stellar-sdk'
import { createChain, type Chain } from '../../../src/chain/connection.js'
import { readLedgerTime, type LedgerTime, type LedgerTimeReader } from '../../../src/chain/ledgerTime.js'
import { simulateReadAt } from '../../../src/chain/simulate.js'
import { addr, u32 } from '../../../src/chain/scval.js'
import {
  readKeeperPages,
  toBigInt,
  toDepositorInfo,
  toKeeperInfo,
  toRegistryConfig,
  toStr,
  toVaultConfig,
  toVaultState,
  type DepositorInfo,
  type KeeperInfo,
  type RegistryConfig,
  type VaultConfig,
  type VaultState,
} from '../../../src/chain/records/index.js'
import type { DashboardConfig } from '../config/schema.js'

export type { DepositorInfo, KeeperInfo, RegistryConfig, VaultConfig, VaultState }

export function chainFor(config: DashboardConfig): Chain {
  return createChain({
    rpcUrl: config.network.rpcUrl,
    networkPassphrase: config.network.networkPassphrase,
    ...(config.network.friendbotUrl === undefined ? {} : { friendbotUrl: config.network.friendbotUrl }),
  })
}

async function read<T>(chain: Chain, contract: string, method: string, args: xdr.ScVal[], decode: (v: unknown) => T): Promise<T> {
  const { retval } = await simulateReadAt(chain, contract, method, args)
  return decode(scValToNative(retval))
}

/** Typed reads of one deployment (vault, registry, USDC). */
export class Reads {
  constructor(
    readonly chain: Chain,
    readonly contracts: DashboardConfig['contracts'],
  ) {}

  vaultState = (): Promise<VaultState> => read(this.chain, this.contracts.vault, 'get_state', [], toVaultState)
  vaultConfig = (): Promise<VaultConfig> => read(this.chain, this.contracts.vault, 'get_config', [], toVaultConfig)
  depositor = (account: string): Promise<DepositorInfo> =>
    read(this.chain, this.contracts.vault, 'get_depositor', [addr(account)], toDepositorInfo)
  /** `vault.balance(account)`: the USDC value of the account's shares (floor). */
  vaultBalance = (account: string): Promise<bigint> => read(this.chain, this.contracts.vault, 'balance', [addr(account)], (v) => toBigInt(v))
  /** Every registered keeper: `keeper_count`, then the pages of `get_keepers(start, 200)` it covers. */
  keepers = (): Promise<KeeperInfo[]> =>
    readKeeperPages(
      (start, limit) =>
        read(this.chain, this.contracts.registry, 'get_keepers', [u32(start), u32(limit)], (v) => (Array.isArray(v) ? v : []).map(toKeeperInfo)),
      { count: () => read(this.chain, this.contracts.registry, 'keeper_count', [], (v) => Number(toBigInt(v))) },
    )
  /** An executor contract's `owner()`: the account that runs a keeper registered through it. */
  executorOwner = (executor: string): Promise<string> => read(this.chain, executor, 'owner', [], toStr)
  registryConfig = (): Promise<RegistryConfig> => read(this.chain, this.contracts.registry, 'get_config', [], toRegistryConfig)
  /** The account's USDC balance (SEP-41 `balance`). */
  usdcBalance = (account: string): Promise<bigint> => read(this.chain, this.contracts.usdc, 'balance', [addr(account)], (v) => toBigInt(v))
  /** The latest ledger's sequence and close time (s), the clock for cooldowns and draw ages. */
  latestLedger = async (): Promise<{ sequence: number; closeTime: number }> => {
    const l = await this.chain.server.getLatestLedger()
    return { sequence: l.sequence, closeTime: Number((l as { closeTime?: string | number }).closeTime ?? 0) }
  }
  /** The network's ledger time (src/chain readLedgerTime: scp_timing, else recent closes, else 5 s). */
  ledgerTime = (): Promise<LedgerTime> => readLedgerTime(this.chain.server as unknown as LedgerTimeReader)
}
