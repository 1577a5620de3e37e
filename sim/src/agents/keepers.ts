/**
 * The keeper population: each keeper is the production keeper (`startKeeperRuntime`, the same
 * adapters, engine and poll cycle the daemon runs) on its own SimRpc and manual ledger clock.
 * The lockstep loop starts its poll cycles on its POLL_INTERVAL (in whole ledgers, at a seeded
 * phase) and moves its clock after every close. Crash points end a keeper's "process" right
 * after a step of an execution; a restart is a fresh runtime (stale-draw recovery on its first
 * cycle), exactly what a supervisor restarting the daemon would get.
 */
import { createWriteStream } from 'node:fs'
import pino, { type Logger } from 'pino'
import type { rpc } from '@stellar/stellar-sdk'
import { createChain, type RpcLike } from '../../../src/chain/index.js'
import { parseConfig } from '../../../src/keeper/config/index.js'
import { leadLedgers, ManualLedgerClock, type LedgerInfo } from '../../../src/keeper/engine/index.js'
import { startKeeperRuntime, type KeeperRuntime } from '../../../src/keeper/runtime.js'
import type { World } from '../../../src/world/index.js'
import { keyedNormal, keyedUniform } from '../lockstep/keyed.js'
import type { Mempool } from '../lockstep/mempool.js'
import { simulatedClock, type Scheduler } from '../lockstep/scheduler.js'
import { SimRpc } from '../lockstep/simRpc.js'
import { usd } from '../serviceSettings.js'
import { probedFactories, type KeeperDecision } from './probe.js'
import type { FillSales } from '../record/sales.js'
import type { LiquidationRecord } from '../../../src/keeper/state/dashboard.js'
import { feeEnv, type KeeperFee } from '../scenario/chainSchema.js'
import type { CrashSpec, HostileKeeper, KeeperStrategy, LatencyModel, Scenario } from '../scenario/schema.js'

export interface KeeperSpec {
  index: number
  name: string
  minProfit: number
  pollIntervalSeconds: number
  pollLedgers: number
  phase: number
  slippageBps: number
  /** PROFIT_BASIS when the scenario sets one (else the daemon's default). */
  profitBasis: 'oracle' | 'executable' | undefined
  /** CHANNEL_ACCOUNTS: its lanes are the operator and these. */
  channelAccounts: number
  latency: LatencyModel
  rpcFaultRate: number
  path: 'atomic' | 'two-step'
  /** The stake it holds (KEEPER_BOND), USD; 0 = min_stake only. */
  bond: number
  crash: CrashSpec | undefined
  /** Fee settings (the population's with this keeper's own). */
  fee: KeeperFee | undefined
  /** An attacker instead of a keeper (sim/src/agents/adversaries): no keeper process runs for it. */
  hostile: HostileKeeper | undefined
  /** What runs for it: the production daemon, or a strategy agent (sim/src/agents/strategies). */
  strategy: KeeperStrategy
}

/** Failed transactions as the daemon counts them (its dashboard's `failedTransactions`): in all, by reason, XLM charged (stroops). */
export interface FailedTransactions {
  total: number
  byReason: Record<string, number>
  feesStroops: bigint
}

/**
 * What the run and its report read of any keeper of `keepers[]`: the production daemon
 * (SimKeeper) or a strategy agent (sim/src/agents/strategies).
 */
export interface ScenarioKeeper {
  readonly spec: KeeperSpec
  readonly operator: string
  /** The registered keeper: its executor contract on the atomic path, else the operator. */
  readonly address: string
  readonly aliveSpans: readonly AliveSpan[]
  readonly decisions: readonly KeeperDecision[]
  readonly crashed: boolean
  /** USDC of the operator and its executor plus its stake when the run started (7 decimals). */
  startBalance: bigint
  failedTransactions(): FailedTransactions
  /** Executions that ended: returned, lost, abandoned. */
  finishedCounts(): { returned: number; lost: number; abandoned: number }
  /** Its submission lanes' source accounts, the operator first. */
  laneAccounts(): string[]
  /** The swaps of each fill it landed that recorded them (the daemon's atomic fills), in order; none when absent. */
  fillSales?(): readonly FillSales[]
}

