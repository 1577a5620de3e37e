import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'

/**
 * CORS for the read-only API, so a dashboard served from another origin can read it. Off by
 * default (no origins: no CORS header, a browser page from another origin cannot read the API);
 * with API_CORS_ORIGINS, GET and HEAD from those origins (`['*']` is any origin: the literal
 * `Access-Control-Allow-Origin: *`; a list reflects a matching Origin and adds `Vary: Origin`),
 * OPTIONS preflights answered with 204, `Authorization` allowed as a request header (the API
 * token). No credentials (cookies). Registered in the API's own context, so it covers every route
 * there; /api/events writes its own head after hijacking the reply and copies the headers set
 * here (`reply.getHeaders()`).
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[] = []): Promise<void> {
  if (origins.length === 0) return
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['Authorization', 'Accept', 'Cache-Control', 'Last-Event-ID'],
    maxAge: 600,
  })
}
