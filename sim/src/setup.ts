/**
 * A run's starting state: a seeded sandbox (virtual clock, one ledger per transaction while
 * setting up), the scenario's world deployed one transaction at a time, the arbitrageurs and
 * the watchdog funded, every keeper started (executor contracts on the atomic path). Then the
 * node goes to manual closes: from here on only the lockstep loop closes ledgers.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { createChain, withLazyLatestLedger, type Chain, type RpcLike } from '../../src/chain/index.js'
import { addTrustlines, type Mint } from '../../src/world/assets.js'
import { deployExecutor, deployWorld, keypairFor, type World } from '../../src/world/index.js'
import { keeperEnv, keeperLogger, keeperSpecs, SimKeeper, type KeeperHooks } from './agents/keepers.js'
import type { ArbPool } from './agents/arbitrage.js'
import { BackgroundLoad } from './agents/background.js'
import { Mempool } from './lockstep/mempool.js'
import { Scheduler, simulatedClock } from './lockstep/scheduler.js'
import { SimRpc } from './lockstep/simRpc.js'
import type { Scenario } from './scenario/schema.js'
import type { LedgerInfo } from '../../src/keeper/engine/index.js'
import { startFromFound } from './found.js'
import { serviceSettings, usd } from './serviceSettings.js'
import { adversaryFunding } from './agents/adversaries/index.js'
import { startStrategies, type Strategies } from './agents/strategies/index.js'


/** Ledgers the sandbox keeps events for: a whole long run, read back at the end. */
const RETENTION = 2_000_000

/**
 * Under core ordering the environment's transactions (oracle posts, flows, arbitrage) bid this
 * (stroops per operation; with surge pricing they pay the ledger's clearing rate), so the
 * scenario's market reaches the chain whatever the keepers and the background load bid.
 */
export const ENVIRONMENT_INCLUSION_FEE = 1_000_000

/** Whether the world's oracle prices XLM: when a keeper bids by FEE_STRATEGY profit:BPS. */
export function pricesXlm(s: Scenario): boolean {
  return keeperSpecs(s, 0).some((k) => k.fee?.strategy?.startsWith('profit:') === true)
}

export interface SimSetup {
  /** The scenario as run: for a found world, `world.assets` are the pool's collaterals. */
  scenario: Scenario
  sandbox: Sandbox
  world: World
  /** The environment's chain client (its transactions go first in every ledger). */
  envChain: Chain
  envRpc: SimRpc
  /** Other users' transactions (scenario `chain.background`). */
  background: BackgroundLoad | undefined
  mempool: Mempool
  scheduler: Scheduler
  keepers: SimKeeper[]
  /** The keepers that run another strategy than the daemon (sim/src/agents/strategies). */
  strategies: Strategies
  arbPools: ArbPool[]
  watchdog: Keypair
  /**
   * A chain client for the agent `agent` (an adversary's): class 0 goes first in its ledger with
   * no latency, class 1 arrives `latencyMs` after the ledger opens, among the keepers'.
   */
  chainFor: (agent: string, klass: 0 | 1, latencyMs: number) => Chain
  startLedger: number
  startCloseMs: number
}

export interface SetupParameters {
  scenario: Scenario
  /** The scenario file's folder (a found world's snapshot and hints paths). */
  dir: string
  seed: number
  logFile: string
  /** Close time of the latest ledger (ms), the clock every agent uses. */
  nowMs: () => number
  building: () => number
  /**
   * The chain's latest ledger as set-up sees it move (one ledger per transaction): `nowMs` and
   * `building` must follow it, so that what the agents sign while setting up (the keepers'
   * registration, channel accounts, stakes) carries time bounds on the chain's clock.
   */
  observe: (latest: LedgerInfo) => void
  hooks: Pick<KeeperHooks, 'onCrash' | 'onFault' | 'onRequest'>
  log: (line: string) => void
}

