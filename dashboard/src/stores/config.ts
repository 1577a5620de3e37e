/**
 * The configuration store: loaded once at start, replaced when Settings saves. The config parser
 * (zod) and the chain client (@stellar/stellar-sdk) are fetched by `import()`, so the shell and
 * the first view paint before either has arrived.
 */
import { createContext, createResource, useContext, type Resource } from 'solid-js'
import type { Reads } from '../clients/chain.js'
import type { LoadedConfig } from '../config/load.js'
import type { DashboardConfig } from '../config/schema.js'

export interface ConfigStore {
  loaded: Resource<LoadedConfig>
  reload: () => void
  /** The valid configuration, or undefined while loading or when Settings needs fixing. */
  config: () => DashboardConfig | undefined
  /** Typed chain reads for the configured deployment. */
  reads: () => Reads | undefined
}

/**
 * Resolves once the browser has painted the shell: the parser and the chain client are evaluated
 * after it, so their start-up work does not hold back the first paint.
 */
const firstPaint: Promise<void> =
  typeof requestAnimationFrame === 'function' ? new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))) : Promise.resolve()

export function createConfigStore(): ConfigStore {
  const [loaded, { refetch }] = createResource(async () => {
    await firstPaint
    return (await import('../config/load.js')).loadConfig()
  })
  const [chainClient] = createResource(async () => {
    await firstPaint
    return import('../clients/chain.js')
  })
  let cached: { config: DashboardConfig; reads: Reads } | undefined
  const config = () => loaded()?.config
  const reads = () => {
    const c = config()
    const client = chainClient()
    if (c === undefined || client === undefined) return undefined
    if (cached?.config !== c) cached = { config: c, reads: new client.Reads(client.chainFor(c), c.contracts) }
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
