import type { FastifyPluginAsync } from 'fastify'
import type { KeeperMetrics } from '../metrics.js'

/** GET /metrics: Prometheus text exposition. */
export const metricsRoutes: FastifyPluginAsync<{ metrics: KeeperMetrics }> = async (app, opts) => {
  app.get('/metrics', async (_req, reply) => {
    const body = await opts.metrics.registry.metrics()
    reply.type(opts.metrics.registry.contentType).send(body)
  })
}
