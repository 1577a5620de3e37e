/**
 * The keepers store: the registry's keepers and its configuration (min_stake, slash_timeout),
 * keyed by the deployment's reads and the write counter.
 */
import { createResource } from 'solid-js'
import type { KeeperInfo, Reads, RegistryConfig } from '../clients/chain.js'
import { settle } from './position.js'
import { writes } from './wallet.js'

export interface RegistrySnapshot {
  keepers: KeeperInfo[]
  config: RegistryConfig
}

async function loadRegistry(reads: Reads): Promise<RegistrySnapshot> {
  const [keepers, config] = await Promise.all([reads.keepers(), reads.registryConfig()])
  return { keepers, config }
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
