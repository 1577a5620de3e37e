/**
 * Mass-liquidation benchmark: the acceptance test of the keeper's execution engine.
 *
 * For each keeper count (default 1, then 3), on a fresh sandbox and a freshly seeded world (so
 * the runs are independent): the keepers run as in-process daemons (src/keeper/daemon.ts) on the
 * two-step path (the operator is the registered keeper) or, with `--path atomic`, each with its
 * own executor contract (deployExecutor; EXECUTOR_CONTRACT) as the registered keeper; then
 * ONE oracle transaction drops the WETH and the WBTC price together so that EVERY borrower falls
 * under HF 1 at once (checked with a PoolScanner scan right after the drop). The run waits, in
 * real ledger time, until every auction is filled and every draw returned, or until a timeout.
 *
 * Measured from chain events (getEvents on the pool and the vault), not from the keepers' reports:
 * - auction creation ledger - drop ledger (goal: every auction within 10 ledgers);
 * - fill ledger - the auction's first profitable ledger, i.e. `planFill` (src/core
 *   `firstProfitableBlock`) on the auction data at creation, the oracle prices after the drop, the
 *   reserves accrued to the creation ledger's close time and the keepers' MIN_PROFIT (goal: >= 99 %
 *   of fills at +0 or +1);
 * - return ledger - draw ledger, each keeper's draw matched to its next return (goal: <= 1 on the
 *   two-step path, 0 on the atomic path);
 * plus, from each daemon's state: poll-cycle overruns (goal: none) and cycle duration p50 / max;
 * fills and profit per keeper, the vault's profit, wall time.
 *
 * Ledgers are never fast-forwarded: the ~185 ledgers of ripening are waited for in real time.
 * Prints a table per run, then one JSON line with every figure. Exits non-zero only when the
 * harness itself fails (a missed goal is reported in the table, with exit 0).
 *
 * Run: npx tsx benchmarks/mass-liquidation.ts [--borrowers 12] [--keepers 1,3] [--ledger-interval 1]
 *        [--path two-step|atomic] [--seed 1] [--drop 15] [--timeout SECONDS] [--dex-depth 1] [--channels 4]
 * Keeper logs (JSON lines): target/bench/mass-liquidation/<path>-<k>-keepers.log
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { startSandbox, REPO_ROOT, type Sandbox } from '../sandbox/ts/launch.js'
import { invoke, withLazyLatestLedger } from '../src/chain/index.js'
import { minProfitScaled } from '../src/keeper/adapters/blend/auctionPlan.js'
import { PoolScanner } from '../src/keeper/adapters/blend/scan.js'
import { VaultContract } from '../src/keeper/clients/vault.js'
import { parseConfig } from '../src/keeper/config/index.js'
import { startDaemon, type Daemon } from '../src/keeper/daemon.js'
import { DEFAULT_COLLATERALS, deployExecutor, deployWorld, type World } from '../src/world/index.js'
import { i128s } from '../src/world/scval.js'
import { liquidationEvents, RunEventLog } from '../src/world/runEvents.js'
import { formatRun, runFigures, type DropValuation, type KeeperRun, type RunFigures } from './lib/liquidationFigures.js'

const MIN_PROFIT = 1.02
/** The world's borrowers open at a health factor in [1.04, 1.10] (src/world planBorrowers). */
const MAX_OPENING_HF = 1.1
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const say = (line: string) => process.stderr.write(`[mass-liquidation] ${line}\n`)

class UsageError extends Error {}

interface Options {
  borrowers: number
  keepers: number[]
  ledgerInterval: number
  path: 'two-step' | 'atomic'
  seed: number
  drop: number
  timeoutS: number
  dexDepthM: number
  channels: number
}

