import { describe, expect, it } from 'vitest'
import { makeResult, type ProtocolAdapter, type Task } from '../sdk/index.js'
import { cycleWorld, fakeVault } from '../../../test/keeper/cycleFakes.js'
import { runCycle } from './cycle.js'

const gauge = async (w: { deps: { metrics: { registry: { getMetricsAsJSON(): Promise<{ name: string; values: { value: number; labels: object }[] }[]> } } } }, name: string) =>
  (await w.deps.metrics.registry.getMetricsAsJSON()).find((m) => m.name === name)?.values[0]?.value

describe('cycles.lastError on /api/state', () => {
  it("names the last cycle's first error with its stage, is cleared by a clean cycle, and lastErrorAt stays", async () => {
    let down = true
    const w = cycleWorld({ vault: fakeVault({ failState: () => down }).vault })
    expect(w.deps.state.cycles.lastError).toBeNull()

    const report = await runCycle(w.deps)
    expect(report.errors).toBe(1)
    expect(report.errorMessages).toEqual(['vault_state: rpc down'])
    expect(w.deps.state.cycles.lastError).toBe('vault_state: rpc down')
    const at = w.deps.state.cycles.lastErrorAt
    expect(at).not.toBeNull()

    down = false
    await runCycle(w.deps)
    expect(w.deps.state.cycles.lastError).toBeNull()
    expect(w.deps.state.cycles.lastErrorAt).toBe(at)
  })

  it('counts the other errors of the cycle after the first', async () => {
    const failing: ProtocolAdapter<string> = {
      name: () => 'broken',
      getTasks: async () => Promise.reject(new Error('scan failed')),
      execute: async () => makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0 }),
      estimateCapital: () => 0n,
      getPositions: async () => Promise.reject(new Error('positions failed')),
    }
    const w = cycleWorld({ vault: fakeVault({ failState: () => true }).vault, adapters: [failing] })
    await runCycle(w.deps)
    expect(w.deps.state.cycles.lastError).toBe('broken scan: scan failed (+2 more)')
  })

  it('sets service_last_cycle_timestamp_seconds when a cycle completes', async () => {
    const w = cycleWorld()
    expect(await gauge(w, 'service_last_cycle_timestamp_seconds')).toBe(0)
    const before = Date.now() / 1000
    await runCycle(w.deps)
    const ts = (await gauge(w, 'service_last_cycle_timestamp_seconds'))!
    expect(ts).toBeGreaterThanOrEqual(before)
    expect(ts).toBeLessThanOrEqual(Date.now() / 1000)
  })
})

describe('task priorities entering the engine', () => {
  it('are clamped to 0-10: 99 runs first as a 10, -3 and NaN last as 0s, in the adapter order', async () => {
    const ran: string[] = []
    const t = (priority: number, data: string): Task<string> => ({ priority, estProfit: 0n, data, label: data })
    const adapter: ProtocolAdapter<string> = {
      name: () => 'odd',
      getTasks: async () => [t(-3, 'negative'), t(Number.NaN, 'nan'), t(5, 'five'), t(99, 'huge'), t(10, 'ten')],
      async execute(_c, _k, task) {
        ran.push(task.data)
        return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0 })
      },
      estimateCapital: () => 0n,
    }
    const w = cycleWorld({ adapters: [adapter] })
    await runCycle(w.deps)
    await w.deps.engine.drained()
    const priorities = Object.fromEntries(w.deps.engine.executions().map((e) => [e.label, e.priority]))
    expect(priorities).toEqual({ negative: 0, nan: 0, five: 5, huge: 10, ten: 10 })
    expect(ran).toEqual(['huge', 'ten', 'five', 'negative', 'nan'])
  })
})
