import type { FastifyPluginAsync } from 'fastify'

/** GET /healthz: 200 with an empty body while the process is up. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async (_req, reply) => {
    reply.code(200).send()
  })
}
