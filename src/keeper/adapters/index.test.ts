import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../chain/index.js'
import type { AdapterContext, ProtocolAdapter } from '../sdk/index.js'
import { buildAdapters, builtinAdapterFactories } from './index.js'

const POOL = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'

function ctx(over: Partial<AdapterContext>, warnings: string[] = []): AdapterContext {
  return {
    chain: createChain({ rpcUrl: 'http://127.0.0.1:1', networkPassphrase: 'x' }),
    keypair: Keypair.random(),
    logger: { info() {}, debug() {}, error: (_o, m) => warnings.push(`error ${m}`), warn: (_o, m) => warnings.push(`warn ${m}`) },
    vaultContract: POOL,
    registryContract: POOL,
    usdcContract: undefined,
    lendingPool: undefined,
    minProfit: 1.02,
    slippageBps: 100,
    primaryDexRouter: undefined,
    fallbackDexRouter: undefined,
    rebalanceVault: undefined,
    rebalanceDriftBps: 500,
    emit() {},
    ...over,
  }
}

const named = (name: string): ProtocolAdapter => ({
  name: () => name,
  getTasks: async () => [],
  execute: async () => ({ drew: 0n, proceeds: 0n, profit: 0n, responseTimeMs: 0 }),
  estimateCapital: () => 0n,
})

describe('buildAdapters', () => {
  const factories = { lendingPool: () => named('lending'), rebalance: () => named('rebalance') }

  it('builds nothing in vault-monitor-only mode', async () => {
    expect(await buildAdapters(ctx({}), factories)).toEqual([])
  })

  it('builds the lending-pool adapter when a pool is set, and rebalancing iff REBALANCE_VAULT', async () => {
    expect((await buildAdapters(ctx({ lendingPool: POOL }), factories)).map((a) => a.name())).toEqual(['lending'])
    expect(
      (await buildAdapters(ctx({ lendingPool: POOL, rebalanceVault: POOL }), factories)).map((a) => a.name()),
    ).toEqual(['lending', 'rebalance'])
  })

  it('builds one lending-pool adapter per pool, each for its pool, sharing one map', async () => {
    const POOL2 = 'CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC'
    const seen: AdapterContext[] = []
    const built = await buildAdapters(ctx({ lendingPools: [POOL, POOL2] }), {
      lendingPool: (c) => {
        seen.push(c)
        return named(`lending ${c.lendingPool}`)
      },
    })
    expect(built.map((a) => a.name())).toEqual([`lending ${POOL}`, `lending ${POOL2}`])
    expect(seen.map((c) => c.lendingPools)).toEqual([
      [POOL, POOL2],
      [POOL, POOL2],
    ])
    expect(seen[0]!.shared).toBeDefined()
    expect(seen[0]!.shared).toBe(seen[1]!.shared)
  })

  it('keeps the other pools when one pool\'s adapter fails to build', async () => {
    const POOL2 = 'CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC'
    const warnings: string[] = []
    const built = await buildAdapters(ctx({ lendingPools: [POOL, POOL2] }, warnings), {
      lendingPool: (c) => {
        if (c.lendingPool === POOL) throw new Error('unreadable pool')
        return named('lending')
      },
    })
    expect(built.map((a) => a.name())).toEqual(['lending'])
    expect(warnings).toEqual(['error adapter failed to build; skipped'])
  })

  it('skips a missing or failing factory with a log line', async () => {
    const warnings: string[] = []
    const built = await buildAdapters(ctx({ lendingPool: POOL, rebalanceVault: POOL }, warnings), {
      rebalance: () => {
        throw new Error('bad config')
      },
    })
    expect(built).toEqual([])
    expect(warnings).toEqual(['warn adapter not available in this build; skipped', 'error adapter failed to build; skipped'])
  })

  it('ships the lending-pool and rebalancing factories', () => {
    expect(typeof builtinAdapterFactories.lendingPool).toBe('function')
    expect(typeof builtinAdapterFactories.rebalance).toBe('function')
  })
})
