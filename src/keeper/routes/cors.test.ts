import { Keypair } from '@stellar/stellar-sdk'
import { get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app.js'
import { ConfigError, parseConfig } from '../config/index.js'
import { createMetrics } from '../metrics.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'

let open: FastifyInstance[] = []
afterEach(async () => {
  await Promise.all(open.map((a) => a.close()))
  open = []
})

async function make(corsOrigins?: string[]) {
  const app = await buildApp({
    state: new DashboardState(),
    events: new EventLog(),
    metrics: createMetrics({ defaultMetrics: false }),
    ...(corsOrigins === undefined ? {} : { corsOrigins }),
  })
  open.push(app)
  return app
}

function openStream(port: number, origin: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/api/events', agent: false, headers: { origin } }, resolve)
    req.on('error', reject)
  })
}

const ORIGIN = 'http://127.0.0.1:5173'

describe('keeper API CORS', () => {
  it('sends no Access-Control-Allow-Origin by default, so a page from another origin cannot read the API', async () => {
    const app = await make()
    const res = await app.inject({ method: 'GET', url: '/api/state', headers: { origin: 'https://evil.example.com' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/state',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    })
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const stream = await openStream((app.server.address() as AddressInfo).port, 'https://evil.example.com')
    expect(stream.statusCode).toBe(200)
    expect(stream.headers['access-control-allow-origin']).toBeUndefined()
    stream.destroy()
  })

  it('with * answers every origin with Access-Control-Allow-Origin: *', async () => {
    const app = await make(['*'])
    const res = await app.inject({ method: 'GET', url: '/api/state', headers: { origin: ORIGIN } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe('*')
  })

  it('answers an OPTIONS preflight from a named origin with 204, the origin, the methods and the Authorization header', async () => {
    const app = await make([ORIGIN])
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/performance',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    })
    expect(res.statusCode).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/GET/)
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/Authorization/i)
  })

  it('carries the header on the hijacked SSE stream /api/events for a named origin', async () => {
    const app = await make([ORIGIN])
    await app.listen({ port: 0, host: '127.0.0.1' })
    const res = await openStream((app.server.address() as AddressInfo).port, ORIGIN)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/event-stream/)
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    res.destroy()
  })

  it('with a list of origins reflects a listed one and leaves others without the header', async () => {
    const app = await make(['https://dash.example.org'])
    const ok = await app.inject({ method: 'GET', url: '/api/state', headers: { origin: 'https://dash.example.org' } })
    expect(ok.headers['access-control-allow-origin']).toBe('https://dash.example.org')
    expect(String(ok.headers.vary)).toMatch(/Origin/i)
    const other = await app.inject({ method: 'GET', url: '/api/state', headers: { origin: 'https://evil.example.com' } })
    expect(other.statusCode).toBe(200)
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const stream = await openStream((app.server.address() as AddressInfo).port, 'https://dash.example.org')
    expect(stream.headers['access-control-allow-origin']).toBe('https://dash.example.org')
    stream.destroy()
  })
})

describe('API_CORS_ORIGINS', () => {
  const base = {
    KEEPER_SECRET: Keypair.random().secret(),
    REGISTRY_CONTRACT: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
    VAULT_CONTRACT: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA',
  }
  it('defaults to no origin and accepts a list or *', () => {
    expect(parseConfig(base).apiCorsOrigins).toEqual([])
    expect(parseConfig({ ...base, API_CORS_ORIGINS: '*' }).apiCorsOrigins).toEqual(['*'])
    expect(parseConfig({ ...base, API_CORS_ORIGINS: 'https://a.example, http://127.0.0.1:5173' }).apiCorsOrigins).toEqual([
      'https://a.example',
      'http://127.0.0.1:5173',
    ])
  })
  it('refuses an entry that is not an origin, in words', () => {
    expect(() => parseConfig({ ...base, API_CORS_ORIGINS: 'https://a.example/path' })).toThrow(ConfigError)
    expect(() => parseConfig({ ...base, API_CORS_ORIGINS: 'https://a.example/path' })).toThrow(/API_CORS_ORIGINS entry must be \* or an origin/)
  })
})