/** Each keeper's settings: the population's defaults with its individual overrides (hostile ones included). */
export function keeperSpecs(s: Scenario, seed: number): KeeperSpec[] {
  const k = s.keepers
  return Array.from({ length: k.count }, (_, index) => {
    const o = k.individual.find((x) => x.index === index)
    const pollIntervalSeconds = o?.pollInterval ?? k.pollInterval
    const pollLedgers = Math.max(1, Math.ceil(pollIntervalSeconds / s.run.ledgerSeconds))
    return {
      index,
      name: `keeper-${index + 1}`,
      minProfit: o?.minProfit ?? k.minProfit,
      pollIntervalSeconds,
      pollLedgers,
      phase: Math.floor(keyedUniform(seed, 'poll-phase', index) * pollLedgers),
      slippageBps: o?.slippageBps ?? k.slippageBps,
      profitBasis: o?.profitBasis ?? k.profitBasis,
      channelAccounts: o?.channelAccounts ?? k.channelAccounts,
      latency: o?.latency ?? k.latency,
      rpcFaultRate: o?.rpcFaultRate ?? k.rpcFaultRate,
      path: o?.path ?? k.path,
      bond: o?.bond ?? k.bond,
      crash: k.crashes.find((c) => c.keeper === index),
      fee: k.fee === undefined && o?.fee === undefined ? undefined : { ...k.fee, ...o?.fee },
      hostile: o?.hostile,
      strategy: o?.strategy ?? 'daemon',
    }
  })
}

/** One latency draw (ms) for a transaction of this keeper, keyed by its content. */
export function latencyMs(model: LatencyModel, seed: number, agent: string, ledger: number, key: string): number {
  switch (model.model) {
    case 'constant':
      return model.ms
    case 'uniform':
      return model.minMs + keyedUniform(seed, 'latency', agent, ledger, key) * (model.maxMs - model.minMs)
    case 'lognormal':
      return model.medianMs * Math.exp(model.sigma * keyedNormal(seed, 'latency', agent, ledger, key))
  }
}

export interface KeeperHooks {
  world: World
  server: rpc.Server
  mempool: Mempool
  scheduler: Scheduler
  seed: number
  /** The ledger being built. */
  building: () => number
  /** Close time of the latest ledger (ms): the keepers' clock. */
  nowMs: () => number
  /** The network's ledger time (ms): the scenario's run.ledgerSeconds, as the node's scp_timing says. */
  ledgerMs: number
  /** Set-up only: the chain's latest ledger as an answer names it (SimRpc `onLatest`), which `nowMs` follows. */
  observe?: (latest: LedgerInfo) => void
  logFile: string
  /** A keeper died at a crash point (after `boundary`). */
  onCrash: (keeper: SimKeeper, boundary: string) => void
  onFault: (keeper: SimKeeper, method: string) => void
  /** Every chain call an agent makes (determinism traces). */
  onRequest?: (agent: string, method: string, key: string) => void
}

/** Ledgers a keeper's process ran: from the ledger being built at start to the one at death (null: still running). */
export interface AliveSpan {
  from: number
  to: number | null
}

export class SimKeeper implements ScenarioKeeper {
  runtime: KeeperRuntime | undefined
  rpc: SimRpc | undefined
  clock: ManualLedgerClock | undefined
  alive = false
  crashed = false
  crashedAtLedger: number | null = null
  faults = 0
  /** USDC of the operator and its executor plus its stake when the run started (7 decimals). */
  startBalance = 0n
  /** Crash points only count from this (virtual) time on (ms). */
  crashFromMs = 0
  /** When its process ran, across restarts. */
  readonly aliveSpans: AliveSpan[] = []
  /** Its engine's planning and fire answers per auction, across restarts (agents/probe.ts). */
  readonly decisions: KeeperDecision[] = []
  private cycle: Promise<unknown> | undefined
  /** The swaps of its landed fills, across restarts, read off its dashboard records (`harvestSales`). */
  private readonly landedSales: FillSales[] = []
  /** The newest dashboard record of the current runtime already read. */
  private harvested: LiquidationRecord | undefined

