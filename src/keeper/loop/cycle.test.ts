import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { makeResult, type ProtocolAdapter, type Task } from '../sdk/index.js'
import { ExecutionEngine, ManualLedgerClock } from '../engine/index.js'
import { runCycle } from './cycle.js'
import { recordResult } from './record.js'
import { PollLoop } from './scheduler.js'
import type { CycleDeps } from './types.js'
import { baseDeps, fakeVault, silentLogger, VAULT_STATE } from '../../../test/keeper/cycleFakes.js'

const keypair = Keypair.random()

function engineFor(d: Omit<CycleDeps, 'engine'>): ExecutionEngine {
  const engine = new ExecutionEngine({
    chain: d.chain,
    keypair: d.keypair,
    vault: d.vault.bind(d.keypair),
    limits: async () => ({ idle: 1_000_000n, maxDraw: 1_000_000n }),
    clock: new ManualLedgerClock({ sequence: 1, closeTimeMs: 0 }),
    logger: silentLogger,
    emit: (kind, message, data) => d.events.push(kind, message, data),
    onResult: (e, r) => recordResult(d, e.adapter, e.label, r),
  })
  engine.start()
  return engine
}

function deps(over: Partial<Omit<CycleDeps, 'engine'>>): CycleDeps {
  const d = baseDeps(keypair, over)
  return { ...d, engine: engineFor(d) }
}

function adapter(name: string, tasks: () => Promise<Task<string>[]>, log: string[], failOn?: string): ProtocolAdapter<string> {
  return {
    name: () => name,
    getTasks: tasks,
    async execute(_c, _k, task, vault) {
      log.push(`${name}:${task.data}`)
      if (task.data === failOn) throw new Error(`boom ${task.data}`)
      await vault.draw(10n)
      await vault.returnProceeds(12n, 5)
      return makeResult({ drew: 10n, proceeds: 12n, responseTimeMs: 5 })
    },
    estimateCapital: () => 10n,
  }
}

const t = (priority: number, data: string): Task<string> => ({ priority, estProfit: 0n, data, label: data })

describe('runCycle', () => {
  it('runs adapters in order and tasks by priority, isolating every failure', async () => {
    const log: string[] = []
    const broken = adapter('broken', async () => Promise.reject(new Error('scan failed')), log)
    const a = adapter('a', async () => [t(1, 'low'), t(10, 'urgent'), t(4, 'mid'), t(10, 'urgent2')], log, 'mid')
    const b = adapter('b', async () => [t(7, 'b1')], log)
    const d = deps({ adapters: [broken, a, b] })
    const report = await runCycle(d)
    // the cycle only scans and plans; the engine executes, one draw at a time, by priority
    expect(report).toMatchObject({ tasksFound: 5, errors: 1, abandoned: false })
    await d.engine.drained()
    expect(log[0]).toBe('a:urgent')
    expect([...log].sort()).toEqual(['a:low', 'a:mid', 'a:urgent', 'a:urgent2', 'b:b1'])
    expect(log.indexOf('a:mid')).toBeGreaterThan(log.indexOf('b:b1'))
    expect(log.indexOf('a:low')).toBeGreaterThan(log.indexOf('a:mid'))
    expect(d.state.history.map((h) => h.label).sort()).toEqual(['b1', 'low', 'urgent', 'urgent2'])
    expect(d.engine.executions().find((e) => e.label === 'mid')?.stage).toBe('abandoned')
    expect(d.state.history[0]!.profit).toBe(2n)
    expect(d.state.vault).toEqual(VAULT_STATE)
    const metrics = await d.metrics.registry.getMetricsAsJSON()
    const liq = metrics.find((m) => m.name === 'service_liquidations_total')
    expect(liq?.values[0]?.value).toBe(4)
    expect(d.events.recent().some((e) => e.kind === 'error' && e.message.includes('scan failed'))).toBe(true)
  })

  it('survives failing state reads and still refreshes the rest', async () => {
    const d = deps({ vault: fakeVault({ failState: () => true }).vault, knownDepositors: [keypair.publicKey()] })
    const report = await runCycle(d)
    expect(report.errors).toBe(1)
    expect(d.state.vault).toBeNull()
    expect(d.state.depositors).toEqual([{ address: keypair.publicKey(), balance: 7n, shares: 3n, costBasis: 2n }])
    expect(d.state.self?.operator).toBe(keypair.publicKey())
  })

  it('skips the remaining adapters once asked to stop', async () => {
    const log: string[] = []
    const ctrl = new AbortController()
    const a = adapter('a', async () => {
      ctrl.abort()
      return [t(5, 'one')]
    }, log)
    const b = adapter('b', async () => [t(4, 'two')], log)
    const d = deps({ adapters: [a, b] })
    const report = await runCycle(d, ctrl.signal)
    await d.engine.drained()
    expect(log).toEqual(['a:one'])
    expect(report.abandoned).toBe(true)
  })
})

