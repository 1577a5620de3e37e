import { get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app.js'
import { createMetrics } from '../metrics.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { backlogOf } from './events.js'

const TOKEN = 'a-long-api-token-0123456789'
let open: FastifyInstance[] = []
afterEach(async () => {
  await Promise.all(open.map((a) => a.close()))
  open = []
})

async function listening() {
  const events = new EventLog()
  events.push('lifecycle', 'keeper started')
  events.push('scan', 'blend: 0 task(s)')
  events.push('plan', 'blend: GABC: fill planned at ledger 318')
  events.push('fill', 'blend: GABC: filled')
  const app = await buildApp({ state: new DashboardState(), events, metrics: createMetrics({ defaultMetrics: false }), apiToken: TOKEN, sseHeartbeatMs: 60_000 })
  open.push(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { events, port: (app.server.address() as AddressInfo).port }
}

/** The `event:` names a stream sent within `ms`. */
function kindsSent(port: number, path: string, ms = 150): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path, agent: false }, (res: IncomingMessage) => {
      let buf = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (buf += c))
      setTimeout(() => {
        req.destroy()
        resolve([...buf.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]!))
      }, ms)
    })
    req.on('error', reject)
  })
}

describe('/api/events?backlog=N', () => {
  it('starts with the last N kept events, oldest first, without the strategy events a stream without the token never gets', async () => {
    const { port } = await listening()
    expect(await kindsSent(port, '/api/events?backlog=50')).toEqual(['lifecycle', 'scan', 'fill'])
    expect(await kindsSent(port, '/api/events?backlog=2')).toEqual(['fill'])
  })

  it('sends only new events without the parameter, as before', async () => {
    const { port, events } = await listening()
    const sent = kindsSent(port, '/api/events', 200)
    setTimeout(() => events.push('fill', 'blend: GDEF: filled'), 80)
    expect(await sent).toEqual(['fill'])
  })

  it('reads N as a whole number, 0 otherwise', () => {
    expect(backlogOf({ backlog: '200' })).toBe(200)
    expect(backlogOf({ backlog: ['5', '7'] })).toBe(5)
    for (const q of [{}, { backlog: '-1' }, { backlog: '2.5' }, { backlog: 'all' }, { backlog: '9999999' }, null, undefined]) expect(backlogOf(q)).toBe(0)
  })
})
