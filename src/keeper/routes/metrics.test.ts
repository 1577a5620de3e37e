import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app.js'
import { createMetrics } from '../metrics.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { sharedCollection } from './metrics.js'

let open: FastifyInstance[] = []
afterEach(async () => {
  await Promise.all(open.map((a) => a.close()))
  open = []
  vi.restoreAllMocks()
})

async function make() {
  let now = 1_000_000
  const metrics = createMetrics()
  const app = await buildApp({ state: new DashboardState(), events: new EventLog(), metrics, metricsNow: () => now })
  open.push(app)
  const processCollections = vi.spyOn(metrics.process!, 'metrics')
  const ownCollections = vi.spyOn(metrics.own, 'metrics')
  return { app, metrics, processCollections, ownCollections, advance: (ms: number) => (now += ms) }
}

const scrape = async (app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  expect(res.statusCode).toBe(200)
  return res.body
}

describe('GET /metrics under concurrent scrapes', () => {
  it('500 concurrent scrapes share one collection of the process metrics', async () => {
    const { app, metrics, processCollections } = await make()
    metrics.cyclesTotal.inc(3)
    const bodies = await Promise.all(Array.from({ length: 500 }, () => scrape(app)))
    expect(processCollections).toHaveBeenCalledTimes(1)
    for (const body of bodies) {
      expect(body).toMatch(/^service_cycles_total 3$/m)
      expect(body).toMatch(/^process_open_fds \d+$/m)
      expect(body).toMatch(/^nodejs_active_handles_total \d+$/m)
    }
    // Every metric of the registry once, with its HELP and TYPE, in one text.
    const names = metrics.registry.getMetricsAsArray().map((m) => m.name)
    for (const name of names) expect(bodies[0]!.split('\n').filter((l) => l.startsWith(`# TYPE ${name} `))).toHaveLength(1)
    expect(bodies[0]!.endsWith('\n')).toBe(true)
    expect(bodies[0]).not.toMatch(/\n\n\n/)
  })

  it("renders the keeper's own metrics for every scrape, so they are never stale", async () => {
    const { app, metrics, processCollections, ownCollections } = await make()
    expect(await scrape(app)).toMatch(/^service_cycles_total 0$/m)
    metrics.cyclesTotal.inc()
    metrics.drawsOutstanding.set(25)
    const body = await scrape(app)
    expect(body).toMatch(/^service_cycles_total 1$/m)
    expect(body).toMatch(/^service_draws_outstanding 25$/m)
    expect(ownCollections).toHaveBeenCalledTimes(2)
    expect(processCollections).toHaveBeenCalledTimes(1)
  })

  it('collects the process metrics again once the last collection is a second old', async () => {
    const { app, processCollections, advance } = await make()
    await scrape(app)
    advance(999)
    await scrape(app)
    expect(processCollections).toHaveBeenCalledTimes(1)
    advance(1)
    await scrape(app)
    expect(processCollections).toHaveBeenCalledTimes(2)
  })
})

describe('sharedCollection', () => {
  it('never runs two collections at once, and a failed one is not kept', async () => {
    let release: (text: string) => void = () => {}
    let calls = 0
    const registry = {
      metrics: () => {
        calls++
        return calls === 1 ? new Promise<string>((r) => (release = r)) : Promise.reject(new Error('collect failed'))
      },
    }
    const cache = sharedCollection(registry, 0)
    const waiting = [cache.text(), cache.text(), cache.text()]
    expect(cache.collections).toBe(1)
    release('a 1\n')
    expect(await Promise.all(waiting)).toEqual(['a 1\n', 'a 1\n', 'a 1\n'])
    // ttl 0: the next caller collects again; its failure reaches it and the one after retries.
    await expect(cache.text()).rejects.toThrow('collect failed')
    await expect(cache.text()).rejects.toThrow('collect failed')
    expect(cache.collections).toBe(3)
  })
})
