import type { FastifyPluginAsync } from 'fastify'
import type { ServerResponse } from 'node:http'
import type { KeeperMetrics } from '../metrics.js'
import type { EventLog, KeeperEvent } from '../state/events.js'

export interface EventStreamOptions {
  events: EventLog
  metrics: KeeperMetrics
  /** Most concurrent streams; one more gets 503. */
  maxClients: number
  heartbeatMs: number
}

/**
 * GET /api/events: Server-Sent Events. Each keeper event is sent as
 * `id: <id>\nevent: <kind>\ndata: <KeeperEvent JSON>\n\n`; a `heartbeat` event (data: time)
 * every `heartbeatMs` keeps proxies from closing an idle stream. Streams end when the app closes.
 */
export const eventRoutes: FastifyPluginAsync<EventStreamOptions> = async (app, opts) => {
  const clients = new Set<ServerResponse>()
  const setGauge = () => opts.metrics.sseActive.set(clients.size)

  app.addHook('preClose', async () => {
    for (const res of clients) res.end()
    clients.clear()
    setGauge()
  })

  app.get('/api/events', (req, reply) => {
    if (clients.size >= opts.maxClients) {
      reply.code(503).send({
        error: 'Service Unavailable',
        statusCode: 503,
        message: `too many event streams (limit ${opts.maxClients})`,
      })
      return
    }
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
    setGauge()

    const send = (ev: KeeperEvent) => {
      res.write(`id: ${ev.id}\nevent: ${ev.kind}\ndata: ${JSON.stringify(ev)}\n\n`)
    }
    const unsubscribe = opts.events.subscribe(send)
    const heartbeat = setInterval(() => {
      res.write(`event: heartbeat\ndata: ${JSON.stringify({ ts: new Date().toISOString() })}\n\n`)
    }, opts.heartbeatMs)
    heartbeat.unref()

    const cleanup = () => {
      clearInterval(heartbeat)
      unsubscribe()
      if (clients.delete(res)) setGauge()
    }
    req.raw.on('close', cleanup)
    res.on('close', cleanup)
  })
}