describe('stale-draw recovery', () => {
  it('returns the USDC on hand capped at the draw, before any task', async () => {
    const { vault, box } = fakeVault({ draw: 500n })
    const log: string[] = []
    const d = deps({ vault, usdcBalance: async () => 800n, adapters: [adapter('a', async () => [t(1, 'x')], log)] })
    const report = await runCycle(d)
    await d.engine.drained()
    expect(report.recovered).toBe(500n)
    expect(box.calls).toEqual(['return 500', 'draw 10', 'return 12'])
  })

  it('returns less when less is on hand', async () => {
    const { vault, box } = fakeVault({ draw: 500n })
    await runCycle(deps({ vault, usdcBalance: async () => 120n }))
    expect(box.calls).toEqual(['return 120'])
  })

  it('is a no-op without USDC_CONTRACT, without a draw, or on a vault without get_keeper_draw', async () => {
    const a = fakeVault({ draw: 500n })
    await runCycle(deps({ vault: a.vault, usdcBalance: undefined }))
    expect(a.box.calls).toEqual([])
    const b = fakeVault({ draw: 0n })
    await runCycle(deps({ vault: b.vault, usdcBalance: async () => 800n }))
    expect(b.box.calls).toEqual([])
    const { SimulationError } = await import('../../chain/index.js')
    const c = fakeVault({ draw: 500n })
    c.vault.getKeeperDraw = async () => {
      throw new SimulationError('simulation failed', { details: 'HostError: Error(WasmVm, MissingValue) trying to invoke non-existent contract function' })
    }
    const report = await runCycle(deps({ vault: c.vault, usdcBalance: async () => 800n }))
    expect(c.box.calls).toEqual([])
    expect(report.errors).toBe(0)
  })
})

describe('PollLoop', () => {
  it('never overlaps cycles, counts overruns and stops cleanly', async () => {
    let running = 0
    let maxRunning = 0
    let n = 0
    const loop = new PollLoop({
      intervalMs: 20,
      logger: silentLogger,
      async runCycle() {
        running++
        maxRunning = Math.max(maxRunning, running)
        n++
        // Every other cycle overruns the interval.
        await new Promise((r) => setTimeout(r, n % 2 === 1 ? 50 : 1))
        running--
        return { recovered: 0n, tasksFound: 0, errors: 0, errorMessages: [], abandoned: false, durationMs: 0 }
      },
    })
    loop.start()
    await new Promise((r) => setTimeout(r, 300))
    expect(await loop.stop(1_000)).toBe(true)
    const cycles = loop.cycles
    expect(maxRunning).toBe(1)
    expect(cycles).toBeGreaterThanOrEqual(4)
    // 300 ms at 20 ms ticks would be 15 cycles if overruns piled up; each overrun costs 50 ms.
    expect(cycles).toBeLessThan(15)
    expect(loop.overruns).toBeGreaterThanOrEqual(2)
    await new Promise((r) => setTimeout(r, 60))
    expect(loop.cycles).toBe(cycles)
  })

  it('gives up waiting for a stuck cycle after the grace period', async () => {
    const loop = new PollLoop({
      intervalMs: 10,
      logger: silentLogger,
      runCycle: () => new Promise(() => {}),
    })
    loop.start()
    await new Promise((r) => setTimeout(r, 20))
    expect(await loop.stop(30)).toBe(false)
  })
})
