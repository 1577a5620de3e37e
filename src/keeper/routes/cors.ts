import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'

/**
 * CORS for the read-only API, so a dashboard served from another origin can read it: GET and
 * HEAD from the allowed origins (`['*']`, the default, is any origin: the literal
 * `Access-Control-Allow-Origin: *`; a list reflects a matching Origin and adds `Vary: Origin`),
 * OPTIONS preflights answered with 204. No credentials. Registered in the API's own context, so it
 * covers every route there; /api/events writes its own head after hijacking the reply and copies
 * the headers set here (`reply.getHeaders()`).
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[] = ['*']): Promise<void> {
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD'],
    maxAge: 600,
  })
}
