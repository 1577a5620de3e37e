import type { FastifyInstance } from 'fastify'
import { createServer } from 'node:net'
import type { Logger } from 'pino'
import type { Chain } from '../chain/index.js'
import type { AdapterFactories } from './adapters/index.js'
import { buildApp } from './app.js'
import type { KeeperConfig } from './config/index.js'
import { configSecrets, redactText } from './config/redact.js'
import { PollLoop } from './loop/index.js'
import { within } from './inflight.js'
import type { KeeperMetrics } from './metrics.js'
import { startKeeperRuntime } from './runtime.js'
import type { ProtocolAdapter } from './sdk/index.js'
import type { DashboardState } from './state/dashboard.js'

export { REGISTRATION_SKIPPED, registerKeeper } from './runtime.js'

/**
 * The HTTP API cannot listen on API_PORT / API_HOST. `message` is the one line the process
 * prints to stderr before it exits 1, e.g. `API_PORT 8080 is already in use on 0.0.0.0`.
 */
export class ApiListenError extends Error {
  override name = 'ApiListenError'
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
  }
}

/** The ApiListenError for a failed listen, or undefined when it failed for another reason. */
export function apiListenError(err: unknown, port: number, host: string): ApiListenError | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (code === 'EADDRINUSE') return new ApiListenError(`API_PORT ${port} is already in use on ${host}`, code)
  if (code === 'EACCES') return new ApiListenError(`API_PORT ${port} cannot be opened on ${host}: permission denied`, code)
  if (code === 'EADDRNOTAVAIL') return new ApiListenError(`API_HOST ${host} is not an address of this machine`, code)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ApiListenError(`API_HOST ${host} does not resolve`, code)
  return undefined
}

/**
 * Fails with an ApiListenError when nothing could listen on `port` / `host` now, before the
 * keeper registers or sends anything. Port 0 (any free port) always passes.
 */
export async function checkApiPort(port: number, host: string): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(apiListenError(err, port, host) ?? err))
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

export interface DaemonOptions {
  logger: Logger
  factories?: AdapterFactories
  /** Extra adapters run after the configured ones (tests, embedding). */
  extraAdapters?: ProtocolAdapter<any>[]
  /** How long a stop waits for the running cycle (default 30 s). */
  stopGraceMs?: number
  sseHeartbeatMs?: number
}

export interface Daemon {
  app: FastifyInstance
  chain: Chain
  state: DashboardState
  metrics: KeeperMetrics
  /** Port the API listens on (resolves API_PORT=0). */
  port: number
  /** Stops the loop (finishing or abandoning the running cycle), closes the API and SSE. */
  stop(): Promise<void>
}

/**
 * Startup steps 3–6 (the caller did 1–2: environment and validation): register, build the
 * adapters, start the HTTP API on API_PORT, start the poll loop every POLL_INTERVAL seconds.
 */
export async function startDaemon(config: KeeperConfig, opts: DaemonOptions): Promise<Daemon> {
  const { logger } = opts
  // Before anything is registered or sent: a port another process holds is a start-up error.
  await checkApiPort(config.apiPort, config.apiHost)
  const runtime = await startKeeperRuntime(config, {
    logger,
    ...(opts.factories === undefined ? {} : { factories: opts.factories }),
    ...(opts.extraAdapters === undefined ? {} : { extraAdapters: opts.extraAdapters }),
  })
  const { chain, state, events, metrics, engine, adapters, readiness } = runtime
  const secrets = configSecrets(config)

  // 5. HTTP API
  const app = await buildApp({
    state,
    events,
    metrics,
    corsOrigins: config.apiCorsOrigins,
    apiToken: config.apiToken,
    ssePerAddress: config.apiSsePerAddress,
    readiness,
    redact: (text) => redactText(text, secrets),
    logger: logger.child({ component: 'api' }),
    ...(opts.sseHeartbeatMs !== undefined ? { sseHeartbeatMs: opts.sseHeartbeatMs } : {}),
  })
  try {
    await app.listen({ port: config.apiPort, host: config.apiHost })
  } catch (err) {
    // Taken since the check (or refused): stop what started and say which setting is wrong.
    await runtime.stop(0)
    await app.close().catch(() => undefined)
    throw apiListenError(err, config.apiPort, config.apiHost) ?? err
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.apiPort
  logger.info({ port, host: config.apiHost }, 'api listening')

  // 6. the poll loop (scans and plans; the engine follows ledger closes on its own)
  const intervalMs = config.pollIntervalSeconds * 1000
  const loop = new PollLoop({
    intervalMs,
    logger,
    runCycle: (signal) => runtime.cycle(signal),
    onCycle: (report, overran) => {
      state.cycles.count++
      state.cycles.lastDurationMs = report.durationMs
      if (overran) {
        state.cycles.overruns++
        metrics.cycleOverruns.inc()
      }
      metrics.cyclesTotal.inc()
      metrics.cycleDuration.observe(report.durationMs / 1000)
      readiness.cycle(report.errors, state.cycles.lastError)
      logger.info(
        {
          cycle: state.cycles.count,
          durationMs: report.durationMs,
          tasks: report.tasksFound,
          planned: engine.executions().filter((e) => e.stage === 'planned').length,
          errors: report.errors,
          recovered: report.recovered.toString(),
        },
        'cycle done',
      )
    },
  })
  loop.start()
  logger.info({ intervalSeconds: config.pollIntervalSeconds, adapters: adapters.map((a) => a.name()) }, 'poll loop started')

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      const grace = opts.stopGraceMs ?? 30_000
      const [finished, fired] = await Promise.all([loop.stop(grace), runtime.stop(grace)])
      if (!finished) logger.warn('abandoned a cycle still running at shutdown')
      if (!fired) logger.warn('abandoned an execution still running at shutdown (stale-draw recovery settles it on restart)')
      // Whatever is left (a channel set-up, a plan being read) gets the same grace, once.
      const drained = finished && fired ? await within(runtime.idle(), grace) : false
      await app.close()
      logger.info({ drained }, 'keeper stopped')
    })())
  return { app, chain, state, metrics, port, stop }
}