function parseOptions(argv: string[]): Options {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        borrowers: { type: 'string' },
        keepers: { type: 'string' },
        'ledger-interval': { type: 'string' },
        path: { type: 'string' },
        seed: { type: 'string' },
        drop: { type: 'string' },
        timeout: { type: 'string' },
        'dex-depth': { type: 'string' },
        channels: { type: 'string' },
      },
      strict: true,
    })
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  const o = parsed.values
  const num = (name: string, raw: string | undefined, fallback: number, min: number, max: number, int: boolean) => {
    if (raw === undefined) return fallback
    const v = Number(raw)
    if (!Number.isFinite(v) || v < min || v > max || (int && !Number.isInteger(v))) {
      throw new UsageError(`--${name} must be ${int ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(raw)}`)
    }
    return v
  }
  const borrowers = num('borrowers', o.borrowers, 12, 12, 200, true)
  const keepers = (o.keepers ?? '1,3').split(',').map((k) => num('keepers', k.trim(), 1, 1, 10, true))
  const ledgerInterval = num('ledger-interval', o['ledger-interval'], 1, 0.2, 10, false)
  const path = o.path ?? 'two-step'
  if (path !== 'two-step' && path !== 'atomic') throw new UsageError(`--path must be two-step or atomic, got ${JSON.stringify(path)}`)
  const drop = num('drop', o.drop, 15, 1, 60, false)
  // Enough to push the healthiest borrower (HF 1.10 at opening) under 1, interest aside.
  if ((1 - drop / 100) * MAX_OPENING_HF >= 0.99) {
    throw new UsageError(`--drop ${drop} leaves a borrower that opened at HF ${MAX_OPENING_HF} above 0.99: use more than 10 (percent)`)
  }
  // Ripening (~185 ledgers) + one fill after another (one outstanding draw per keeper) + slack.
  const timeoutS = num('timeout', o.timeout, Math.ceil((260 + 10 * borrowers) * ledgerInterval) + 60, 30, 7200, false)
  // USD millions a side in each collateral's router pools (nothing arbitrages them here: every sale moves the pool for the next).
  const dexDepthM = num('dex-depth', o['dex-depth'], 1, 1, 1000, true)
  // Each keeper's channel accounts (CHANNEL_ACCOUNTS): with its operator, how many transactions it can have in one ledger.
  const channels = num('channels', o.channels, 4, 0, 16, true)
  return { borrowers, keepers, ledgerInterval, path, seed: num('seed', o.seed, 1, 0, 2 ** 31, true), drop, timeoutS, dexDepthM, channels }
}

/** A two-step keeper's bond (USDC): its draw limit (90 % of it) covers the largest draw of these worlds (20k USD of collateral at HF 1.04). */
const TWO_STEP_BOND_USDC = 20_000

/**
 * Keeper daemon settings: the world's contracts, the demo's keeper settings, no rebalancing; on
 * the atomic path the keeper's executor contract (it registers and draws).
 */
function keeperEnv(world: World, i: number, opts: Options, executor: string | undefined): Record<string, string> {
  const ledgerInterval = opts.ledgerInterval
  // REBALANCE_VAULT off: its trades on the DEX would move the prices the keepers sell at.
  const { REBALANCE_VAULT: _off, ...env } = world.addresses.env
  return {
    ...env,
    ...(executor === undefined ? {} : { EXECUTOR_CONTRACT: executor }),
    KEEPER_SECRET: world.keepers[i]!.secret(),
    KEEPER_NAME: `bench-keeper-${i + 1}`,
    API_PORT: '0',
    API_HOST: '127.0.0.1',
    POLL_INTERVAL: '3',
    MIN_PROFIT: String(MIN_PROFIT),
    SLIPPAGE_BPS: '300',
    CHANNEL_ACCOUNTS: String(opts.channels),
    // Two-step draws are bounded by the keeper's bond (draw_limit): enough for the largest bid here.
    ...(executor === undefined ? { KEEPER_BOND: String(TWO_STEP_BOND_USDC) } : {}),
    LEDGER_POLL_MS: String(Math.max(50, Math.min(250, Math.round((ledgerInterval * 1000) / 3)))),
  }
}

/** Each daemon's poll cycles after the drop: every cycle's duration, and overruns (daemon.state). */
class CycleSampler {
  readonly ms: number[][]
  private seen: number[] = []
  private dropOverruns: number[] = []
  missed = 0
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly daemons: readonly Daemon[]) {
    this.ms = daemons.map(() => [])
  }

  /** From now on cycles count as "after the drop". */
  start(): void {
    this.dropOverruns = this.daemons.map((d) => d.state.cycles.overruns)
    this.seen = this.daemons.map((d) => d.state.cycles.count)
    // Cycles are >= POLL_INTERVAL (3 s) apart: sampling every 200 ms sees each one.
    this.timer = setInterval(() => this.sample(), 200)
  }

  sample(): void {
    this.daemons.forEach((d, i) => {
      const c = d.state.cycles
      if (c.count === this.seen[i]) return
      if (c.count > this.seen[i]! + 1) this.missed += c.count - this.seen[i]! - 1
      this.seen[i] = c.count
      if (c.lastDurationMs !== null) this.ms[i]!.push(c.lastDurationMs)
    })
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.sample()
  }

  overrunsAfterDrop(i: number): number {
    return this.daemons[i]!.state.cycles.overruns - (this.dropOverruns[i] ?? 0)
  }
}

async function waitFor(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(200)
  }
}

/**
 * The keepers as in-process daemons, each after its registration and first (cold) scan. Returns
 * the addresses that act for each keeper on chain: the operator, and on the atomic path its
 * executor contract (the registered keeper: draws, fills and returns are the executor's).
 */
