/**
 * The keepers store: the registry's keepers and its configuration (min_stake, slash_timeout,
 * slash_rate_bps), the vault's keeper fee, and the owner of each executor contract a keeper
 * registered through, keyed by the deployment's reads and the write counter.
 */
import { createResource } from 'solid-js'
import type { KeeperInfo, Reads, RegistryConfig, VaultConfig } from '../clients/chain.js'
import { isContractAddress } from '../logic/keeperRows.js'
import { settle } from './position.js'
import { writes } from './wallet.js'

export interface RegistrySnapshot {
  keepers: KeeperInfo[]
  config: RegistryConfig
  /** The vault's `keeper_fee_bps` (what a keeper earns of each fill's gross profit); undefined when get_config did not answer. */
  keeperFeeBps: number | undefined
  /** Executor contract → owner, for those whose `owner()` answered. */
  owners: Record<string, string>
}

/** Each executor's owner; an executor that does not answer is left out (its operator shows as unknown). */
async function executorOwners(reads: Reads, keepers: readonly KeeperInfo[]): Promise<Record<string, string>> {
  const executors = keepers.map((k) => k.operator).filter(isContractAddress)
  const owners = await Promise.all(executors.map((c) => reads.executorOwner(c).catch(() => undefined)))
  const out: Record<string, string> = {}
  executors.forEach((c, i) => {
    const owner = owners[i]
    if (owner !== undefined && owner !== '') out[c] = owner
  })
  return out
}

async function loadRegistry(reads: Reads): Promise<RegistrySnapshot> {
  const [keepers, config, vault] = await Promise.all([
    reads.keepers(),
    reads.registryConfig(),
    reads.vaultConfig().catch((): VaultConfig | undefined => undefined),
  ])
  return { keepers, config, keeperFeeBps: vault?.keeperFeeBps, owners: await executorOwners(reads, keepers) }
}

export function createKeepersStore(reads: () => Reads | undefined) {
  const [registry, { refetch }] = createResource(
    () => {
      const r = reads()
      return r === undefined ? undefined : { reads: r, writes: writes() }
    },
    ({ reads }) => settle(loadRegistry(reads)),
  )
  return {
    /** The keepers and the registry's settings (undefined while the first read runs or after a failure). */
    registry: () => registry.latest?.data,
    /** Why the last read failed, if it did. */
    error: () => registry.latest?.error,
    refresh: () => void refetch(),
  }
}

export type KeepersStore = ReturnType<typeof createKeepersStore>