export async function setUp(p: SetupParameters): Promise<SimSetup> {
  const extraArgs = ['--retention-window', String(RETENTION), '--quiet']
  let sandbox: Sandbox
  let world: World
  let s = p.scenario
  if (s.world.from !== undefined) {
    const found = await startFromFound({ scenario: { ...s, world: { ...s.world, from: s.world.from } }, dir: p.dir, seed: p.seed, extraArgs, log: p.log })
    ;({ sandbox, world, scenario: s } = found)
  } else {
    sandbox = await startSandbox({ manual: true, instant: true, seed: p.seed, ledgerIntervalSeconds: s.run.ledgerSeconds, extraArgs })
    try {
      p.log('deploying the world')
      world = await deployScenarioWorld(sandbox, s, p.seed)
    } catch (err) {
      await sandbox.stop()
      throw err
    }
  }
  // Every agent asks the latest ledger several times a ledger: its close meta is decoded only when read.
  withLazyLatestLedger(sandbox.server)
  try {
    p.log('arbitrageurs, watchdog and depositors\' funds')
    const routers = [world.dex.primaryRouter, world.dex.fallbackRouter]
    const arbPools: ArbPool[] = []
    for (const [r, router] of routers.entries()) {
      for (const c of world.collaterals) {
        arbPools.push({ router, asset: c.contract, quote: world.usdc.contract, trader: keypairFor(BigInt(p.seed), `arb/${r}/${c.code}`) })
      }
    }
    // The Comet pools and via pairs (none in most scenarios), each with its own arbitrageur.
    const venuePools = venueArbPools(world, s, p.seed)
    arbPools.push(...venuePools.map((v) => v.pool))
    const watchdog = keypairFor(BigInt(p.seed), 'watchdog')
    const hostile = adversaryFunding(s, world, p.seed)
    const extra = [...arbPools.map((a) => a.trader), watchdog, ...hostile.accounts]
    await world.fundAccounts(extra)
    await addTrustlines(world.chain, arbPools.map((a) => a.trader), [world.usdc, ...world.collaterals], true)
    if (hostile.accounts.length > 0) await addTrustlines(world.chain, hostile.accounts, [world.usdc], true)
    const mints: Mint[] = []
    for (const a of arbPools) {
      const spec = s.world.assets.find((x) => x.code === world.asset(a.asset).code)!
      mints.push({ asset: world.usdc, to: a.trader.publicKey(), amount: usd(spec.dexDepthUsd * 10) })
      mints.push({ asset: world.asset(a.asset), to: a.trader.publicKey(), amount: usd((spec.dexDepthUsd * 10) / spec.price) })
    }
    for (const { pool, depthUsd } of venuePools) {
      // Ten times the pool's depth of each side, as the routers' arbitrageurs hold.
      const priceOf = (contract: string) => (contract === world.usdc.contract ? 1 : s.world.assets.find((x) => x.code === world.asset(contract).code)!.price)
      for (const token of [pool.quote, pool.asset]) mints.push({ asset: world.asset(token), to: pool.trader.publicKey(), amount: usd((depthUsd * 10) / priceOf(token)) })
    }
    for (const [i, d] of world.depositors.entries()) {
      const total = s.world.depositors.flows.filter((f) => f.depositor === i && f.action === 'deposit').reduce((t, f) => t + (f.amount ?? 0), 0)
      if (total > 0) mints.push({ asset: world.usdc, to: d.publicKey(), amount: usd(total) })
    }
    for (const m of hostile.mints) mints.push({ asset: world.usdc, ...m })
    await world.mintMany(mints)

    const mempool = new Mempool(s.chain.ordering)
    mempool.bypass = true
    const scheduler = new Scheduler(p.seed, s.run.ledgerSeconds * 1000)
    // The environment's and other users' clients: class 0, no latency, no faults.
    const agentRpc = (agent: string, klass: 0 | 1 = 0, latency = 0) =>
      new SimRpc({
        server: sandbox.server,
        agent,
        klass,
        mempool,
        scheduler,
        seed: p.seed,
        ledger: p.building,
        latencyMs: () => latency,
        faultRate: 0,
        onLatest: p.observe,
        ...(p.hooks.onRequest === undefined ? {} : { onRequest: (method: string, key: string) => p.hooks.onRequest!(agent, method, key) }),
      })
    const envRpc = agentRpc('environment')
    const chainOn = (rpc: SimRpc) =>
      createChain({
        rpcUrl: sandbox.rpcUrl,
        networkPassphrase: sandbox.networkPassphrase,
        server: rpc as unknown as RpcLike,
        retry: { pollIntervalMs: 20, backoffMs: 20 },
        clock: simulatedClock(scheduler, p.nowMs),
        ...(s.chain.ordering === 'core' ? { inclusionFee: ENVIRONMENT_INCLUSION_FEE } : {}),
      })
    const envChain = chainOn(envRpc)
    const chainFor = (agent: string, klass: 0 | 1, latencyMs: number) => chainOn(agentRpc(agent, klass, latencyMs))
    let background: BackgroundLoad | undefined
    if (s.chain.background !== undefined) {
      p.log('background load')
      background = await BackgroundLoad.create({ spec: s.chain.background, seed: p.seed, chain: world.chain, usdc: world.usdc.contract, rpc: agentRpc('background'), mempool, fund: (a) => world.fundAccounts(a) })
    }

    p.log('keepers')
    const logger = keeperLogger(p.logFile)
    const hooks: KeeperHooks = {
      world,
      server: sandbox.server,
      mempool,
      scheduler,
      seed: p.seed,
      building: p.building,
      nowMs: p.nowMs,
      ledgerMs: s.run.ledgerSeconds * 1000,
      observe: p.observe,
      logFile: p.logFile,
      ...p.hooks,
    }
    const keepers: SimKeeper[] = []
    const specs = keeperSpecs(s, p.seed)
    // A hostile keeper runs no keeper process (sim/src/agents/adversaries), nor does a strategy agent (sim/src/agents/strategies).
    for (const spec of specs.filter((k) => k.hostile === undefined && k.strategy === 'daemon')) {
      const operator = world.keepers[spec.index]!
      const executor = spec.path === 'atomic' ? (await deployExecutor(world, operator, { register: false })).contractId : undefined
      const keeper = new SimKeeper(spec, operator.publicKey(), executor ?? operator.publicKey(), keeperEnv(world, spec, executor), hooks, logger)
      keepers.push(keeper)
    }
    const chainLatest = async (): Promise<LedgerInfo> => {
      const l = await sandbox.server.getLatestLedger()
      const info = { sequence: l.sequence, closeTimeMs: Number(l.closeTime ?? 0) * 1000 }
      p.observe(info)
      return info
    }
    for (const k of keepers) await k.start(await chainLatest())
    const strategies = await startStrategies({
      scenario: s,
      world,
      specs: specs.filter((k) => k.hostile === undefined && k.strategy !== 'daemon'),
      server: sandbox.server,
      mempool,
      scheduler,
      seed: p.seed,
      building: p.building,
      nowMs: p.nowMs,
      ledgerMs: s.run.ledgerSeconds * 1000,
      logger,
      ...(p.hooks.onRequest === undefined ? {} : { onRequest: p.hooks.onRequest }),
    })
    await sandbox.call('sandbox_setInstant', { enabled: false })
    const limits = s.chain.limits
    if (limits !== undefined) await sandbox.call('sandbox_setLedgerLimits', { ...limits })
    mempool.bypass = false
    scheduler.direct = false
    const latest = await sandbox.server.getLatestLedger()
    return {
      scenario: s,
      sandbox,
      world,
      envChain,
      envRpc,
      background,
      mempool,
      scheduler,
      keepers,
      strategies,
      arbPools,
      watchdog,
      chainFor,
      startLedger: latest.sequence,
      startCloseMs: Number(latest.closeTime ?? 0) * 1000,
    }
  } catch (err) {
    await sandbox.stop()
    throw err
  }
}

