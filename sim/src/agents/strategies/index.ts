/**
 * The run's strategy agents (scenario `keepers.individual[].strategy`: `seed-rule`, `nectar`):
 * keepers of the same vault that are not our daemon (sim/README.md, Strategy tournament). Each is
 * set up as a keeper of the run is, with the scenario's own settings for it (MIN_PROFIT,
 * POLL_INTERVAL, SLIPPAGE_BPS, latency, RPC faults, fees, bond), parsed by the daemon's
 * configuration parser from the same variables a daemon keeper gets; then the lockstep wakes
 * them in every ledger, after the environment.
 *
 * Capital: seed-rule has the registry deploy it an executor (the approved code, registered with
 * min_stake) and fills through the vault's flash draw, like the daemon's atomic path; nectar
 * registers its operator and adds its bond (`bond`, KEEPER_BOND) so that its two-step draws fit
 * its `draw_limit`.
 */
import type { Logger } from 'pino'
import type { rpc } from '@stellar/stellar-sdk'
import { createChain, type Chain, type RpcLike } from '../../../../src/chain/index.js'
import { minProfitScaled } from '../../../../src/keeper/adapters/blend/auctionPlan.js'
import type { PoolReader } from '../../../../src/keeper/adapters/blend/scan.js'
import { ExecutorContract } from '../../../../src/keeper/clients/executor.js'
import { RegistryContract } from '../../../../src/keeper/clients/registry.js'
import { parseConfig } from '../../../../src/keeper/config/index.js'
import { KeeperFees, type FeeStatsSource } from '../../../../src/keeper/fees/index.js'
import { deployExecutor, type World } from '../../../../src/world/index.js'
import type { Mempool } from '../../lockstep/mempool.js'
import { simulatedClock, type Scheduler } from '../../lockstep/scheduler.js'
import { SimRpc } from '../../lockstep/simRpc.js'
import { usd } from '../../serviceSettings.js'
import type { Scenario } from '../../scenario/schema.js'
import { keeperEnv, latencyMs, type KeeperSpec } from '../keepers.js'
import type { StrategyEnv, StrategyKeeper } from './agent.js'
import { Nectar } from './nectar.js'
import { SeedRule } from './seedRule.js'

export { StrategyKeeper } from './agent.js'

export interface StrategySetup {
  scenario: Scenario
  world: World
  /** The keepers that run a strategy other than the daemon. */
  specs: readonly KeeperSpec[]
  server: rpc.Server
  mempool: Mempool
  scheduler: Scheduler
  seed: number
  building: () => number
  nowMs: () => number
  ledgerMs: number
  logger: Logger
  /** Every chain call an agent makes (determinism traces). */
  onRequest?: (agent: string, method: string, key: string) => void
}

/**
 * Registers each strategy keeper on the world's set-up client (as the daemons register during
 * set-up) and builds its agent on a SimRpc of its own.
 */
export async function startStrategies(p: StrategySetup): Promise<Strategies> {
  const agents: StrategyKeeper[] = []
  const service = p.world.service
  if (service === undefined) throw new Error('strategy keepers need the world\'s vault and registry')
  const minStake = usd(p.scenario.world.registry.minStake)
  for (const spec of p.specs) {
    const operator = p.world.keepers[spec.index]!
    let executor: string | undefined
    if (spec.strategy === 'seed-rule') {
      const deployed = await deployExecutor(p.world, operator, { register: true, name: spec.name })
      executor = deployed.contractId
      const bond = usd(spec.bond) - minStake
      if (bond > 0n) await deployed.addBond(operator, service.registry, bond)
    } else {
      const registry = new RegistryContract(p.world.chain, service.registry)
      await registry.register(operator, spec.name)
      const bond = usd(spec.bond) - minStake
      if (bond > 0n) await registry.addBond(operator, bond)
    }
    const config = parseConfig(keeperEnv(p.world, spec, executor))
    const simRpc = new SimRpc({
      server: p.server,
      agent: spec.name,
      klass: 1,
      mempool: p.mempool,
      scheduler: p.scheduler,
      seed: p.seed,
      ledger: p.building,
      latencyMs: (key) => latencyMs(spec.latency, p.seed, spec.name, p.building(), key),
      faultRate: spec.rpcFaultRate,
      ...(p.onRequest === undefined ? {} : { onRequest: (method: string, key: string) => p.onRequest!(spec.name, method, key) }),
    })
    const fees = new KeeperFees({
      settings: { inclusionFee: config.inclusionFee, feeStrategy: config.feeStrategy, maxFee: config.maxFee, feeBumpLedgers: config.feeBumpLedgers },
      server: simRpc as unknown as FeeStatsSource,
      latestLedger: () => p.building() - 1,
      logger: p.logger.child({ keeper: spec.name, component: 'fees' }),
    })
    const base = createChain({
      rpcUrl: config.rpcUrl,
      networkPassphrase: config.networkPassphrase,
      server: simRpc as unknown as RpcLike,
      retry: { pollIntervalMs: 20, backoffMs: 20 },
      clock: simulatedClock(p.scheduler, p.nowMs),
      ledgerMs: p.ledgerMs,
    })
    const chain: Chain = { ...base, inclusionFee: config.inclusionFee, fees: fees.chainFees() }
    const env: StrategyEnv = {
      world: p.world,
      chain,
      reader: simRpc as unknown as PoolReader,
      fees,
      building: p.building,
      nowMs: p.nowMs,
      logger: p.logger,
      watch: config.watchAddresses,
      pool: p.world.blend.pool,
      vault: service.vault,
      usdc: p.world.usdc.contract,
      router: config.primaryDexRouter ?? p.world.dex.primaryRouter,
      minProfit: minProfitScaled(config.minProfit),
      slippageBps: config.slippageBps,
    }
    agents.push(
      spec.strategy === 'seed-rule'
        ? new SeedRule(spec, operator, new ExecutorContract(chain, executor!, service.vault), env)
        : new Nectar(spec, operator, env),
    )
  }
  return new Strategies(agents)
}

/** The strategy agents as the lockstep drives them (the loop's adversary hooks). */
export class Strategies {
  constructor(readonly agents: readonly StrategyKeeper[]) {}

  get size(): number {
    return this.agents.length
  }

  act(): void {
    for (const a of this.agents) a.act()
  }

  /** Whether one must act in `ledger`. */
  decisive(ledger: number): boolean {
    return this.agents.some((a) => a.decisive(ledger))
  }

  busy(): boolean {
    return this.agents.some((a) => a.busy())
  }

  stop(): void {
    for (const a of this.agents) a.stop()
  }
}