  constructor(
    readonly spec: KeeperSpec,
    readonly operator: string,
    /** The registered keeper: its executor contract on the atomic path, else the operator. */
    readonly address: string,
    private readonly env: Record<string, string>,
    private readonly hooks: KeeperHooks,
    private readonly logger: Logger,
  ) {}

  /** Starts (or restarts) the keeper process at the latest ledger `at`. */
  async start(at: LedgerInfo): Promise<void> {
    const h = this.hooks
    const agent = this.spec.name
    const simRpc = new SimRpc({
      server: h.server,
      agent,
      klass: 1,
      mempool: h.mempool,
      scheduler: h.scheduler,
      seed: h.seed,
      ledger: h.building,
      latencyMs: (key) => latencyMs(this.spec.latency, h.seed, agent, h.building(), key),
      faultRate: this.spec.rpcFaultRate,
      ...(h.observe === undefined ? {} : { onLatest: h.observe }),
      onFault: (method) => {
        this.faults++
        h.onFault(this, method)
      },
      ...(h.onRequest === undefined ? {} : { onRequest: (method: string, key: string) => h.onRequest!(agent, method, key) }),
    })
    const config = parseConfig(this.env)
    const chain = createChain({
      rpcUrl: config.rpcUrl,
      networkPassphrase: config.networkPassphrase,
      server: simRpc as unknown as RpcLike,
      retry: { pollIntervalMs: 20, backoffMs: 20 },
      clock: simulatedClock(h.scheduler, h.nowMs),
      ledgerMs: h.ledgerMs,
    })
    const clock = new ManualLedgerClock(at)
    const crash = this.spec.crash
    this.harvestSales()
    this.harvested = undefined
    this.runtime = await startKeeperRuntime(config, {
      logger: this.logger.child({ keeper: agent }),
      chain,
      clock,
      ledgerMs: h.ledgerMs,
      now: h.nowMs,
      // Channel accounts that failed to start stay off: a background retry is timed by the wall clock.
      retryChannels: false,
      factories: probedFactories(h.building, (d) => this.decisions.push(d)),
      crash: (boundary) => {
        if (crash === undefined || this.crashed || h.nowMs() < this.crashFromMs) return
        this.die(boundary)
        return new Promise<void>(() => {})
      },
    })
    this.rpc = simRpc
    this.clock = clock
    this.alive = true
    this.aliveSpans.push({ from: h.building(), to: null })
  }

  private ended(): void {
    const last = this.aliveSpans[this.aliveSpans.length - 1]
    if (last !== undefined && last.to === null) last.to = this.hooks.building()
  }

  private die(boundary: string): void {
    this.alive = false
    this.crashed = true
    this.crashedAtLedger = this.hooks.building()
    this.ended()
    if (this.rpc) this.rpc.dead = true
    void this.runtime?.engine.stop(0)
    this.hooks.onCrash(this, boundary)
  }

  /** Whether its poll cycle runs in `ledger` (the one being built). */
  pollsAt(ledger: number): boolean {
    return this.alive && (ledger + this.spec.phase) % this.spec.pollLedgers === 0
  }

  /** Starts a poll cycle unless one is still running. */
  poll(): void {
    if (!this.alive || this.runtime === undefined || this.cycle !== undefined) return
    this.cycle = this.runtime.cycle().finally(() => (this.cycle = undefined))
  }

  get cycling(): boolean {
    return this.cycle !== undefined
  }

  /** A ledger closed. */
  observe(l: LedgerInfo): void {
    this.harvestSales()
    if (this.alive) this.clock?.set(l)
  }