async function startKeepers(world: World, count: number, opts: Options, logFile: string, daemons: Daemon[]): Promise<string[][]> {
  const logger = pino({ level: 'info', base: { service: 'keeper' } }, pino.destination({ dest: logFile, mkdir: true, sync: true, append: false }))
  const addresses: string[][] = []
  for (let i = 0; i < count; i++) {
    const keeper = world.keepers[i]!
    const executor = opts.path === 'atomic' ? (await deployExecutor(world, keeper, { register: false })).contractId : undefined
    const env = keeperEnv(world, i, opts, executor)
    daemons.push(await startDaemon(parseConfig(env), { logger: logger.child({ keeper: env.KEEPER_NAME }), stopGraceMs: 15_000 }))
    addresses.push(executor === undefined ? [keeper.publicKey()] : [keeper.publicKey(), executor])
  }
  await waitFor('the keepers to finish a first poll cycle', 60_000, () => daemons.every((d) => d.state.cycles.count >= 1))
  return addresses
}

/**
 * Drops every collateral price by `percent` in ONE oracle transaction (`set_price_stable` takes
 * the full price vector, USDC first), so every borrower crosses HF 1 in the same ledger. Returns
 * that ledger. (world.price() keeps the old prices: the world's own setPrice sets one asset per
 * transaction.)
 */
async function dropPrices(world: World, percent: number): Promise<number> {
  const old = world.collaterals.map((c) => world.price(c.contract))
  const now = old.map((p) => (p * BigInt(Math.round((100 - percent) * 100))) / 10_000n)
  const { ledger } = await invoke(world.chain, world.admin, world.oracle, 'set_price_stable', [i128s([world.price(world.usdc.contract), ...now])])
  say(`ledger ${ledger}: ${world.collaterals.map((c, i) => `${c.code} ${fmtPrice(old[i]!)} -> ${fmtPrice(now[i]!)}`).join(', ')} (-${percent} %)`)
  return ledger
}

const fmtPrice = (p: bigint) => (Number(p) / 1e7).toFixed(2)

/**
 * A PoolScanner scan right after the drop: every borrower must be under HF 1 (else the scenario
 * is wrong: a harness error). Its reserves and prices are what each auction is valued with.
 */
async function checkAllUnderwater(sandbox: Sandbox, world: World, percent: number) {
  const scan = await new PoolScanner(world.blend.pool).scan(sandbox.server, world.chain)
  const hfs = world.borrowers.map((b) => scan.borrowers.find((x) => x.user === b.address)?.healthFactor ?? Number.NaN)
  const under = hfs.filter((h) => h < 1).length
  if (under !== world.borrowers.length) {
    throw new Error(`after a ${percent} % drop only ${under}/${hfs.length} borrowers are under HF 1 (${hfs.map((h) => h.toFixed(3)).join(', ')}); raise --drop`)
  }
  const health = { min: Math.min(...hfs), max: Math.max(...hfs), under }
  say(`health factors after the drop: ${health.min.toFixed(3)}..${health.max.toFixed(3)} (${under}/${hfs.length} under 1)`)
  const valuation: DropValuation = { reserves: scan.snapshot.reserves, bstopRate: scan.snapshot.config.bstop_rate, prices: scan.prices.prices, minProfit: minProfitScaled(MIN_PROFIT) }
  return { health, valuation }
}

/** Follows the chain until every borrower's auction is filled and every draw returned, or the deadline. */
async function waitUntilSettled(p: { log: RunEventLog; vault: VaultContract; sandbox: Sandbox; borrowers: number; dropLedger: number; deadline: number; intervalS: number }) {
  let lastFillAt: number | null = null
  let lastSay = 0
  while (Date.now() < p.deadline) {
    await sleep(Math.max(250, p.intervalS * 1000))
    const ev = liquidationEvents(await p.log.poll())
    const filled = new Set(ev.fills.map((f) => f.user)).size
    if (filled === p.borrowers && lastFillAt === null) lastFillAt = Date.now()
    if (Date.now() - lastSay > 15_000) {
      lastSay = Date.now()
      const latest = (await p.sandbox.server.getLatestLedger()).sequence
      const auctions = new Set(ev.auctions.map((a) => a.user)).size
      say(`ledger ${latest} (+${latest - p.dropLedger}): ${auctions} auctions, ${filled} filled, ${ev.draws.length} draws, ${ev.returns.length} returns`)
    }
    const returnedAll = ev.returns.filter((r) => r.remaining === 0n).length >= ev.draws.length
    if (filled === p.borrowers && returnedAll && (await p.vault.getState()).activeLiq === 0n) return { timedOut: false, lastFillAt }
  }
  return { timedOut: true, lastFillAt }
}

