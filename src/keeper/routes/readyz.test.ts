import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app.js'
import { RpcLedgerClock } from '../engine/index.js'
import { createMetrics } from '../metrics.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { Readiness, watchedLedgerSource } from '../state/readiness.js'

let open: FastifyInstance[] = []
let clocks: { stop: () => void }[] = []
afterEach(async () => {
  for (const c of clocks) c.stop()
  clocks = []
  await Promise.all(open.map((a) => a.close()))
  open = []
})

async function make(readiness: Readiness) {
  const app = await buildApp({ state: new DashboardState(), events: new EventLog(), metrics: createMetrics({ defaultMetrics: false }), readiness })
  open.push(app)
  return app
}

const readyz = async (app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/readyz' })
  return { status: res.statusCode, body: res.json() }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await sleep(20)
  }
}

describe('/readyz', () => {
  it('is 503 until a cycle finished, then 200; /healthz stays 200 and empty', async () => {
    const readiness = new Readiness(3)
    const app = await make(readiness)
    expect(await readyz(app)).toMatchObject({ status: 503, body: { ready: false, reason: 'starting: no poll cycle has finished yet' } })
    readiness.cycle(0)
    expect(await readyz(app)).toMatchObject({ status: 200, body: { ready: true, reason: null } })
    const health = await app.inject({ method: 'GET', url: '/healthz' })
    expect([health.statusCode, health.body]).toEqual([200, ''])
  })

  it('is 503 while the last N cycles failed, with the reason, and 200 after a clean cycle', async () => {
    const readiness = new Readiness(3)
    const app = await make(readiness)
    readiness.cycle(0)
    readiness.cycle(5, 'scan: cannot reach the RPC at https://u:pw123456@rpc.example.org (ECONNREFUSED) (+4 more)')
    readiness.cycle(5, 'scan: cannot reach the RPC at https://u:pw123456@rpc.example.org (ECONNREFUSED) (+4 more)')
    expect((await readyz(app)).status).toBe(200) // two failed cycles: under the limit
    readiness.cycle(5, 'scan: cannot reach the RPC at https://u:pw123456@rpc.example.org (ECONNREFUSED) (+4 more)')
    const down = await readyz(app)
    expect(down.status).toBe(503)
    expect(down.body.reason).toMatch(/^the last 3 poll cycles failed \(scan: cannot reach the RPC at https:\/\/\*\*\*@rpc\.example\.org/)
    expect(JSON.stringify(down.body)).not.toContain('pw123456')
    readiness.cycle(0)
    expect((await readyz(app)).status).toBe(200)
  })

  it('is 503 while the RPC does not answer the ledger clock, and 200 once it is back', async () => {
    const readiness = new Readiness(3)
    readiness.cycle(0)
    let up = true
    let sequence = 100
    const source = watchedLedgerSource(
      {
        async getLatestLedger() {
          if (!up) throw new Error('cannot reach the RPC at http://127.0.0.1:8000/rpc (ECONNREFUSED)')
          return { sequence: ++sequence, closeTime: String(Math.floor(Date.now() / 1000)) }
        },
      },
      readiness,
    )
    const clock = new RpcLedgerClock(source as never, 20)
    const unsubscribe = clock.subscribe(() => undefined)
    clocks.push({ stop: unsubscribe })
    const app = await make(readiness)
    await until(async () => (await readyz(app)).status === 200)

    up = false
    await until(async () => (await readyz(app)).status === 503)
    const down = await readyz(app)
    expect(down.body).toMatchObject({ ready: false, rpc: { reachable: false } })
    expect(down.body.reason).toMatch(/^RPC unreachable since .* \(cannot reach the RPC at http:\/\/127\.0\.0\.1:8000\/rpc \(ECONNREFUSED\)\)$/)

    up = true
    await until(async () => (await readyz(app)).status === 200)
    expect((await readyz(app)).body).toMatchObject({ ready: true, rpc: { reachable: true, consecutiveFailures: 0 } })
  })
})
