import { Keypair, Networks } from '@stellar/stellar-sdk'
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { FAST_RETRY, fakeNode, someCall } from '../../../test/chain/fakeNode.js'
import { createChain, refusingSends, submit, type Chain } from '../../chain/index.js'
import { stateView } from '../routes/views.js'
import { makeResult, type ExecutionPlan, type FireContext, type ProtocolAdapter, type StagedAdapter } from '../sdk/index.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { ShadowBook } from '../state/shadow.js'
import { ExecutionEngine } from './engine.js'
import { ManualLedgerClock } from './ledgerClock.js'

const silent = { info() {}, warn() {}, error() {}, debug() {} }
const kp = Keypair.random()

interface Job {
  id: string
  target: number
  capital: bigint
  /** What the node's simulation of the draw says: passes, or a contract error. */
  sim?: 'ok' | string
}

/**
 * A staged adapter that fires as the Blend adapter does: it values the fill, reports it to
 * `wouldFill` when there is one, then draws through a vault client that submits `draw` on the
 * chain, and would fill after that.
 */
function world(opts: { dryRun: boolean; feeBps?: number }) {
  const nodes: ReturnType<typeof fakeNode>[] = []
  const chainFor = (sim: string): Chain => {
    const node = fakeNode({ send: [], get: ['SUCCESS'], sim })
    nodes.push(node)
    return createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: opts.dryRun ? refusingSends(node.server) : node.server, retry: FAST_RETRY })
  }
  const fills: string[] = []
  const adapter: StagedAdapter<Job, Job> = {
    name: () => 'fake',
    getTasks: async () => [],
    execute: async () => makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0 }),
    estimateCapital: (t) => t.data.capital,
    taskKey: (t) => t.data.id,
    async plan(_c, _k, task) {
      return { key: task.data.id, targetLedger: task.data.target, capital: task.data.capital, priority: 4, path: 'atomic', label: task.data.id, data: task.data }
    },
    async fire(_c, _k, plan: ExecutionPlan<Job>, fc: FireContext) {
      fc.wouldFill?.({ ledger: plan.targetLedger, drew: plan.capital, percent: 40, expectedProfit: 50_0000000n, target: `${plan.data.id}:90` })
      await submit(chainFor(plan.data.sim ?? 'ok'), kp, someCall('flash_draw'))
      fills.push(plan.data.id)
      return makeResult({ drew: plan.capital, proceeds: plan.capital + 1n, responseTimeMs: 0 })
    },
  }
  const clock = new ManualLedgerClock({ sequence: 100, closeTimeMs: 100_000 })
  const registry = new Registry()
  const shadow = new ShadowBook(registry, () => opts.feeBps)
  const events: string[] = []
  const engine = new ExecutionEngine({
    chain: chainFor('ok'),
    keypair: kp,
    vault: { draw: async () => {}, returnProceeds: async () => 0n },
    limits: async () => ({ idle: 10_000_0000000n, maxDraw: 10_000_0000000n }),
    clock,
    logger: silent,
    emit: (kind, message) => events.push(`${kind}: ${message}`),
    ...(opts.dryRun ? { dryRun: shadow } : {}),
  })
  engine.start()
  const close = async (to: number) => {
    for (let seq = (await clock.latest()).sequence + 1; seq <= to; seq++) {
      clock.set({ sequence: seq, closeTimeMs: seq * 1000 })
      await engine.settled()
    }
  }
  const sent = () => nodes.reduce((n, x) => n + x.calls.send, 0)
  const simulated = () => nodes.reduce((n, x) => n + x.calls.sim, 0)
  return { engine, adapter, shadow, registry, events, fills, close, sent, simulated }
}

const task = (job: Job) => ({ priority: 4, estProfit: 0n, label: job.id, data: job })

