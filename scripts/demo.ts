/**
 * `npm run demo`: the service's main job on the embedded sandbox.
 *
 * 1. builds the contracts and fetches the published Blend v2 WASMs, starts a sandbox node;
 * 2. deploys a seeded world (USDC and collateral assets, SEP-40 oracle, the real Blend v2 pool,
 *    DEX routers, the service vault and registry, depositors, borrowers near their limit);
 * 3. starts three competing keeper daemons (each with its HTTP API) sharing the vault; each keeper
 *    has its own executor contract (the registered keeper), so a liquidation's draw, fill, swap
 *    and return happen in one transaction (`--path two-step`: the operator is the keeper and the
 *    draw lands one ledger before the fill, swap and return follow);
 * 4. drops a collateral price so borrowers become liquidatable. Each keeper's poll loop scans and
 *    plans: it opens the auction and schedules the fill for the auction's first profitable
 *    ledger; while the auction ripens the demo prints a progress line (block offset on the Dutch
 *    curve, lot/bid ratio against MIN_PROFIT, ledgers to go). At the planned ledger a keeper's
 *    execution engine draws (one ledger before), fills, swaps the lot to USDC and returns the
 *    proceeds; the demo prints what the vault booked (profit, share price before and after,
 *    which keeper won) and how long after the price drop it was booked;
 * 5. audits the vault's and the registry's invariants (src/audit, the same check as
 *    `npm run audit -- --addresses target/demo/addresses.json`) and prints the table.
 *
 * 6. (without --once) starts the dashboard server (`npm run dashboard`, dashboard/server) on
 *    http://127.0.0.1:5173/ against target/demo/addresses.json and the keepers' APIs, with the
 *    sandbox USDC faucet, and with the repository's runs/ folder (where `npm run sim -- run`
 *    writes by default) listed in Research: its sim runs open as reports, its sweeps as
 *    heatmaps (a missing runs/ folder lists nothing and says so).
 *    The keepers' APIs admit the dashboard's origin (API_CORS_ORIGINS) and share a random
 *    API_TOKEN, which the printed dashboard link carries (`?keeperToken=`) so the Auctions view
 *    shows the planned executions.
 *
 * Then it keeps the network, the keepers and the dashboard running until Ctrl-C (or exits with `--once`: 0 when
 * a liquidation was booked and every invariant holds, 1 otherwise).
 *
 * Options (scripts/demo/usage.ts; `--help` prints them with their defaults): --seed, --port,
 * --api-port, --keepers, --ledger-interval (default 0.3: faster ledgers, so the auction's ~180
 * ledgers of ripening take about a minute), --drop, --timeout, --path, --dashboard-port,
 * --no-dashboard, --once (skips the dashboard).
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { audit } from '../src/audit/index.js'
import { renderReport } from '../src/audit/cli/table.js'
import { parseConfig } from '../src/keeper/config/index.js'
import { startDaemon, type Daemon } from '../src/keeper/daemon.js'
import { RegistryContract } from '../src/keeper/clients/registry.js'
import { VaultContract } from '../src/keeper/clients/vault.js'
import { deployExecutor, deployWorld } from '../src/world/index.js'
import { REPO_ROOT, startSandbox, type Sandbox } from '../sandbox/ts/launch.js'
import { startDashboardServer, type DashboardServer } from '../dashboard/server/index.js'
import { RipeningProgress, fmt7 } from './demo/progress.js'
import { DEMO_OPTIONS, DEMO_USAGE } from './demo/usage.js'

/** A port free now on 127.0.0.1 (for `--dashboard-port 0`: the keepers must know the dashboard's origin first). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

function usage(message: string): never {
  process.stderr.write(`demo: ${message}\n`)
  process.exit(2)
}

function intOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) usage(`--${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`)
  return n
}

function numberOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < min || n > max) usage(`--${name} must be a number in [${min}, ${max}], got ${JSON.stringify(raw)}`)
  return n
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`)
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function main(): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({ options: DEMO_OPTIONS, strict: true })
  } catch (err) {
    usage((err as Error).message)
  }
  const o = parsed.values
  if (o.help) {
    process.stdout.write(`${DEMO_USAGE}\n`)
    return
  }
  const seed = intOption('seed', o.seed, 1, 0, 2 ** 31)
  const port = intOption('port', o.port, 8000, 0, 65535)
  const apiPort = intOption('api-port', o['api-port'], 8080, 0, 65535)
  const keeperCount = intOption('keepers', o.keepers, 3, 1, 10)
  const ledgerInterval = numberOption('ledger-interval', o['ledger-interval'], 0.3, 0.05, 60)
  const dropPercent = numberOption('drop', o.drop, 20, 1, 90)
  const timeoutSeconds = intOption('timeout', o.timeout, 300, 10, 3600)
  const dashboardPort = intOption('dashboard-port', o['dashboard-port'], 5173, 0, 65535)
  const withDashboard = !o['no-dashboard'] && !o.once
  const path = o.path ?? 'atomic'
  if (path !== 'atomic' && path !== 'two-step') usage(`--path must be atomic or two-step, got ${JSON.stringify(o.path)}`)
  const say = (line: string) => process.stdout.write(`[demo] ${line}\n`)

  say('building contracts (wasm) and fetching the published Blend v2 WASMs')
  run('bash', ['scripts/build-wasm.sh'])
  run('bash', ['scripts/blend-wasms.sh'])

  say('starting the sandbox node')
  const sandbox: Sandbox = await startSandbox({ port, ledgerIntervalSeconds: ledgerInterval, seed })
  const daemons: Daemon[] = []
  let dashboard: DashboardServer | undefined
  let stopping = false
  const stopAll = async (code: number) => {
    if (stopping) return
    stopping = true
    await dashboard?.close().catch(() => undefined)
    await Promise.all(daemons.map((d) => d.stop().catch(() => undefined)))
    await sandbox.stop().catch(() => undefined)
    process.exit(code)
  }
  process.on('SIGINT', () => void stopAll(0))
  process.on('SIGTERM', () => void stopAll(0))
  say(`sandbox ready ${sandbox.rpcUrl}`)

  try {
    const outDir = join(REPO_ROOT, 'target', 'demo')
    mkdirSync(outDir, { recursive: true })
    const addressesFile = join(outDir, 'addresses.json')
    say(`deploying the world (seed ${seed}): assets, oracle, Blend v2, DEX, vault, registry, depositors, borrowers`)
    const world = await deployWorld(sandbox, {
      seed,
      keepers: keeperCount,
      // The keeper daemons register themselves at startup (stake pulled from their USDC).
      registerKeepers: false,
      addressesFile,
      log: (line) => say(`  ${line}`),
    })
    say(`addresses written to ${addressesFile}`)
    const vaultId = world.service!.vault
    const vault = new VaultContract(world.chain, vaultId)
    const registry = new RegistryContract(world.chain, world.service!.registry)
    const before = await vault.getState()
    const config = await vault.getConfig()
    // The share price counts only unlocked profit: booked profit unlocks over profit_unlock_secs.
    const price = () => vault.sharePrice()
    say(
      `vault: ${fmt7(before.totalUsdc, 2)} USDC, share price ${fmt7(await price())}, total profit ${fmt7(before.totalProfit)}; ` +
        `keeper fee ${config.keeperFeeBps / 100} %, profit unlocks over ${config.profitUnlockSecs} s`,
    )

    const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn', base: { service: 'keeper' } })
    // The keepers' APIs are closed to other origins and hide their plans by default: the demo's
    // dashboard (its own origin) may read them, and holds the token that shows the plans.
    const dashPort = withDashboard ? (dashboardPort === 0 ? await freePort() : dashboardPort) : 0
    const apiToken = randomBytes(24).toString('hex')
    say(`starting ${keeperCount} keeper daemons (${path} path); each registers with the registry (stake) and polls every 3 s`)
    for (let i = 0; i < keeperCount; i++) {
      // Atomic path: the keeper's executor contract is what registers and draws.
      const executor = path === 'atomic' ? await deployExecutor(world, world.keepers[i]!, { register: false }) : undefined
      const env: Record<string, string> = {
        ...world.addresses.env,
        KEEPER_SECRET: world.keepers[i]!.secret(),
        KEEPER_NAME: `demo-keeper-${i + 1}`,
        API_PORT: String(apiPort === 0 ? 0 : apiPort + i),
        POLL_INTERVAL: '3',
        MIN_PROFIT: '1.02',
        SLIPPAGE_BPS: '300',
        LEDGER_POLL_MS: String(Math.max(50, Math.min(250, Math.round((ledgerInterval * 1000) / 3)))),
        API_TOKEN: apiToken,
        ...(withDashboard ? { API_CORS_ORIGINS: `http://127.0.0.1:${dashPort} http://localhost:${dashPort}` } : {}),
        ...(executor === undefined ? {} : { EXECUTOR_CONTRACT: executor.contractId }),
      }
      const daemon = await startDaemon(parseConfig(env), {
        logger: logger.child({ keeper: env.KEEPER_NAME }),
        stopGraceMs: 5_000,
      })
      daemons.push(daemon)
      say(`keeper ${env.KEEPER_NAME} (${world.keepers[i]!.publicKey()}${executor ? `, executor ${executor.contractId}` : ''}) API http://127.0.0.1:${daemon.port}/api/state`)
    }

    if (withDashboard) {
      // The dashboard is a convenience: when it cannot start the demo goes on without it.
      try {
        dashboard = await startDashboardServer({
          addresses: addressesFile,
          runsDir: join(REPO_ROOT, 'runs'),
          port: dashPort,
          keeperApis: daemons.map((d) => `http://127.0.0.1:${d.port}`),
          log: (line) => say(`  ${line}`),
        })
        say(`dashboard: ${dashboard.url}?keeperToken=${apiToken}${'url' in dashboard.faucet ? ` (sandbox USDC faucet: POST ${dashboard.faucet.url})` : ''}`)
        say(`  the keepers' API token (API_TOKEN, the dashboard's Settings → keeper API token): ${apiToken}`)
      } catch (err) {
        say(`the dashboard did not start (${(err as Error).message}); the demo goes on without it`)
      }
    }

    const collateral = world.collaterals[0]!
    const oldPrice = world.price(collateral.code)
    const newPrice = (oldPrice * BigInt(Math.round((100 - dropPercent) * 100))) / 10_000n
    say(`dropping the ${collateral.code} oracle price ${fmt7(oldPrice, 2)} -> ${fmt7(newPrice, 2)} (-${dropPercent} %)`)
    await world.setPrice(collateral.code, newPrice)

    const priceBefore = await price()
    const dropped = Date.now()
    const deadline = dropped + timeoutSeconds * 1000
    const progress = new RipeningProgress(say, daemons)
    let after = before
    while (Date.now() < deadline) {
      await sleep(1000)
      progress.tick()
      after = await vault.getState()
      if (after.totalProfit > before.totalProfit && after.activeLiq === 0n) break
    }
    if (after.totalProfit <= before.totalProfit) {
      say(`no liquidation was booked within ${timeoutSeconds} s`)
    } else {
      const profit = after.totalProfit - before.totalProfit
      say(`liquidation booked ${((Date.now() - dropped) / 1000).toFixed(1)} s after the price drop: vault profit +${fmt7(profit)} USDC (after the keepers' fees)`)
      say(
        `share price ${fmt7(priceBefore)} -> ${fmt7(await price())}; ${fmt7(await vault.lockedProfit())} USDC of the profit still locked, ` +
          `unlocking into the price over ${after.lockEnd - after.lockStart} s from the last booking`,
      )
      // The chain books a fill as soon as it lands; its keeper folds the fee in once it has read
      // the transaction back. Wait a few seconds for every keeper with a fill to have done so.
      const keepers = await registry.getKeepers()
      const filled = new Set(keepers.filter((k) => k.successfulFills > 0).map((k) => k.name))
      const rewardOf = (name: string) => daemons[Number(name.replace('demo-keeper-', '')) - 1]?.state.rewards.total ?? 0n
      for (let waited = 0; waited < 10 && [...filled].some((name) => rewardOf(name) === 0n); waited++) await sleep(500)
      const rewards = new Map(daemons.map((d, i) => [`demo-keeper-${i + 1}`, d.state.rewards.total]))
      for (const k of keepers) {
        say(
          `  ${k.name}: executions ${k.totalExecutions}, fills ${k.successfulFills}, profit to the vault ${fmt7(k.totalProfit)}, ` +
            `keeper fees earned ${fmt7(rewards.get(k.name) ?? 0n)}, avg response ${k.avgResponseTimeMs} ms`,
        )
      }
    }
    const audited = { vault: vaultId, registry: world.service!.registry, usdc: world.usdc.contract }
    say(`auditing the vault and the registry (the same check: npm run audit -- --addresses ${relative(process.cwd(), addressesFile)})`)
    const report = await audit(world.chain, audited)
    process.stdout.write(renderReport(report, { rpcUrl: sandbox.rpcUrl, ...audited }, process.stdout.columns ?? 120))
    if (o.once) await stopAll(report.holds && after.totalProfit > before.totalProfit ? 0 : 1)
    say(`running: RPC ${sandbox.rpcUrl}, keepers on the ports above${dashboard ? `, dashboard ${dashboard.url}?keeperToken=${apiToken}` : ''}; Ctrl-C stops everything`)
  } catch (err) {
    process.stderr.write(`demo failed: ${(err as Error).stack ?? String(err)}\n`)
    await stopAll(1)
  }
}

void main()
