import type { FastifyPluginAsync } from 'fastify'
import type { Readiness } from '../state/readiness.js'

/**
 * GET /healthz: 200 with an empty body while the process is up.
 * GET /readyz: 200 `{ ready: true, ... }` while the keeper works; 503 `{ ready: false, reason,
 * ... }` while the last READY_FAILED_CYCLES poll cycles failed, the RPC is unreachable, or no
 * cycle has finished yet (state/readiness.ts). Without a readiness source it answers like /healthz.
 */
export const healthRoutes: FastifyPluginAsync<{ readiness?: Readiness | undefined }> = async (app, opts) => {
  app.get('/healthz', async (_req, reply) => {
    reply.code(200).send()
  })
  app.get('/readyz', async (_req, reply) => {
    const status = opts.readiness?.status() ?? { ready: true, reason: null }
    reply.code(status.ready ? 200 : 503).send(status)
  })
}
