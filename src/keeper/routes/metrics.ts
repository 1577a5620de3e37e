import type { FastifyPluginAsync } from 'fastify'
import type { Registry } from 'prom-client'
import type { KeeperMetrics } from '../metrics.js'

export interface MetricsRouteOptions {
  metrics: KeeperMetrics
  /** How long one collection of the Node process metrics is reused (ms; default 1000). */
  processTtlMs?: number
  /** Clock of that reuse (ms; default Date.now). */
  now?: () => number
}

/**
 * The text of `registry`, collected at most once per `ttlMs` and never twice at the same time:
 * a caller joins the collection in progress, or gets the last text while it is younger than
 * `ttlMs`. `collections` counts the collections started.
 */
export function sharedCollection(registry: Pick<Registry, 'metrics'>, ttlMs: number, now: () => number = Date.now) {
  let text: string | undefined
  let at = 0
  let running: Promise<string> | undefined
  const cache = {
    collections: 0,
    text(): Promise<string> {
      if (text !== undefined && now() - at < ttlMs) return Promise.resolve(text)
      if (running === undefined) {
        cache.collections++
        running = registry
          .metrics()
          .then((t) => {
            text = t
            at = now()
            return t
          })
          .finally(() => {
            running = undefined
          })
      }
      return running
    },
  }
  return cache
}

/**
 * GET /metrics: Prometheus text exposition. The keeper's own metrics (service_*) are collected
 * for every scrape; the Node process metrics come from one collection shared by every scrape
 * within `processTtlMs` (1 s): collecting them lists /proc/self/fd and every open handle, which a
 * burst of scrapes makes long (500 concurrent scrapes, each collecting with 500 connections
 * open: p99 0.8 s). The process figures are therefore up to a second old; the keeper's are current.
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, opts) => {
  const { own, process: proc, registry } = opts.metrics
  const processText = proc === undefined ? undefined : sharedCollection(proc, opts.processTtlMs ?? 1_000, opts.now)
  app.get('/metrics', async (_req, reply) => {
    const [keeper, node] = await Promise.all([own.metrics(), processText?.text()])
    // Each registry ends its text with one newline; metrics are separated by a blank line.
    reply.type(registry.contentType).send(node === undefined ? keeper : `${keeper}\n${node}`)
  })
}
