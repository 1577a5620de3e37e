/**
 * `startDashboardServer`: builds the dashboard when needed, then serves it with its config.json
 * (and the sandbox faucet). Used by `npm run dashboard`, the demo and the tests.
 *
 * @example
 * const server = await startDashboardServer({ addresses: 'target/demo/addresses.json', keeperApis: ['http://127.0.0.1:8080'] })
 * console.log(server.url) // http://127.0.0.1:5173/
 * await server.close()
 */
import { DASHBOARD_OUT, ensureDashboardBuilt } from './build.js'
import { buildDashboardApp, FAUCET_PATH } from './app.js'
import { dashboardConfig, readAddressesFile, UsageError, type DashboardAddresses, type DashboardConfig } from './config.js'
import { createFaucet, faucetUnavailable } from './faucet.js'

export { FAUCET_PATH } from './app.js'
export { UsageError, type DashboardAddresses, type DashboardConfig } from './config.js'

export interface DashboardServerOptions {
  /** An addresses file's path (src/world `writeAddresses`), or its parsed and validated content. */
  addresses?: string | DashboardAddresses | undefined
  /** The same as a path `addresses` (one of the two is required, unless `runsDir` is given). */
  addressesFile?: string
  /** A folder of sim runs and sweeps to serve under /api/runs for Research (runs.ts). */
  runsDir?: string | undefined
  /** Default 5173; 0 = any free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Keeper daemons' API base URLs (http://host:port) for config.json. */
  keeperApis?: readonly string[]
  /** Build the app when target/dashboard is missing or stale (default true); false serves what is there. */
  build?: boolean
  /** Progress lines (building, faucet payments); default: none. */
  log?: (line: string) => void
}

export interface DashboardServer {
  /** http://host:port/ (127.0.0.1 for a wildcard bind address). */
  url: string
  port: number
  /** The config.json without the faucet and runs URLs (those follow the request's host); none without addresses. */
  config: DashboardConfig | undefined
  /** The faucet's URL on this server, or why there is none. */
  faucet: { url: string } | { unavailable: string }
  close(): Promise<void>
}

export async function startDashboardServer(opts: DashboardServerOptions): Promise<DashboardServer> {
  const given = opts.addresses ?? opts.addressesFile
  if (given === undefined && opts.runsDir === undefined) throw new UsageError('startDashboardServer: give addresses (a file path or its content) or a runs folder')
  const addresses = typeof given === 'string' ? readAddressesFile(given) : given
  const keeperApis = [...(opts.keeperApis ?? [])]
  const log = opts.log
  if (opts.build ?? true) await ensureDashboardBuilt(log === undefined ? {} : { log })
  const faucet = addresses === undefined ? undefined : createFaucet(addresses)
  const app = await buildDashboardApp({ root: DASHBOARD_OUT, addresses, runsDir: opts.runsDir, keeperApis, faucet, ...(log === undefined ? {} : { log }) })
  const host = opts.host ?? '127.0.0.1'
  await app.listen({ port: opts.port ?? 5173, host })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : (opts.port ?? 5173)
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const url = `http://${shownHost}:${port}/`
  return {
    url,
    port,
    config: addresses === undefined ? undefined : dashboardConfig(addresses, { keeperApis }),
    faucet: faucet ? { url: `${url.slice(0, -1)}${FAUCET_PATH}` } : { unavailable: addresses === undefined ? 'no addresses file' : (faucetUnavailable(addresses) ?? 'unknown') },
    close: () => app.close(),
  }
}
