import { get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from './app.js'
import { limitsInWords } from './routes/views.js'
import { createMetrics } from './metrics.js'
import { DashboardState } from './state/dashboard.js'
import { EventLog } from './state/events.js'
import type { FastifyInstance } from 'fastify'

let open: FastifyInstance[] = []
afterEach(async () => {
  await Promise.all(open.map((a) => a.close()))
  open = []
})

async function make(opts: { sseMaxClients?: number; sseHeartbeatMs?: number } = {}) {
  const state = new DashboardState()
  const events = new EventLog()
  const metrics = createMetrics({ defaultMetrics: false })
  const app = await buildApp({ state, events, metrics, ...opts })
  open.push(app)
  return { app, state, events, metrics }
}

function openStream(port: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/api/events', agent: false }, resolve)
    req.on('error', reject)
  })
}

function readUntil(res: IncomingMessage, pattern: RegExp, timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${pattern}; got ${buf}`)), timeoutMs)
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      buf += chunk
      if (pattern.test(buf)) {
        clearTimeout(timer)
        resolve(buf)
      }
    })
  })
}

describe('keeper API', () => {
  it('serves /healthz with an empty 200', async () => {
    const { app } = await make()
    const res = await app.inject({ method: 'GET', url: '/healthz' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
  })

  it('serves the required metrics', async () => {
    const { app, metrics } = await make()
    metrics.cyclesTotal.inc(3)
    metrics.vaultTvl.set(1234.5)
    const res = await app.inject({ method: 'GET', url: '/metrics' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/plain/)
    for (const name of ['service_cycles_total', 'service_liquidations_total', 'service_vault_tvl', 'service_sse_active']) {
      expect(res.body).toContain(`# TYPE ${name} `)
    }
    expect(res.body).toMatch(/^service_cycles_total 3$/m)
    expect(res.body).toMatch(/^service_vault_tvl 1234.5$/m)
  })

  it('says what the vault lends each keeper in words', () => {
    expect(limitsInWords({ stake: 1_000_0000000n, drawLimit: 900_0000000n, approved: true, slashed: false })).toBe(
      "two-step draws up to 900 USDC (what its 1000 USDC stake covers after the slash penalty); flash draws (repaid in the same transaction) up to the vault's max_draw_per_keeper",
    )
    expect(limitsInWords({ stake: 1_000_5000000n, drawLimit: 900_4500000n, approved: false, slashed: false })).toMatch(/^two-step draws up to 900\.45 USDC .*1000\.5 USDC stake.*; no flash draws/)
    expect(limitsInWords({ stake: 0n, drawLimit: 0n, approved: true, slashed: true })).toMatch(/^slashed/)
  })

  it('prices shares on the free assets: profit still locked is left out', async () => {
    const { app, state } = await make()
    const now = BigInt(Math.floor(Date.now() / 1000))
    // 1,000 USDC of profit booked just now, unlocking over an hour: the price stays at 1.0.
    state.vault = { totalUsdc: 11_000_0000000n, totalShares: 10_000_0000000n, totalProfit: 1_000_0000000n, activeLiq: 0n, lockedProfit: 1_000_0000000n, lockStart: now, lockEnd: now + 3_600n, pendingShares: 0n }
    const s = (await app.inject({ method: 'GET', url: '/api/state' })).json()
    expect(BigInt(s.vault.lockedProfit)).toBeGreaterThan(999_0000000n)
    expect(BigInt(s.vault.sharePrice)).toBeLessThan(10_001_000n)
  })

  it('serves state and performance as JSON with string amounts', async () => {
    const { app, state, events } = await make()
    state.vault = { totalUsdc: 11_000_0000000n, totalShares: 10_000_0000000n, totalProfit: 1_000_0000000n, activeLiq: 0n, lockedProfit: 0n, lockStart: 0n, lockEnd: 0n, pendingShares: 0n }
    state.fold('blend', 'GABC', { drew: 100n, proceeds: 130n, profit: 30n, responseTimeMs: 900 })
    state.fold('blend', 'GDEF', { drew: 100n, proceeds: 100n, profit: 0n, responseTimeMs: 500, success: false })
    events.push('scan', 'blend: 2 task(s)')
    const s = (await app.inject({ method: 'GET', url: '/api/state' })).json()
    expect(s.vault).toEqual({
      totalUsdc: '110000000000',
      totalShares: '100000000000',
      totalProfit: '10000000000',
      activeLiq: '0',
      sharePrice: '11000000',
      lockedProfit: '0',
      lockEnd: '1970-01-01T00:00:00.000Z',
      pendingShares: '0',
    })
    expect(s.events[0]).toMatchObject({ kind: 'scan', message: 'blend: 2 task(s)' })
    const p = (await app.inject({ method: 'GET', url: '/api/performance' })).json()
    expect(p.liquidations).toMatchObject({
      source: 'process',
      executions: 2,
      fills: 1,
      winRate: 0.5,
      avgResponseTimeMs: 700,
      totalProfit: '30',
    })
  })

  it('answers unknown routes and failures with JSON errors, never a stack', async () => {
    const { app } = await make()
    app.get('/boom', async () => {
      throw new Error('secret detail')
    })
    const res = await app.inject({ method: 'GET', url: '/nope?x=1' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: 'Not Found', statusCode: 404, message: 'no route GET /nope' })
    const boom = await app.inject({ method: 'GET', url: '/boom' })
    expect(boom.statusCode).toBe(500)
    expect(boom.json()).toEqual({ error: 'Internal Server Error', statusCode: 500, message: 'internal error' })
    expect(boom.body).not.toContain('secret')
  })

  it('serves an OpenAPI document covering every route', async () => {
    const { app } = await make()
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/metrics', '/api/state', '/api/performance', '/api/events']),
    )
  })

  it('streams events with heartbeats, limits clients and closes streams on shutdown', async () => {
    const { app, events, metrics } = await make({ sseMaxClients: 3, sseHeartbeatMs: 50 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const streams = await Promise.all([openStream(port), openStream(port), openStream(port)])
    for (const s of streams) expect(s.statusCode).toBe(200)
    expect(streams[0]!.headers['content-type']).toMatch(/text\/event-stream/)

    const fourth = await openStream(port)
    expect(fourth.statusCode).toBe(503)
    const body = await readUntil(fourth, /}/)
    expect(JSON.parse(body)).toMatchObject({ statusCode: 503, error: 'Service Unavailable' })

    const gauge = (await metrics.registry.getSingleMetricAsString('service_sse_active')).trim().split('\n').pop()
    expect(gauge).toBe('service_sse_active 3')

    const got = readUntil(streams[0]!, /event: fill[\s\S]*event: heartbeat/)
    events.push('fill', 'filled GABC', { profit: '30' })
    const text = await got
    expect(text).toMatch(/id: 1\nevent: fill\ndata: \{.*"message":"filled GABC"/)

    // A client leaving frees a slot.
    streams[1]!.destroy()
    await new Promise((r) => setTimeout(r, 100))
    const again = await openStream(port)
    expect(again.statusCode).toBe(200)

    const ended = Promise.all([streams[2]!, again].map((s) => new Promise<void>((r) => s.on('end', () => r()))))
    streams[2]!.resume()
    again.resume()
    await app.close()
    await ended
    open = []
  })

  it('admits 100 event streams by default and refuses the 101st with 503', async () => {
    const { app } = await make()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const streams = await Promise.all(Array.from({ length: 100 }, () => openStream(port)))
    expect(streams.every((s) => s.statusCode === 200)).toBe(true)
    const extra = await openStream(port)
    expect(extra.statusCode).toBe(503)
    extra.resume()
    for (const s of streams) s.resume()
    await app.close()
    open = []
  })
})
