import type { FastifyPluginAsync } from 'fastify'
import type { ServerResponse } from 'node:http'
import type { KeeperMetrics } from '../metrics.js'
import type { EventLog, KeeperEvent } from '../state/events.js'
import { hasToken, isStrategyEvent } from './access.js'

export interface EventStreamOptions {
  events: EventLog
  metrics: KeeperMetrics
  /** Most concurrent streams; one more gets 503. */
  maxClients: number
  /** Most concurrent streams from one remote address; one more gets 503 (API_SSE_PER_ADDRESS). */
  maxPerAddress?: number
  /**
   * Bytes a stream may have waiting to be sent (the socket's writableLength) before the next
   * event; a reader that falls further behind is dropped rather than buffered without bound.
   */
  maxBufferBytes?: number
  heartbeatMs: number
  /** API_TOKEN: `plan` and `progress` events go only to a stream opened with it. */
  token?: string | undefined
  /** Masks credentials in each line before it is sent. */
  redact?: (text: string) => string
}

const DEFAULT_MAX_BUFFER = 256 * 1024

function unavailable(message: string) {
  return { error: 'Service Unavailable', statusCode: 503, message }
}

/**
 * How many of the kept events a stream opened with `?backlog=N` starts with: N as a whole number
 * from 0 up (the log keeps its last 200 anyway), 0 without the parameter or when it is not one.
 */
export function backlogOf(query: unknown): number {
  const raw = typeof query === 'object' && query !== null ? (query as { backlog?: unknown }).backlog : undefined
  const text = Array.isArray(raw) ? raw[0] : raw
  if (typeof text !== 'string' || !/^\d{1,6}$/.test(text)) return 0
  return Number(text)
}

/**
 * GET /api/events: Server-Sent Events. Each keeper event is sent as
 * `id: <id>\nevent: <kind>\ndata: <KeeperEvent JSON>\n\n`; a `heartbeat` event (data: time)
 * every `heartbeatMs` keeps proxies from closing an idle stream. With `?backlog=N` the stream
 * starts with the last N events the log keeps (oldest first, the same filtering as live ones), so
 * a reader that opens it late sees what happened before. Streams end when the app closes, and a
 * stream whose reader does not keep up is closed.
 */
export const eventRoutes: FastifyPluginAsync<EventStreamOptions> = async (app, opts) => {
  const clients = new Set<ServerResponse>()
  const perAddress = new Map<string, number>()
  const maxPerAddress = opts.maxPerAddress ?? opts.maxClients
  const maxBuffer = opts.maxBufferBytes ?? DEFAULT_MAX_BUFFER
  const redact = opts.redact ?? ((s: string) => s)
  const setGauge = () => opts.metrics.sseActive.set(clients.size)
  app.addHook('preClose', async () => {
    for (const res of clients) res.end()
    clients.clear()
    setGauge()
  })
  app.get('/api/events', (req, reply) => {
    const address = req.socket.remoteAddress ?? 'unknown'
    if (clients.size >= opts.maxClients) {
      reply.code(503).send(unavailable(`too many event streams (limit ${opts.maxClients})`))
      return
    }
    if ((perAddress.get(address) ?? 0) >= maxPerAddress) {
      reply.code(503).send(unavailable(`too many event streams from ${address} (limit ${maxPerAddress} per address)`))
      return
    }
    const details = hasToken(req.headers, opts.token)
    // Headers hooks set on the reply (CORS) are not on the raw response: copy them.
    const hooked: Record<string, string | number | string[]> = {}
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) hooked[k] = v
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      ...hooked,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    res.write('retry: 3000\n\n')
    clients.add(res)
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1)
    setGauge()
    let closed = false
    const cleanup = () => {
      if (closed) return
      closed = true
      clearInterval(heartbeat)
      unsubscribe()
      const left = (perAddress.get(address) ?? 1) - 1
      if (left > 0) perAddress.set(address, left)
      else perAddress.delete(address)
      if (clients.delete(res)) setGauge()
    }
    const write = (chunk: string) => {
      if (closed) return
      if (res.writableLength > maxBuffer) {
        req.log.warn({ address, buffered: res.writableLength, limit: maxBuffer }, 'event stream reader too slow: dropped')
        cleanup()
        res.destroy()
        return
      }
      res.write(chunk)
    }
    const send = (ev: KeeperEvent) => {
      if (!details && isStrategyEvent(ev)) return
      write(`id: ${ev.id}\nevent: ${ev.kind}\ndata: ${redact(JSON.stringify(ev))}\n\n`)
    }
    const backlog = backlogOf(req.query)
    const unsubscribe = opts.events.subscribe(send)
    if (backlog > 0) for (const ev of opts.events.recent(backlog)) send(ev)
    const heartbeat = setInterval(() => {
      write(`event: heartbeat\ndata: ${JSON.stringify({ ts: new Date().toISOString() })}\n\n`)
    }, opts.heartbeatMs)
    heartbeat.unref()
    req.raw.on('close', cleanup)
    res.on('close', cleanup)
  })
}
