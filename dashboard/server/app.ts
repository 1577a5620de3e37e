/**
 * The dashboard's HTTP server: the built app (target/dashboard) as static files, GET /config.json
 * derived from the addresses file, on the sandbox POST /sandbox/faucet, and with a runs folder
 * GET /api/runs (runs.ts).
 */
import fastifyCompress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import { existsSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { extname, join } from 'node:path'
import { constants } from 'node:zlib'
import { dashboardConfig, type DashboardAddresses } from './config.js'
import { FaucetError, type Faucet } from './faucet.js'
import { registerRunsRoutes, RUNS_PATH } from './runs.js'

export const FAUCET_PATH = '/sandbox/faucet'

export interface DashboardAppOptions {
  /** The built app (index.html and assets/). */
  root: string
  /** The world's addresses; without them config.json holds only `runsUrl` (Research alone). */
  addresses?: DashboardAddresses | undefined
  /** The folder of sim runs and sweeps served under /api/runs (runs.ts); none without it. */
  runsDir?: string | undefined
  keeperApis: readonly string[]
  /** The sandbox faucet; without it POST /sandbox/faucet does not exist. */
  faucet?: Faucet | undefined
  log?: (line: string) => void
}

function sendError(reply: FastifyReply, statusCode: number, message: string) {
  return reply.code(statusCode).send({ error: STATUS_CODES[statusCode] ?? 'Error', statusCode, message })
}

export async function buildDashboardApp(opts: DashboardAppOptions): Promise<FastifyInstance> {
  if (!existsSync(join(opts.root, 'index.html'))) {
    throw new Error(`${join(opts.root, 'index.html')} is missing: build the dashboard first (npm run dashboard without --no-build)`)
  }
  const app = Fastify({ logger: false })
  app.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500
    if (status >= 500) opts.log?.(`error: ${err.message ?? String(err)}`)
    return sendError(reply, status, status >= 500 ? 'internal error' : (err.message ?? 'bad request'))
  })

  // Replies built per request (config.json, JSON routes) are compressed on the fly, at a brotli
  // quality that costs little time; the built files are sent as their .br / .gz copies made at
  // build time (server/precompress.ts). Registered before the static plugin, as it must be.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  })
  await app.register(fastifyStatic, {
    root: opts.root,
    index: 'index.html',
    preCompressed: true,
    // index.html and config.json change with every build / world; hashed assets never do.
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.includes(join('assets', '')) ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })

  // The faucet's URL is absolute (the app's schema wants an http URL): built from the request's
  // own host, so it works whichever name or address the browser used.
  app.get('/config.json', async (req, reply) => {
    const faucetUrl = opts.faucet ? `${req.protocol}://${req.host}${FAUCET_PATH}` : undefined
    const runs = opts.runsDir === undefined ? {} : { runsUrl: `${req.protocol}://${req.host}${RUNS_PATH}` }
    reply.header('cache-control', 'no-store')
    if (opts.addresses === undefined) return runs
    return { ...dashboardConfig(opts.addresses, { keeperApis: opts.keeperApis, ...(faucetUrl === undefined ? {} : { faucetUrl }) }), ...runs }
  })

  if (opts.runsDir !== undefined) registerRunsRoutes(app, opts.runsDir)

  const faucet = opts.faucet
  if (faucet) {
    app.post(FAUCET_PATH, async (req, reply) => {
      const body = req.body as { account?: unknown } | undefined
      if (body === undefined || body === null || typeof body !== 'object') {
        return sendError(reply, 400, 'send JSON {"account": "G…"} with content-type application/json')
      }
      try {
        const paid = await faucet.pay(body.account)
        opts.log?.(`faucet: ${paid.message}`)
        return paid
      } catch (err) {
        if (err instanceof FaucetError) return sendError(reply, err.statusCode, err.message)
        opts.log?.(`faucet failed: ${(err as Error).message}`)
        return sendError(reply, 502, `the payment failed: ${(err as Error).message}`)
      }
    })
  }

  // Browsers and tools that ask for /favicon.ico without reading the page get the page's icon.
  app.get('/favicon.ico', (_req, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').sendFile('favicon.svg'))

  // Client-side routes (no file extension) get the app; missing files stay 404.
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/'
    if ((req.method === 'GET' || req.method === 'HEAD') && extname(path) === '' && !path.startsWith('/sandbox/') && !path.startsWith('/api/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
    return sendError(reply, 404, `no route ${req.method} ${path}`)
  })
  return app
}
