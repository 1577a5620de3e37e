import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Chain } from '../chain/index.js'
import type { AdapterFactories } from './adapters/index.js'
import { buildApp } from './app.js'
import type { KeeperConfig } from './config/index.js'
import { PollLoop } from './loop/index.js'
import type { KeeperMetrics } from './metrics.js'
import { startKeeperRuntime } from './runtime.js'
import type { ProtocolAdapter } from './sdk/index.js'
import type { DashboardState } from './state/dashboard.js'

export { REGISTRATION_SKIPPED, registerKeeper } from './runtime.js'

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
  const runtime = await startKeeperRuntime(config, {
    logger,
    ...(opts.factories === undefined ? {} : { factories: opts.factories }),
    ...(opts.extraAdapters === undefined ? {} : { extraAdapters: opts.extraAdapters }),
  })
  const { chain, state, events, metrics, engine, adapters } = runtime

  // 5. HTTP API
  const app = await buildApp({
    state,
    events,
    metrics,
    corsOrigins: config.apiCorsOrigins,
    logger: logger.child({ component: 'api' }),
    ...(opts.sseHeartbeatMs !== undefined ? { sseHeartbeatMs: opts.sseHeartbeatMs } : {}),
  })
  await app.listen({ port: config.apiPort, host: config.apiHost })
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
      await app.close()
      logger.info('keeper stopped')
    })())
  return { app, chain, state, metrics, port, stop }
}
