import type { AdapterContext, AdapterFactory, ProtocolAdapter } from '../sdk/index.js'
import { createLendingPoolAdapter } from './blend/index.js'
import { createRebalanceAdapter } from './rebalance/index.js'

/** Factories of the adapters this build ships (see AdapterFactory for the module contract). */
export interface AdapterFactories {
  /** Lending-pool liquidation adapter, built once per pool of LENDING_POOLS. */
  lendingPool?: AdapterFactory
  /** Rebalancing adapter, built when REBALANCE_VAULT is set. */
  rebalance?: AdapterFactory
}

export const builtinAdapterFactories: AdapterFactories = {
  lendingPool: createLendingPoolAdapter,
  rebalance: createRebalanceAdapter,
}

/**
 * Startup step 4: one lending-pool adapter per pool (`lendingPools`, else `lendingPool`; without
 * one the keeper is vault-monitor-only), then the rebalancing adapter iff REBALANCE_VAULT is set.
 * The adapters of one keeper share `ctx.shared` (one map). The factories build their DEX client
 * themselves, only when a router is configured. A factory that is missing or throws is logged and
 * skipped: the API, the other pools and the stale-draw recovery still run.
 */
export async function buildAdapters(ctx: AdapterContext, factories: AdapterFactories): Promise<ProtocolAdapter<any>[]> {
  const out: ProtocolAdapter<any>[] = []
  const pools = ctx.lendingPools ?? (ctx.lendingPool === undefined ? [] : [ctx.lendingPool])
  const shared = ctx.shared ?? new Map<string, unknown>()
  type Wanted = [kind: string, factory: AdapterFactory | undefined, ctx: AdapterContext]
  const wanted: Wanted[] = pools.map((pool): Wanted => [
    pools.length > 1 ? `lending-pool ${pool}` : 'lending-pool',
    factories.lendingPool,
    { ...ctx, lendingPool: pool, lendingPools: pools, shared },
  ])
  if (ctx.rebalanceVault !== undefined) wanted.push(['rebalance', factories.rebalance, { ...ctx, shared }])
  for (const [kind, factory, built] of wanted) {
    if (!factory) {
      ctx.logger.warn({ adapter: kind }, 'adapter not available in this build; skipped')
      continue
    }
    try {
      const adapter = await factory(built)
      ctx.logger.info({ adapter: adapter.name(), ...(built.lendingPool !== undefined && kind !== 'rebalance' ? { pool: built.lendingPool } : {}) }, 'adapter ready')
      out.push(adapter)
    } catch (err) {
      ctx.logger.error({ adapter: kind, err: err instanceof Error ? err.message : String(err) }, 'adapter failed to build; skipped')
    }
  }
  return out
}