/**
 * The arbitrage pools beyond the routers' USDC pairs: each Comet pool (`world.dex.comets`) and
 * each via pair (`world.dex.pairs` of two collaterals: tokenA the asset, tokenB the quote), with
 * the depth a side the scenario gave it (USD), in world order. Empty without either.
 */
export function venueArbPools(world: World, s: Scenario, seed: number): { pool: ArbPool; depthUsd: number }[] {
  const spec = (contract: string) => s.world.assets.find((x) => x.code === world.asset(contract).code)
  const out: { pool: ArbPool; depthUsd: number }[] = []
  for (const c of world.dex.comets) {
    const code = world.asset(c.asset).code
    out.push({ pool: { router: c.pool, comet: true, asset: c.asset, quote: world.usdc.contract, trader: keypairFor(BigInt(seed), `arb/comet/${code}`) }, depthUsd: spec(c.asset)?.cometDepthUsd ?? 0 })
  }
  for (const pair of world.dex.pairs) {
    if (pair.tokenA === world.usdc.contract || pair.tokenB === world.usdc.contract) continue
    const code = world.asset(pair.tokenA).code
    out.push({ pool: { router: pair.router, asset: pair.tokenA, quote: pair.tokenB, trader: keypairFor(BigInt(seed), `arb/via/${code}`) }, depthUsd: spec(pair.tokenA)?.via?.depthUsd ?? 0 })
  }
  return out
}

/** The scenario's own world, deployed one transaction at a time on the seeded sandbox. */
function deployScenarioWorld(sandbox: Sandbox, s: Scenario, seed: number): Promise<World> {
  const mix = s.world.borrowers.collateralMix
  return deployWorld(sandbox, {
    seed: seed,
    serial: true,
    // No upper time bound: the set-up signs the same envelopes on every run of the seed.
    txTimeoutSeconds: 0,
    // A keeper bidding a share of its profit converts it to XLM at the oracle's XLM price.
    ...(pricesXlm(s) ? { oracleXlmPrice: usd(s.chain.xlmPrice) } : {}),
    collaterals: s.world.assets.map((a) => ({
      code: a.code,
      price: usd(a.price),
      cFactor: Math.round(a.cFactor * 1e7),
      dexDepthUsd: usd(a.dexDepthUsd),
      ...(a.cometDepthUsd === undefined ? {} : { cometDepthUsd: usd(a.cometDepthUsd) }),
      ...(a.via === undefined ? {} : { via: { asset: a.via.asset, depthUsd: usd(a.via.depthUsd) } }),
    })),
    borrowers: s.world.borrowers.count,
    ...(s.world.pools === undefined ? {} : { pools: s.world.pools }),
    borrowerHealthFactor: { min: usd(s.world.borrowers.healthFactor.min), max: usd(s.world.borrowers.healthFactor.max) },
    ...(mix === undefined ? {} : { collateralWeights: s.world.assets.map((a) => mix[a.code] ?? 0) }),
    ...serviceSettings(s),
    registerKeepers: false,
    lenderSupply: usd(s.world.lenderSupply),
  })
}

export { Keypair }
