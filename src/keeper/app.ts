import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify'
import { STATUS_CODES } from 'node:http'
import type { KeeperMetrics } from './metrics.js'
import { registerCors } from './routes/cors.js'
import { eventRoutes } from './routes/events.js'
import { healthRoutes } from './routes/health.js'
import { metricsRoutes } from './routes/metrics.js'
import { openApiRoutes } from './routes/openapi.js'
import { stateRoutes } from './routes/state.js'
import type { DashboardState } from './state/dashboard.js'
import type { EventLog } from './state/events.js'
import type { Readiness } from './state/readiness.js'

export interface KeeperApiOptions {
  state: DashboardState
  events: EventLog
  metrics: KeeperMetrics
  /** Most concurrent /api/events streams (default 100). */
  sseMaxClients?: number
  /** Heartbeat period of /api/events (default 15 s). */
  sseHeartbeatMs?: number
  /** Most concurrent /api/events streams from one remote address (API_SSE_PER_ADDRESS; default: sseMaxClients). */
  ssePerAddress?: number
  /** Bytes a stream may have waiting before the next event; a slower reader is dropped (default 256 KiB). */
  sseMaxBufferBytes?: number
  /** Browser origins allowed by CORS (API_CORS_ORIGINS; default none: no CORS header). */
  corsOrigins?: readonly string[]
  /** API_TOKEN: the bearer token that unlocks the strategy details; unset, they are never served. */
  apiToken?: string | undefined
  /** What /readyz answers from (without it /readyz answers like /healthz). */
  readiness?: Readiness
  /** Masks credentials in every response body and event line (default: none). */
  redact?: (text: string) => string
  /** How long /metrics reuses one collection of the Node process metrics (ms; default 1000). */
  metricsProcessTtlMs?: number
  /** Clock of that reuse (tests; default Date.now). */
  metricsNow?: () => number
}

function errorBody(statusCode: number, message: string) {
  return { error: STATUS_CODES[statusCode] ?? 'Error', statusCode, message }
}

/** The keeper's HTTP API as a fastify plugin: the routes under routes/. */
export const keeperApi: FastifyPluginAsync<KeeperApiOptions> = async (app, opts) => {
  await registerCors(app as unknown as FastifyInstance, opts.corsOrigins ?? [])
  const redact = opts.redact
  if (redact !== undefined) {
    app.addHook('onSend', async (_req, _reply, payload) => (typeof payload === 'string' ? redact(payload) : payload))
  }
  await app.register(healthRoutes, { readiness: opts.readiness })
  await app.register(metricsRoutes, {
    metrics: opts.metrics,
    ...(opts.metricsProcessTtlMs === undefined ? {} : { processTtlMs: opts.metricsProcessTtlMs }),
    ...(opts.metricsNow === undefined ? {} : { now: opts.metricsNow }),
  })
  await app.register(stateRoutes, { state: opts.state, events: opts.events, token: opts.apiToken })
  await app.register(eventRoutes, {
    events: opts.events,
    metrics: opts.metrics,
    maxClients: opts.sseMaxClients ?? 100,
    heartbeatMs: opts.sseHeartbeatMs ?? 15_000,
    token: opts.apiToken,
    ...(opts.ssePerAddress === undefined ? {} : { maxPerAddress: opts.ssePerAddress }),
    ...(opts.sseMaxBufferBytes === undefined ? {} : { maxBufferBytes: opts.sseMaxBufferBytes }),
    ...(redact === undefined ? {} : { redact }),
  })
  await app.register(openApiRoutes)
}

/**
 * One JSON error handler for the whole app: `{ error, statusCode, message }`, never a stack
 * trace; 5xx messages are generic (the details go to the log).
 */
export function setJsonErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500
    if (status >= 500) req.log.error({ err }, 'request failed')
    reply.code(status).send(errorBody(status, status >= 500 ? 'internal error' : (err.message ?? 'bad request')))
  })
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(errorBody(404, `no route ${req.method} ${req.url.split('?')[0]}`))
  })
}

/** A fastify instance with the keeper API registered (logger: a pino instance or false). */
export async function buildApp(
  opts: KeeperApiOptions & { logger?: FastifyServerOptions['loggerInstance'] | false },
): Promise<FastifyInstance> {
  const { logger, ...api } = opts
  const app = logger ? Fastify({ loggerInstance: logger, logController: new LogController({ disableRequestLogging: true }) }) : Fastify({ logger: false })
  setJsonErrors(app as unknown as FastifyInstance)
  await app.register(keeperApi, api)
  return app as unknown as FastifyInstance
}
