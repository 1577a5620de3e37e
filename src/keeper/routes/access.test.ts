import { get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type KeeperApiOptions } from '../app.js'
import type { ExecutionView } from '../engine/index.js'
import { createMetrics } from '../metrics.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { hasToken } from './access.js'

const TOKEN = 'a-long-api-token-0123456789'

let open: FastifyInstance[] = []
afterEach(async () => {
  await Promise.all(open.map((a) => a.close()))
  open = []
})

function planned(): ExecutionView {
  return {
    key: 'blend:GABC',
    adapter: 'blend',
    label: 'GABC',
    stage: 'planned',
    path: 'atomic',
    plannedAt: 100,
    targetLedger: 318,
    expiresAtLedger: null,
    capital: 9_319_0000000n,
    priority: 7,
    history: [{ stage: 'planned', ledger: 100 }],
    progress: null,
    note: null,
    result: null,
    error: null,
  } as unknown as ExecutionView
}

async function make(opts: Partial<KeeperApiOptions> = {}) {
  const state = new DashboardState()
  const events = new EventLog()
  state.executions = [planned()]
  events.push('scan', 'blend: 1 task(s)')
  events.push('plan', 'blend: GABC: fill re-planned at ledger 318', { targetLedger: 318 })
  events.push('progress', 'blend: GABC: block 13, fill in 169 ledger(s)')
  const metrics = createMetrics({ defaultMetrics: false })
  const app = await buildApp({ state, events, metrics, ...opts })
  open.push(app)
  return { app, state, events, metrics }
}

const stateOf = async (app: FastifyInstance, authorization?: string) =>
  (await app.inject({ method: 'GET', url: '/api/state', headers: authorization === undefined ? {} : { authorization } })).json()

describe('/api/state strategy details', () => {
  it('without the token: no planned executions, no plan or progress events', async () => {
    const { app } = await make({ apiToken: TOKEN })
    const s = await stateOf(app)
    expect(s).not.toHaveProperty('executions')
    expect(s.strategyDetails).toBe(false)
    expect(s.events.map((e: { kind: string }) => e.kind)).toEqual(['scan'])
    expect(JSON.stringify(s)).not.toContain('318')
  })

  it('with the bearer token: the planned executions and every event', async () => {
    const { app } = await make({ apiToken: TOKEN })
    const s = await stateOf(app, `Bearer ${TOKEN}`)
    expect(s.strategyDetails).toBe(true)
    expect(s.executions).toHaveLength(1)
    expect(s.executions[0]).toMatchObject({ key: 'blend:GABC', stage: 'planned', targetLedger: 318, capital: '93190000000', priority: 7 })
    expect(s.events.map((e: { kind: string }) => e.kind)).toEqual(['scan', 'plan', 'progress'])
  })

  it('a wrong token, a prefix of it, another scheme or a token with no API_TOKEN set is the same as none', async () => {
    const { app } = await make({ apiToken: TOKEN })
    const none = await stateOf(app)
    for (const auth of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ', '']) {
      const s = await stateOf(app, auth)
      expect(s, auth).not.toHaveProperty('executions')
      expect({ ...s, updatedAt: null }, auth).toEqual({ ...none, updatedAt: null })
    }
    const { app: noToken } = await make()
    expect(await stateOf(noToken, `Bearer ${TOKEN}`)).not.toHaveProperty('executions')
  })

  it('hasToken compares the bearer token only when one is configured', () => {
    expect(hasToken({ authorization: `Bearer ${TOKEN}` }, TOKEN)).toBe(true)
    expect(hasToken({ authorization: `bearer   ${TOKEN}` }, TOKEN)).toBe(true)
    expect(hasToken({ authorization: `Bearer ${TOKEN}` }, undefined)).toBe(false)
    expect(hasToken({}, TOKEN)).toBe(false)
  })

  it('masks credentials in the body when given a redaction', async () => {
    const { app, state } = await make({ redact: (t) => t.split('hunter22').join('***') })
    state.cycles.lastError = 'refresh: cannot reach the RPC at https://bob:hunter22@rpc.example.org'
    const body = (await app.inject({ method: 'GET', url: '/api/state' })).body
    expect(body).not.toContain('hunter22')
    expect(body).toContain('rpc.example.org')
  })
})

function openStream(port: number, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/api/events', agent: false, headers }, resolve)
    req.on('error', reject)
  })
}

function collect(res: IncomingMessage): { text: () => string } {
  let buf = ''
  res.setEncoding('utf8')
  res.on('data', (c: string) => (buf += c))
  return { text: () => buf }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('/api/events', () => {
  it('sends plan and progress events only to a stream opened with the token', async () => {
    const { app, events } = await make({ apiToken: TOKEN, sseHeartbeatMs: 60_000 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const anon = collect(await openStream(port))
    const authed = collect(await openStream(port, { authorization: `Bearer ${TOKEN}` }))
    await sleep(50)
    events.push('plan', 'blend: GXYZ: fill re-planned at ledger 900')
    events.push('fill', 'blend: GXYZ: filled')
    await sleep(100)
    expect(anon.text()).toContain('event: fill')
    expect(anon.text()).not.toContain('event: plan')
    expect(authed.text()).toContain('event: plan')
    expect(authed.text()).toContain('event: fill')
  })

  it('caps streams per remote address below the global cap', async () => {
    const { app } = await make({ sseMaxClients: 10, ssePerAddress: 2, sseHeartbeatMs: 60_000 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const a = await openStream(port)
    const b = await openStream(port)
    expect([a.statusCode, b.statusCode]).toEqual([200, 200])
    const third = await openStream(port)
    expect(third.statusCode).toBe(503)
    const body = await new Promise<string>((r) => {
      let t = ''
      third.on('data', (c: Buffer) => (t += c.toString()))
      third.on('end', () => r(t))
    })
    expect(JSON.parse(body).message).toMatch(/too many event streams from 127\.0\.0\.1 \(limit 2 per address\)/)
    // One leaving frees a slot for that address.
    a.destroy()
    await sleep(100)
    const again = await openStream(port)
    expect(again.statusCode).toBe(200)
    b.destroy()
    again.destroy()
  })

  it('drops a reader that does not keep up instead of buffering without bound', async () => {
    const { app, events, metrics } = await make({ sseMaxBufferBytes: 64 * 1024, sseHeartbeatMs: 60_000 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const slow = await openStream(port)
    slow.pause() // reads nothing: the kernel buffers fill, then the server's
    const fast = collect(await openStream(port))
    await sleep(50)
    const active = async () => (await metrics.registry.getSingleMetricAsString('service_sse_active')).trim().split('\n').pop()
    expect(await active()).toBe('service_sse_active 2')
    const big = 'x'.repeat(16 * 1024)
    // Up to 80 MB, far more than the sockets' buffers hold: without the drop the server would keep
    // what the slow reader does not take. One event every 2 ms: the other reader keeps up.
    for (let i = 0; i < 5_000 && (await active()) === 'service_sse_active 2'; i++) {
      events.push('scan', big)
      await sleep(2)
    }
    expect(await active()).toBe('service_sse_active 1')
    await sleep(100)
    expect(fast.text().length).toBeGreaterThan(big.length)
  })
})