  /**
   * Takes the sales of the landed fills its runtime's dashboard folded since the last call. The
   * dashboard keeps its latest 500 records, so this runs after every close (and before a restart
   * replaces the runtime) to miss none.
   */
  private harvestSales(): void {
    const history = this.runtime?.state.history
    if (history === undefined || history.length === 0) return
    const from = this.harvested === undefined ? 0 : history.lastIndexOf(this.harvested) + 1
    for (const r of history.slice(from)) if (r.success && r.sales !== undefined && r.sales.length > 0) this.landedSales.push(r.sales)
    this.harvested = history[history.length - 1]
  }

  fillSales(): readonly FillSales[] {
    this.harvestSales()
    return this.landedSales
  }

  /** Whether the engine holds any execution (planned, due or in flight). */
  busy(): boolean {
    if (!this.alive || this.runtime === undefined) return false
    return this.runtime.engine.executions().some((e) => !['returned', 'lost', 'abandoned'].includes(e.stage))
  }

  /**
   * When all this keeper's engine holds is plans waiting for their ledger: the ledger at which
   * each becomes due (target − the path's fire lead). Null when it holds anything else (due,
   * firing, drawn, filled, swapped). A keeper that is not running holds nothing.
   */
  waitingPlans(): number[] | null {
    if (!this.alive || this.runtime === undefined) return []
    const due: number[] = []
    for (const e of this.runtime.engine.executions()) {
      if (e.stage === 'returned' || e.stage === 'lost' || e.stage === 'abandoned') continue
      if (e.stage !== 'planned') return null
      due.push(e.targetLedger - leadLedgers(e.path))
    }
    return due
  }

  failedTransactions(): FailedTransactions {
    return this.runtime?.state.failedTransactions ?? { total: 0, byReason: {}, feesStroops: 0n }
  }

  finishedCounts(): { returned: number; lost: number; abandoned: number } {
    return this.runtime?.engine.finishedCounts() ?? { returned: 0, lost: 0, abandoned: 0 }
  }

  laneAccounts(): string[] {
    return this.runtime?.lanes.accounts ?? [this.operator]
  }

  async stop(): Promise<void> {
    if (this.runtime && this.alive) await this.runtime.stop(1_000)
    if (this.alive) this.ended()
    this.alive = false
  }
}

/** The keepers' process logs (JSON lines), one file per run. */
export function keeperLogger(file: string): Logger {
  return pino({ level: 'info', base: { service: 'keeper' }, timestamp: false }, createWriteStream(file, { flags: 'w' }))
}

/** A 7-decimal amount as the keeper's settings write USDC ("1234.5000000"). */
function usdcText(units: bigint): string {
  return `${units / 10_000_000n}.${(units % 10_000_000n).toString().padStart(7, '0')}`
}

/** Each keeper's configuration variables: the world's, the scenario's settings, no rebalancing. */
export function keeperEnv(world: World, spec: KeeperSpec, executor: string | undefined): Record<string, string> {
  const { REBALANCE_VAULT: _off, ...env } = world.addresses.env
  return {
    ...env,
    ...(executor === undefined ? {} : { EXECUTOR_CONTRACT: executor }),
    KEEPER_SECRET: world.keepers[spec.index]!.secret(),
    KEEPER_NAME: spec.name,
    API_PORT: '0',
    POLL_INTERVAL: String(spec.pollIntervalSeconds),
    MIN_PROFIT: String(spec.minProfit),
    SLIPPAGE_BPS: String(spec.slippageBps),
    ...(spec.profitBasis === undefined ? {} : { PROFIT_BASIS: spec.profitBasis }),
    CHANNEL_ACCOUNTS: String(spec.channelAccounts),
    ...(spec.bond > 0 ? { KEEPER_BOND: usdcText(usd(spec.bond)) } : {}),
    ...feeEnv(spec.fee),
    ...(spec.crash === undefined ? {} : { FAULT_CRASH_AT: spec.crash.at }),
  }
}
