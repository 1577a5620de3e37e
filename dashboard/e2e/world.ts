/**
 * The world the dashboard's browser tests run against: a sandbox node, a seeded world with no
 * depositors yet (so the vault has no share-price history), one keeper daemon with its HTTP API,
 * and the dashboard server (static build, config.json, the sandbox USDC faucet). The keeper
 * admits the dashboard's origin (API_CORS_ORIGINS) and shows its planned executions to the
 * holder of its API_TOKEN, which the page gets as `?keeperToken=` (`url` carries it).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { parseConfig } from '../../src/keeper/config/index.js'
import { startDaemon, type Daemon } from '../../src/keeper/daemon.js'
import { deployWorld, type World } from '../../src/world/index.js'
import { startDashboardServer } from '../server/index.js'
import { aggregateJson } from '../../sim/src/sweep/aggregate.js'
import { reportJson } from '../../sim/src/report/write.js'
import { aggregateOf } from '../../test/sim/aggregatePage.js'
import { reportFixture } from '../../test/sim/reportFixture.js'

const UNIT = 10_000_000n

/** The vault's settings in this world: a cap a wallet can exceed, a cooldown to wait out. */
export const DEPOSIT_CAP = 5_000n * UNIT
export const WITHDRAW_COOLDOWN_SECONDS = 3_600

export interface DashboardWorld {
  sandbox: Sandbox
  world: World
  keeper: Daemon
  /** The dashboard's page with the keeper's API token: `http://127.0.0.1:PORT/?keeperToken=…`. */
  url: string
  /** The dashboard's origin, the one the keeper admits (`http://127.0.0.1:PORT`). */
  origin: string
  /** The keeper's API_TOKEN. */
  apiToken: string
  addressesFile: string
  /** The folder the dashboard lists in Research (`--runs`). */
  runsDir: string
  stop(): Promise<void>
}

export interface DashboardWorldOptions {
  /** What Research's folder holds: one run and one sweep (default), or nothing. */
  runs?: 'fixtures' | 'empty'
  /** Funded keeper accounts (default 1); the daemon runs the first, the others are the test's. */
  keepers?: number
}

/** A TCP port free on 127.0.0.1 now: the keeper must know the dashboard's origin before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

export async function startDashboardWorld(options: DashboardWorldOptions = {}): Promise<DashboardWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'dashboard-e2e-'))
  const addressesFile = join(dir, 'addresses.json')
  const sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.3 })
  const stops: (() => Promise<unknown>)[] = [() => sandbox.stop(), () => rm(dir, { recursive: true, force: true })]
  const stop = async () => {
    for (const f of stops.reverse()) await f().catch(() => undefined)
  }
  try {
    const world = await deployWorld(sandbox, {
      seed: 57,
      borrowers: 1,
      keepers: options.keepers ?? 1,
      depositors: 0,
      registerKeepers: false,
      addressesFile,
      vaultConfig: { depositCap: DEPOSIT_CAP, withdrawCooldown: BigInt(WITHDRAW_COOLDOWN_SECONDS) },
    })
    const dashboardPort = await freePort()
    const origin = `http://127.0.0.1:${dashboardPort}`
    const apiToken = randomBytes(16).toString('hex')
    const keeper = await startDaemon(
      parseConfig({
        ...world.addresses.env,
        KEEPER_SECRET: world.keepers[0]!.secret(),
        KEEPER_NAME: 'e2e-daemon',
        API_PORT: '0',
        POLL_INTERVAL: '3',
        API_CORS_ORIGINS: origin,
        API_TOKEN: apiToken,
      }),
      { logger: pino({ level: 'silent' }), stopGraceMs: 2_000 },
    )
    stops.push(() => keeper.stop())
    // Research's folder: one sim run and one sweep, as `npm run sim` writes them (or none).
    const runsDir = join(dir, 'runs')
    await mkdir(runsDir, { recursive: true })
    if (options.runs !== 'empty') {
      await mkdir(join(runsDir, 'crash-seed1'), { recursive: true })
      await writeFile(join(runsDir, 'crash-seed1', 'report.json'), reportJson(reportFixture()))
      await mkdir(join(runsDir, 'sweeps', 'keepers'), { recursive: true })
      await writeFile(join(runsDir, 'sweeps', 'keepers', 'aggregate.json'), aggregateJson(aggregateOf(['keepers.count=1,2', 'keepers.minProfit=1.01,1.05'])))
    }
    const server = await startDashboardServer({
      addressesFile,
      runsDir,
      port: dashboardPort,
      host: '127.0.0.1',
      keeperApis: [`http://127.0.0.1:${keeper.port}`],
      build: true,
    })
    stops.push(() => server.close())
    if (new URL(server.url).origin !== origin) throw new Error(`the dashboard is at ${server.url}, not at the origin the keeper admits (${origin})`)
    return { sandbox, world, keeper, url: `${server.url}?keeperToken=${apiToken}`, origin, apiToken, addressesFile, runsDir, stop }
  } catch (err) {
    await stop()
    throw err
  }
}