describe('the engine in a dry run', () => {
  it('refuses to start on a chain whose node client would send', () => {
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: fakeNode({ send: [], get: [] }).server })
    const base = { chain, keypair: kp, vault: { draw: async () => {}, returnProceeds: async () => 0n }, limits: async () => ({ idle: 0n, maxDraw: 0n }), clock: new ManualLedgerClock({ sequence: 1, closeTimeMs: 0 }), logger: silent, emit: () => {} }
    expect(() => new ExecutionEngine({ ...base, dryRun: new ShadowBook(new Registry(), () => undefined) })).toThrow(/refuses every send/)
    expect(() => new ExecutionEngine(base)).not.toThrow()
  })

  it('a due fill is valued, simulated and booked as a would-fill; nothing reaches the node', async () => {
    const w = world({ dryRun: true, feeBps: 1000 })
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    w.engine.offer(w.adapter, [task({ id: 'a', target: 105, capital: 900_0000000n })])
    await w.engine.settled()
    await w.close(106)
    expect(w.fills).toEqual([])
    expect(w.simulated()).toBe(1)
    expect(w.sent()).toBe(0)
    expect(w.shadow.fills).toHaveLength(1)
    expect(w.shadow.fills[0]).toMatchObject({
      adapter: 'fake',
      key: 'fake:a',
      target: 'a:90',
      path: 'atomic',
      plannedAt: 100,
      firstPlannedLedger: 105,
      targetLedger: 105,
      fillLedger: 105,
      percent: 40,
      drew: 900_0000000n,
      expectedProfit: 50_0000000n,
      // 10 % (keeper_fee_bps 1000) of the expected gross profit
      expectedReward: 5_0000000n,
      simulation: 'passed',
    })
    expect(w.shadow.fills[0]!.reason).toMatch(/^simulated C[A-Z0-9]{55}:flash_draw, fee \d+ stroops$/)
    expect(w.shadow.totals).toEqual({ fills: 1, refused: 0, drewUsdc: 900_0000000n, profitUsdc: 50_0000000n, rewardsUsdc: 5_0000000n })
    const ex = w.engine.executions().find((e) => e.key === 'fake:a')!
    expect(ex.stage).toBe('abandoned')
    expect(ex.note).toMatch(/^dry run: would fill 40 % at ledger 105 \(first planned 105\), drawing 9000000000; simulation passed/)
    expect(w.events.some((e) => e.startsWith('shadow: fake: a: dry run: would fill'))).toBe(true)
    expect(w.events.some((e) => e.startsWith('miss:'))).toBe(false)

    const text = await w.registry.metrics()
    expect(text).toMatch(/service_shadow_fills_total\{adapter="fake",simulation="passed"\} 1/)
    expect(text).toMatch(/service_shadow_drawn_usdc_total 900/)
    expect(text).toMatch(/service_shadow_profit_usdc_total 50/)
    expect(text).toMatch(/service_shadow_rewards_usdc_total 5/)
  })

  it('a fill whose simulation the network refuses is booked as refused, with the contract error', async () => {
    const w = world({ dryRun: true })
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    w.engine.offer(w.adapter, [task({ id: 'b', target: 102, capital: 10n, sim: 'HostError: Error(Contract, #122)' })])
    await w.engine.settled()
    await w.close(103)
    expect(w.sent()).toBe(0)
    expect(w.shadow.fills[0]).toMatchObject({ simulation: 'refused', expectedReward: null })
    expect(w.shadow.totals.refused).toBe(1)
  })

  it('what planning would send (opening an auction) is simulated and said once, and nothing is planned', async () => {
    const w = world({ dryRun: true })
    const opener: StagedAdapter<Job, Job> = {
      ...w.adapter,
      async plan() {
        await submit(createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: refusingSends(fakeNode({ send: [], get: [] }).server) }), kp, someCall('new_auction'))
        throw new Error('not reached')
      },
    }
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    for (let i = 0; i < 2; i++) {
      w.engine.offer(opener, [task({ id: 'n', target: 110, capital: 1n })])
      await w.engine.settled()
    }
    expect(w.events.filter((e) => /^shadow: fake: n: dry run: would send C[A-Z0-9]{55}:new_auction \(simulation passed; not sent\)$/.test(e))).toHaveLength(1)
    expect(w.events.some((e) => e.startsWith('error:'))).toBe(false)
    expect(w.engine.executions()).toEqual([])
  })

  it("a plain adapter's execute (it sends its own transactions) is not run at all", async () => {
    const w = world({ dryRun: true })
    let executed = 0
    const plain: ProtocolAdapter<Job> = {
      name: () => 'plain',
      getTasks: async () => [],
      estimateCapital: (t) => t.data.capital,
      execute: async () => {
        executed++
        return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0 })
      },
    }
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    // Offered again by every scan: booked once.
    for (let i = 0; i < 3; i++) {
      w.engine.offer(plain, [task({ id: 'r', target: 0, capital: 3n })])
      await w.engine.settled()
    }
    expect(executed).toBe(0)
    expect(w.shadow.fills).toHaveLength(1)
    expect(w.shadow.fills[0]).toMatchObject({ adapter: 'plain', simulation: 'none', fillLedger: null, drew: 3n })
  })

  it('without DRY_RUN the same adapter sends (the fake node takes it) and nothing is booked as shadow', async () => {
    const w = world({ dryRun: false })
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    w.engine.offer(w.adapter, [task({ id: 'c', target: 102, capital: 10n })])
    await w.engine.settled()
    await w.close(103)
    await w.engine.drained()
    expect(w.sent()).toBe(1)
    expect(w.shadow.fills).toEqual([])
  })

  it('/api/state: the shadow section has the totals for everyone, the would-fills with the API token only; null when live', async () => {
    const w = world({ dryRun: true, feeBps: 1000 })
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    w.engine.offer(w.adapter, [task({ id: 'a', target: 101, capital: 7n })])
    await w.engine.settled()
    await w.close(102)
    const state = new DashboardState()
    state.shadow = w.shadow
    const events = new EventLog()
    const open = stateView(state, events, { details: false })
    expect(open.shadow).toEqual({ dryRun: true, totals: { fills: 1, refused: 0, drewUsdc: '7', profitUsdc: '500000000', rewardsUsdc: '50000000' } })
    const full = stateView(state, events, { details: true }).shadow as { fills: Record<string, unknown>[] }
    expect(full.fills).toHaveLength(1)
    expect(full.fills[0]).toMatchObject({ target: 'a:90', fillLedger: 101, firstPlannedLedger: 101, drew: '7', expectedProfit: '500000000', expectedReward: '50000000', simulation: 'passed' })
    expect(stateView(new DashboardState(), events).shadow).toBeNull()
  })
})
