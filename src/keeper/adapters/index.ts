import type { AdapterContext, AdapterFactory, ProtocolAdapter } from '../sdk/index.js'
import { createLendingPoolAdapter } from './blend/index.js'
import { createRebalanceAdapter } from './rebalance/index.js'

/** Factories of the adapters this build ships (see AdapterFactory for the module contract). */
export interface AdapterFactories {
  /** Lending-pool liquidation adapter, built when LENDING_POOL is set. */
  lendingPool?: AdapterFactory
  /** Rebalancing adapter, built when REBALANCE_VAULT is set. */
  rebalance?: AdapterFactory
}

export const builtinAdapterFactories: AdapterFactories = {
  lendingPool: createLendingPoolAdapter,
  rebalance: createRebalanceAdapter,
}

/**
 * Startup step 4: the lending-pool adapter (whenever a pool is configured — without one the
 * keeper is vault-monitor-only), then the rebalancing adapter iff REBALANCE_VAULT is set. The
 * factories build their DEX client themselves, only when a router is configured. A factory that
 * is missing or throws is logged and skipped: the API and the stale-draw recovery still run.
 */
export async function buildAdapters(ctx: AdapterContext, factories: AdapterFactories): Promise<ProtocolAdapter<any>[]> {
  const out: ProtocolAdapter<any>[] = []
  const wanted: Array<[string, AdapterFactory | undefined, boolean]> = [
    ['lending-pool', factories.lendingPool, ctx.lendingPool !== undefined],
    ['rebalance', factories.rebalance, ctx.rebalanceVault !== undefined],
  ]
  for (const [kind, factory, enabled] of wanted) {
    if (!enabled) continue
    if (!factory) {
      ctx.logger.warn({ adapter: kind }, 'adapter not available in this build; skipped')
      continue
    }
    try {
      const adapter = await factory(ctx)
      ctx.logger.info({ adapter: adapter.name() }, 'adapter ready')
      out.push(adapter)
    } catch (err) {
      ctx.logger.error({ adapter: kind, err: err instanceof Error ? err.message : String(err) }, 'adapter failed to build; skipped')
    }
  }
  return out
}
