import pino from 'pino'
import { ConfigError, applyDeploymentsFile, loadEnvironment, parseConfig, resolveSecretFiles, type KeeperConfig } from './config/index.js'
import { ApiListenError, startDaemon } from './daemon.js'

/**
 * The process entry (server.ts and the single executable call it): 1 load .env then the
 * environment (and DEPLOYMENTS_FILE under it), 2 validate, then the daemon's steps 3–6; SIGTERM/SIGINT stop it cleanly, exit 0.
 * A configuration problem prints one line per problem to stderr and exits 1.
 */
export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (args[0] === 'healthcheck') return healthcheck()
  let config: KeeperConfig
  try {
    config = parseConfig(applyDeploymentsFile(resolveSecretFiles(loadEnvironment(process.cwd(), process.env))))
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.problems.map((p) => `${p}\n`).join(''))
      process.exit(1)
    }
    throw err
  }

  const logger = pino(
    { level: config.logLevel, base: { service: 'keeper' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: 1, sync: true }),
  )
  let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined
  let shuttingDown = false
  const shutdown = (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    shuttingDown = true
    logger.info({ signal }, 'shutting down')
    void (daemon?.stop() ?? Promise.resolve()).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err: String(err) }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))

  try {
    daemon = await startDaemon(config, { logger })
  } catch (err) {
    if (err instanceof ApiListenError) {
      // A setting problem, like a configuration error: one line on stderr.
      process.stderr.write(`${err.message}\n`)
      process.exit(1)
    }
    logger.fatal({ err: err instanceof Error ? err.message : String(err) }, 'keeper failed to start')
    process.exit(1)
  }
  if (shuttingDown) await daemon.stop().then(() => process.exit(0))
}

/**
 * `keeper healthcheck`: exit 0 when GET http://127.0.0.1:$API_PORT/healthz answers 200 within
 * 5 s, else 1. The container image has no shell or curl, so its HEALTHCHECK runs this.
 */
async function healthcheck(): Promise<void> {
  let env: Record<string, string | undefined> = process.env
  try {
    env = loadEnvironment(process.cwd(), process.env)
  } catch {
    // an unreadable .env: the environment alone says the port
  }
  const port = Number(env.API_PORT ?? '8080') || 8080
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5_000) })
    process.exit(res.status === 200 ? 0 : 1)
  } catch {
    process.exit(1)
  }
}
