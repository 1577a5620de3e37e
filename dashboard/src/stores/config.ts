/** The configuration store: loaded once at start, replaced when Settings saves. */
import { createContext, createResource, useContext, type Resource } from 'solid-js'
import { Reads, chainFor } from '../clients/chain.js'
import { loadConfig, type LoadedConfig } from '../config/load.js'
import type { DashboardConfig } from '../config/schema.js'

export interface ConfigStore {
  loaded: Resource<LoadedConfig>
  reload: () => void
  /** The valid configuration, or undefined while loading or when Settings needs fixing. */
  config: () => DashboardConfig | undefined
  /** Typed chain reads for the configured deployment. */
  reads: () => Reads | undefined
}

export function createConfigStore(): ConfigStore {
  const [loaded, { refetch }] = createResource(loadConfig)
  let cached: { config: DashboardConfig; reads: Reads } | undefined
  const config = () => loaded()?.config
  const reads = () => {
    const c = config()
    if (c === undefined) return undefined
    if (cached?.config !== c) cached = { config: c, reads: new Reads(chainFor(c), c.contracts) }
    return cached.reads
  }
  return { loaded, reload: () => void refetch(), config, reads }
}

export const ConfigContext = createContext<ConfigStore>()

export function useConfig(): ConfigStore {
  const store = useContext(ConfigContext)
  if (!store) throw new Error('useConfig outside <ConfigContext.Provider>')
  return store
}
