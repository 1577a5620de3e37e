import { Address, nativeToScVal, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain, type RpcLike } from '../../chain/index.js'
import { makeResult, type FireContext, type StagedAdapter } from '../sdk/index.js'
import { cycleWorld, fakeVault } from '../../../test/keeper/cycleFakes.js'
import { runCycle } from './cycle.js'

const VAULT = Address.contract(Buffer.alloc(32, 9)).toString()

async function gauges(w: ReturnType<typeof cycleWorld>) {
  const all = await w.deps.metrics.registry.getMetricsAsJSON()
  const v = (n: string) => all.find((m) => m.name === n)?.values[0]?.value
  return { usdc: v('service_draws_outstanding'), ledgers: v('service_draw_outstanding_ledgers') }
}

/** A node whose only history is one vault `draw` event for `keeper` at `ledger`. */
function nodeWithDrawEvent(keeper: string, ledger: number) {
  const asked: unknown[] = []
  const server = {
    async getHealth() {
      return { status: 'healthy', oldestLedger: 1, latestLedger: 500 }
    },
    async getEvents(req: unknown) {
      asked.push(req)
      const topic = [nativeToScVal('draw', { type: 'symbol' }), new Address(keeper).toScVal()]
      return { events: [{ ledger, inSuccessfulContractCall: true, topic }], latestLedger: 500 }
    },
  }
  return { chain: createChain({ rpcUrl: 'http://node', networkPassphrase: 'x', server: server as unknown as RpcLike }), asked }
}

describe("the outstanding draw on /api/state and /metrics", () => {
  it('shows a draw the engine holds while it is out, ages it ledger by ledger, and clears it on return', async () => {
    const { vault, box } = fakeVault()
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    let drawn: () => void = () => {}
    const hasDrawn = new Promise<void>((r) => (drawn = r))
    let offered = 0
    const adapter: StagedAdapter<null, null> = {
      name: () => 'slow',
      getTasks: async () => (offered++ === 0 ? [{ priority: 5, estProfit: 0n, data: null, label: 'job' }] : []),
      execute: async () => makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0 }),
      estimateCapital: () => 250_0000000n,
      taskKey: () => 'job',
      plan: async () => ({ key: 'job', targetLedger: 100, capital: 250_0000000n, priority: 5, path: 'two-step', data: null }),
      async fire(_c, _k, _plan, fc: FireContext) {
        await fc.vault.draw(250_0000000n)
        await fc.step('drawn')
        drawn()
        await gate
        await fc.vault.returnProceeds(250_0000000n, 0)
        await fc.step('returned')
        return makeResult({ drew: 250_0000000n, proceeds: 250_0000000n, responseTimeMs: 0 })
      },
    }
    const w = cycleWorld({ vault, adapters: [adapter] })
    await runCycle(w.deps)
    await hasDrawn
    // Mid-execution: the engine holds the draw (stale-draw recovery stays out of its way).
    expect(w.deps.state.outstandingDraw).toBe(250_0000000n)
    expect(await gauges(w)).toEqual({ usdc: 250, ledgers: 0 })

    w.ledger(103)
    // The next cycle's refresh reads the vault's record of it and keeps it.
    await runCycle(w.deps)
    expect(box.draw).toBe(250_0000000n)
    expect(w.deps.state.outstandingDraw).toBe(250_0000000n)
    expect(w.deps.state.outstandingDrawLedgers).toBe(3)
    expect(await gauges(w)).toEqual({ usdc: 250, ledgers: 3 })

    release()
    await w.deps.engine.drained()
    expect(w.deps.state.outstandingDraw).toBe(0n)
    expect(await gauges(w)).toEqual({ usdc: 0, ledgers: 0 })
    await runCycle(w.deps)
    expect(await gauges(w)).toEqual({ usdc: 0, ledgers: 0 })
  })

  it("ages a draw found on chain from the ledger of the vault's draw event for this keeper", async () => {
    const w0 = cycleWorld()
    const keeper = w0.deps.keypair.publicKey()
    const { chain, asked } = nodeWithDrawEvent(keeper, 90)
    const { vault } = fakeVault({ draw: 40_0000000n })
    const w = cycleWorld({ keypair: w0.deps.keypair, chain, vault, vaultContract: VAULT })
    await runCycle(w.deps)
    expect(w.deps.state.outstandingDraw).toBe(40_0000000n)
    expect(await gauges(w)).toEqual({ usdc: 40, ledgers: 10 })
    w.ledger(120)
    expect(await gauges(w)).toEqual({ usdc: 40, ledgers: 30 })
    // Looked up once for this draw, by the vault's `draw` topic and this keeper.
    await runCycle(w.deps)
    expect(asked).toHaveLength(1)
    const filter = (asked[0] as { filters: { contractIds: string[]; topics: string[][] }[] }).filters[0]!
    expect(filter.contractIds).toEqual([VAULT])
    const [name, who] = filter.topics[0]!.map((t) => xdr.ScVal.fromXdr(t, 'base64'))
    expect(xdr.expectUnionVariant(name!, 'scvSymbol').sym.toString()).toBe('draw')
    expect(Address.fromScVal(who!).toString()).toBe(keeper)
  })

  it('counts from the ledger it was first seen in when the node has no such event, and looks again next cycle', async () => {
    let lookups = 0
    const server = {
      getHealth: async () => ({ status: 'healthy', oldestLedger: 95, latestLedger: 100 }),
      getEvents: async () => {
        lookups++
        return { events: [], latestLedger: 100 }
      },
    }
    const chain = createChain({ rpcUrl: 'http://node', networkPassphrase: 'x', server: server as unknown as RpcLike })
    const { vault } = fakeVault({ draw: 5_0000000n })
    const w = cycleWorld({ vault, chain })
    await runCycle(w.deps)
    w.ledger(104)
    expect(await gauges(w)).toEqual({ usdc: 5, ledgers: 4 })
    await runCycle(w.deps)
    expect(lookups).toBe(2)
    expect(await gauges(w)).toEqual({ usdc: 5, ledgers: 4 })
  })
})
