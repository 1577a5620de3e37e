import pino from 'pino'
import { ConfigError, applyDeploymentsFile, loadEnvironment, parseConfig, resolveSecretFiles, type KeeperConfig } from './config/index.js'
import { configSecrets, redactingDestination } from './config/redact.js'
import { checkSecretFiles, secretFilesOf, type SecretFileProblem } from './config/secretFiles.js'
import { ApiListenError, startDaemon } from './daemon.js'
import { wantsHelp } from '../cli/help.js'
import { KEEPER_USAGE } from './usage.js'

/**
 * The process entry (server.ts and the single executable call it): 1 load .env then the
 * environment (and DEPLOYMENTS_FILE under it), 2 validate and check the credential files' permissions
 * (a warning, or a refusal under STRICT_SECRETS=true), then the daemon's steps 3–6; SIGTERM/SIGINT
 * stop it cleanly, exit 0. A configuration problem prints one line per problem to stderr and exits 1.
 * Every log line goes out with the RPC URLs' credentials, the seed and the API token masked.
 */
export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (wantsHelp(args)) {
    process.stdout.write(`${KEEPER_USAGE}\n`)
    return
  }
  if (args[0] === 'healthcheck') return healthcheck()
  let config: KeeperConfig
  let exposed: SecretFileProblem[]
  try {
    const env = loadEnvironment(process.cwd(), process.env)
    config = parseConfig(applyDeploymentsFile(resolveSecretFiles(env)))
    exposed = checkSecretFiles(secretFilesOf(process.cwd(), env), config.strictSecrets)
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.problems.map((p) => `${p}\n`).join(''))
      process.exit(1)
    }
    throw err
  }

  const logger = pino(
    { level: config.logLevel, base: { service: 'keeper' }, timestamp: pino.stdTimeFunctions.isoTime },
    redactingDestination(pino.destination({ dest: 1, sync: true }), configSecrets(config)),
  )
  for (const p of exposed) logger.warn({ file: p.file, mode: p.mode }, p.message)
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
 * `keeper healthcheck`: exit 0 when GET http://$API_HOST:$API_PORT/healthz (127.0.0.1 when the
 * API listens on every interface) answers 200 within 5 s, else 1. The container image has no shell or curl, so its HEALTHCHECK runs this.
 */
async function healthcheck(): Promise<void> {
  let env: Record<string, string | undefined> = process.env
  try {
    env = loadEnvironment(process.cwd(), process.env)
  } catch {
    // an unreadable .env: the environment alone says the port
  }
  const port = Number(env.API_PORT ?? '8080') || 8080
  // The API's own address, unless it listens on every interface (then loopback answers too).
  const bound = (env.API_HOST ?? '').trim().replace(/^\[(.*)\]$/, '$1')
  const host = bound === '' || bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound.includes(':') ? `[${bound}]` : bound
  try {
    const res = await fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(5_000) })
    process.exit(res.status === 200 ? 0 : 1)
  } catch {
    process.exit(1)
  }
}