async function runOnce(opts: Options, keeperCount: number): Promise<RunFigures> {
  const runStarted = Date.now()
  say(`run with ${keeperCount} keeper(s): starting a sandbox (${opts.ledgerInterval} s ledgers)`)
  const sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: opts.ledgerInterval })
  // As the keepers' own servers: the ledger's close meta decoded only when read (src/chain latestLedger.ts).
  withLazyLatestLedger(sandbox.server)
  const daemons: Daemon[] = []
  try {
    say(`deploying a world: seed ${opts.seed}, ${opts.borrowers} borrowers, ${keeperCount} keeper account(s)`)
    const collaterals = DEFAULT_COLLATERALS.map((c) => ({ ...c, dexDepthUsd: BigInt(opts.dexDepthM) * 1_000_000n * 10_000_000n }))
    const world = await deployWorld(sandbox, {
      seed: opts.seed,
      borrowers: opts.borrowers,
      keepers: keeperCount,
      registerKeepers: false,
      collaterals,
      // The two-step keepers' bond comes out of their own USDC.
      ...(opts.path === 'two-step' ? { keeperUsdc: (BigInt(TWO_STEP_BOND_USDC) + 10_000n) * 10_000_000n } : {}),
    })
    const deployS = (Date.now() - runStarted) / 1000
    const logFile = join(REPO_ROOT, 'target', 'bench', 'mass-liquidation', `${opts.path}-${keeperCount}-keepers.log`)
    const addresses = await startKeepers(world, keeperCount, opts, logFile, daemons)
    const sampler = new CycleSampler([...daemons])
    const vault = new VaultContract(world.chain, world.service!.vault)
    const before = await vault.getState()

    sampler.start()
    const dropLedger = await dropPrices(world, opts.drop)
    const dropAt = Date.now()
    const { health, valuation } = await checkAllUnderwater(sandbox, world, opts.drop)
    const log = new RunEventLog(sandbox.server, { pool: world.blend.pool, vault: world.service!.vault }, dropLedger)
    const { timedOut, lastFillAt } = await waitUntilSettled({
      log,
      vault,
      sandbox,
      borrowers: world.borrowers.length,
      dropLedger,
      deadline: dropAt + opts.timeoutS * 1000,
      intervalS: opts.ledgerInterval,
    })

    // One more poll cycle each, so daemon.state.executions holds the final book.
    const counts = daemons.map((d) => d.state.cycles.count)
    await waitFor('a last poll cycle', 30_000, () => daemons.every((d, i) => d.state.cycles.count >= counts[i]! + 1)).catch(() => undefined)
    sampler.stop()
    const keepers: KeeperRun[] = daemons.map((d, i) => ({
      name: d.state.keeperName,
      addresses: addresses[i]!,
      cycleMs: sampler.ms[i]!,
      overruns: d.state.cycles.overruns,
      overrunsAfterDrop: sampler.overrunsAfterDrop(i),
      executions: [...d.state.executions],
    }))
    await Promise.all(daemons.splice(0).map((d) => d.stop()))
    const events = liquidationEvents(await log.poll())
    const after = await vault.getState()
    if (sampler.missed > 0) say(`note: ${sampler.missed} poll cycle(s) completed between two samples (durations not recorded)`)
    say(`keeper logs: ${logFile}`)

    return runFigures({
      keepers,
      borrowers: world.borrowers.map((b) => ({ address: b.address, asset: b.collateralAsset.code })),
      path: opts.path,
      ledgerIntervalS: opts.ledgerInterval,
      dropLedger,
      dropPercent: opts.drop,
      healthAfterDrop: health,
      valuation,
      events,
      vaultProfitDelta: after.totalProfit - before.totalProfit,
      timedOut,
      wall: { deployS, dropToLastFillS: lastFillAt === null ? null : (lastFillAt - dropAt) / 1000, runS: (Date.now() - runStarted) / 1000 },
    })
  } finally {
    await Promise.all(daemons.map((d) => d.stop().catch(() => undefined)))
    await sandbox.stop()
  }
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2))
  const runs: RunFigures[] = []
  for (const k of opts.keepers) {
    const f = await runOnce(opts, k)
    runs.push(f)
    console.log(`\n## ${k} keeper(s), ${f.borrowers} borrowers, ${f.path}, ${f.ledgerIntervalS} s ledgers (real time, no fast-forward); drop -${f.dropPercent} % on WETH and WBTC in ledger ${f.dropLedger}, HF after ${f.healthAfterDrop.min.toFixed(3)}..${f.healthAfterDrop.max.toFixed(3)}\n`)
    console.log(formatRun(f))
  }
  console.log(JSON.stringify({ benchmark: 'mass-liquidation', version: 1, options: opts, runs }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`mass-liquidation: ${err.message}\n`)
      process.exit(2)
    }
    process.stderr.write(`mass-liquidation failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  },
)
