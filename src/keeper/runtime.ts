/**
 * A keeper without its HTTP API or timers: registration, submission lanes, adapters, the
 * execution engine and one poll cycle on demand. The daemon (daemon.ts) wraps it with the API
 * and the poll loop; the simulation harness drives it ledger by ledger with its own clock.
 */
import type { rpc } from '@stellar/stellar-sdk'
import type { Logger } from 'pino'
import { ExecutorContract } from './clients/executor.js'
import { executorCycleVault } from './loop/executorVault.js'
import { createChain, nativeBalance, refusingSends, readLedgerTime, type Chain, type LedgerReader, type LedgerTimeReader, type SubmissionLanes } from '../chain/index.js'
import { buildAdapters, builtinAdapterFactories, type AdapterFactories } from './adapters/index.js'
import { startChannelLanes } from './channels.js'
import { RegistryContract, VaultContract, tokenBalance, type VaultConfig } from './clients/index.js'
import type { KeeperConfig } from './config/index.js'
import { redactUrl } from './config/redact.js'
import { safetySwitchesOff } from './config/safety.js'
import { ExecutionEngine, RpcLedgerClock, type LedgerClock, type LedgerSource } from './engine/index.js'
import { recordResult, runCycle, type CycleDeps, type CycleReport } from './loop/index.js'
import { DrawWatch } from './loop/drawWatch.js'
import { BondLimit } from './loop/bondLimit.js'
import { KeeperRegistration, type RegisterOutcome } from './loop/registration.js'
import { createMetrics, type KeeperMetrics } from './metrics.js'
import type { AdapterContext, ProtocolAdapter, StepBoundary } from './sdk/index.js'
import { InFlight } from './inflight.js'
import { DashboardState } from './state/dashboard.js'
import { KeeperFees, type FeeStatsSource } from './fees/index.js'
import { EventLog } from './state/events.js'
import { Readiness, watchedLedgerSource } from './state/readiness.js'
import { ShadowBook } from './state/shadow.js'

/** What the `keeper starting` line says of DRY_RUN=true. */
export const DRY_RUN_WORDS = 'DRY_RUN=true: shadow mode, nothing is sent (no registration, draw, fill or channel account)'

export { REGISTRATION_SKIPPED, registerKeeper, type RegisterOutcome } from './loop/registration.js'

export interface KeeperRuntimeOptions {
  logger: Logger
  factories?: AdapterFactories
  /** Extra adapters run after the configured ones (tests, embedding). */
  extraAdapters?: ProtocolAdapter<any>[]
  /** The chain client (default: one built from the configuration's RPC URL). */
  chain?: Chain
  /** The ledger clock the engine follows (default: getLatestLedger polled every LEDGER_POLL_MS). */
  clock?: LedgerClock
  /** Clock for valuations and swap deadlines (ms; default Date.now). */
  now?: () => number
  /** How a FAULT_CRASH_AT crash ends the keeper (default: SIGKILL to the process). */
  crash?: (boundary: StepBoundary) => void | Promise<void>
  /** Register with the registry at start (default true). */
  register?: boolean
  /**
   * Retry channel accounts that could not be set up at start in the background (default true).
   * A harness that closes ledgers itself turns it off: a retry timed by the wall clock would
   * land in whichever ledger happens to be open.
   */
  retryChannels?: boolean
  /**
   * The network's ledger time (ms) when the caller knows it (the sim: its scenario's). Absent:
   * read from the node at start (src/chain readLedgerTime: scp_timing, else the closes seen).
   */
  ledgerMs?: number
}

export interface KeeperRuntime {
  config: KeeperConfig
  /** The chain client every transaction goes through: the one given (or built) with the fee strategy as its defaults. */
  chain: Chain
  state: DashboardState
  events: EventLog
  metrics: KeeperMetrics
  engine: ExecutionEngine
  /** The fee strategy every transaction of this keeper bids by (FEE_STRATEGY and the rest). */
  fees: KeeperFees
  /** Its submission lanes: the operator, and the channel accounts once they are set up. */
  lanes: SubmissionLanes
  adapters: ProtocolAdapter<any>[]
  /** The address the vault knows this keeper by (the operator, or its executor contract). */
  keeperAddress: string
  /** Registration as it stands now: a failed one is retried at the start of every cycle. */
  readonly registration: RegisterOutcome | 'not attempted'
  /** This keeper's outstanding draw on the API and the metrics. */
  draws: DrawWatch
  /** What /readyz answers: failed cycles in a row (fed by the caller's loop) and the RPC's ledger polls. */
  readiness: Readiness
  /** The ledger time the keeper schedules with (ms): the engine clock's (observed, else the network's). */
  ledgerMs(): number
  /** One poll cycle: registration retry, stale-draw recovery, scan and plan, state refresh. */
  cycle(signal?: AbortSignal): Promise<CycleReport>
  /** Stops the engine (a fire in progress may finish for up to `graceMs`). */
  stop(graceMs?: number): Promise<boolean>
  /**
   * Resolves once everything this runtime started has finished: cycles, the engine's plans and
   * fires (parked ones included) and channel set-ups. A clean shutdown stops, then waits for it.
   */
  idle(): Promise<void>
}

/** Registers, builds lanes, adapters and the engine, and starts the engine on its clock. */
export async function startKeeperRuntime(config: KeeperConfig, opts: KeeperRuntimeOptions): Promise<KeeperRuntime> {
  const { logger } = opts
  const givenChain =
    opts.chain ??
    createChain({ rpcUrl: config.rpcUrl, networkPassphrase: config.networkPassphrase, instructionLeeway: config.instructionLeeway })
  // DRY_RUN: the node client itself refuses every send (after simulation), whatever path asks.
  const baseChain: Chain = config.dryRun ? { ...givenChain, server: refusingSends(givenChain.server) } : givenChain
  const state = new DashboardState()
  const events = new EventLog()
  const metrics = createMetrics()
  const readiness = new Readiness(config.readyFailedCycles)
  // The engine follows the ledger clock; the fee strategy reads getFeeStats once per ledger of it.
  let engine: ExecutionEngine | undefined
  const fees = new KeeperFees({
    settings: { inclusionFee: config.inclusionFee, feeStrategy: config.feeStrategy, maxFee: config.maxFee, feeBumpLedgers: config.feeBumpLedgers },
    server: baseChain.server as FeeStatsSource,
    latestLedger: () => engine?.ledger ?? 0,
    logger: logger.child({ component: 'fees' }),
    metrics,
  })
  // How long a ledger takes on this network; the engine's clock refines it from the closes it sees.
  const ledgerTime =
    opts.ledgerMs !== undefined
      ? { ms: opts.ledgerMs, source: 'given' }
      : await readLedgerTime(baseChain.server as unknown as LedgerTimeReader, (err) => {
          logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'ledger time read failed')
        })
  logger.info({ ledgerMs: ledgerTime.ms, source: ledgerTime.source }, 'ledger time')
  // Every transaction of this keeper bids by the strategy: fills through `fillFee`, the rest
  // through the chain's defaults. The caller's Chain is left as it is.
  const chain: Chain = {
    ...baseChain,
    inclusionFee: config.inclusionFee,
    fees: fees.chainFees(),
    ledgerMs: ledgerTime.ms,
    // The node queues one transaction per source account; the chain client resends after the next ledger.
    onTryAgainLater: (refusal) => {
      metrics.tryAgainLater.inc()
      logger.info({ tx: refusal.hash, latestLedger: refusal.latestLedger ?? null, tries: refusal.tries }, 'network answered TRY_AGAIN_LATER: resending after the next ledger')
      baseChain.onTryAgainLater?.(refusal)
    },
  }
  const vault = new VaultContract(chain, config.vaultContract)
  const registry = new RegistryContract(chain, config.registryContract)
  // The registered keeper: the operator, or its executor contract (atomic path).
  const executor = config.executorContract === undefined ? undefined : new ExecutorContract(chain, config.executorContract)
  const keeperAddress = executor?.contractId ?? config.operator
  const keeperVault = executor === undefined ? vault : executorCycleVault(vault, executor)
  // The registry's bond limit on this keeper's two-step draws (read at most once per ledger).
  const bond = new BondLimit({
    getKeeper: (operator) => registry.getKeeper(operator),
    keeperAddress,
    latestLedger: () => engine?.ledger ?? 0,
    logger: logger.child({ component: 'bond' }),
  })
  state.operator = config.operator
  state.keeperName = config.keeperName
  state.mode = config.lendingPools.length > 0 ? 'liquidating' : 'monitor-only'
  state.lendingPools = [...config.lendingPools]
  let vaultConfig: VaultConfig | undefined
  // DRY_RUN: the would-fills' books (service_shadow_*, `shadow` on /api/state).
  if (config.dryRun) state.shadow = new ShadowBook(metrics.own, () => vaultConfig?.keeperFeeBps)
  metrics.pollInterval.set(config.pollIntervalSeconds)

  logger.info(
    {
      operator: config.operator,
      name: config.keeperName,
      mode: state.mode,
      rpc: redactUrl(config.rpcUrl),
      historyRpc: config.historyApiUrl === undefined ? null : redactUrl(config.historyApiUrl),
      vault: config.vaultContract,
      registry: config.registryContract,
      lendingPools: config.lendingPools,
      executor: config.executorContract ?? null,
      pollIntervalSeconds: config.pollIntervalSeconds,
      feeStrategy: fees.strategyText,
      inclusionFee: config.inclusionFee,
      maxFee: config.maxFee,
      feeBumpLedgers: config.feeBumpLedgers,
      api: { host: config.apiHost, port: config.apiPort, cors: config.apiCorsOrigins, token: config.apiToken !== undefined },
      off: safetySwitchesOff(config),
      ...(config.dryRun ? { dryRun: DRY_RUN_WORDS } : {}),
    },
    'keeper starting',
  )
  events.push('lifecycle', `keeper ${config.keeperName} starting (${state.mode}${config.dryRun ? ', DRY_RUN: nothing is sent' : ''})`)

  // A wrong passphrase makes every signature invalid: say so before the first transaction.
  try {
    const network = await (chain.server as Partial<Pick<rpc.Server, 'getNetwork'>>).getNetwork?.()
    if (network !== undefined && network.passphrase !== config.networkPassphrase) {
      logger.error(
        { expected: config.networkPassphrase, rpc: network.passphrase },
        'NETWORK_PASSPHRASE does not match the RPC network: transactions will be rejected',
      )
      events.push('error', 'NETWORK_PASSPHRASE does not match the RPC network')
    }
  } catch (err) {
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'RPC getNetwork failed')
  }

  // The atomic path is the vault's flash draw: only an executor the registry deployed, for the
  // configured vault, may take one. Said once at start; never fatal.
  if (executor !== undefined) await checkExecutor(executor, registry, config.vaultContract, logger, events)

  // 3. registration (retried by each cycle while it fails)
  const registration = new KeeperRegistration({ registry, config, logger, events, executor }, (outcome) => {
    state.registration = outcome
  })
  // A dry run registers nothing and needs no stake.
  const registers = opts.register !== false && !config.dryRun
  if (registers) await registration.start()

  // 4. adapters, with the channel accounts as extra submission lanes (retried in the background
  // when they cannot be set up now, and added to the same lanes once they can)
  const channels = await startChannelLanes({
    chain,
    operator: config.keypair,
    count: config.dryRun ? 0 : config.channelAccounts,
    logger,
    onReady: (size) => events.push('lifecycle', `channel accounts ready: ${size} submission lanes`),
    retry: opts.retryChannels ?? true,
  })
  const lanes = channels.lanes
  const ctx: AdapterContext = {
    chain,
    keypair: config.keypair,
    lanes,
    logger: logger.child({ component: 'adapter' }),
    vaultContract: config.vaultContract,
    registryContract: config.registryContract,
    usdcContract: config.usdcContract,
    executorContract: config.executorContract,
    lendingPool: config.lendingPools[0],
    lendingPools: config.lendingPools,
    minProfit: config.minProfit,
    slippageBps: config.slippageBps,
    profitBasis: config.profitBasis,
    cometPools: config.cometPools,
    primaryDexRouter: config.primaryDexRouter,
    fallbackDexRouter: config.fallbackDexRouter,
    rebalanceVault: config.rebalanceVault,
    rebalanceDriftBps: config.rebalanceDriftBps,
    historyApiUrl: config.historyApiUrl,
    watchAddresses: config.watchAddresses,
    borrowerHintsFile: config.borrowerHintsFile,
    fullScanMinutes: config.fullScanMinutes,
    metrics: {
      poolFullRead: (reason) => metrics.poolFullReads.inc({ reason }),
      poolCacheMismatches: (count) => metrics.poolCacheMismatches.inc(count),
      poolPositionsRead: (count) => metrics.poolPositionsRead.inc(count),
    },
    emit: (kind, message, data) => {
      events.push(kind, message, data)
    },
    fillFee: (input) => fees.fill(input),
    drawLimit: () => bond.limit(),
    ...(opts.now === undefined ? {} : { now: opts.now }),
  }
  let built: ProtocolAdapter<any>[]
  try {
    built = await buildAdapters(ctx, opts.factories ?? builtinAdapterFactories)
  } catch (err) {
    channels.stop()
    throw err
  }
  const adapters = [...built, ...(opts.extraAdapters ?? [])]

  // 5. the execution engine, driven by ledger closes
  const clock =
    opts.clock ??
    new RpcLedgerClock(watchedLedgerSource(chain.server as unknown as LedgerSource, readiness), config.ledgerPollMs, (err) => {
      metrics.rpcErrors.inc({ stage: 'ledger_clock' })
      logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'ledger poll failed')
    })
  clock.setNetworkMs(ledgerTime.ms)
  const engineLogger = logger.child({ component: 'engine' })
  // The draw watch ages draws on the engine's ledger clock; the engine reports its draws to it.
  const draws = new DrawWatch({
    state,
    metrics,
    chain,
    vaultContract: config.vaultContract,
    keeperAddress,
    readDraw: (keeper) => vault.getKeeperDraw(keeper),
    latestLedger: () => engine?.ledger ?? 0,
  })
  const theEngine = new ExecutionEngine({
    chain,
    keypair: config.keypair,
    // Every draw through the engine's vault client is two-step: within the bond limit, or refused before it is sent.
    vault: draws.wrap(bond.guard(keeperVault.bind(config.keypair))),
    limits: async () => {
      const [s, c, bondLimit] = await Promise.all([vault.getState(), vaultConfig ?? vault.getConfig(), bond.limit()])
      vaultConfig = c
      return { idle: s.totalUsdc - s.activeLiq, maxDraw: c.maxDrawPerKeeper, bondLimit }
    },
    clock,
    logger: engineLogger,
    emit: (kind, message, data) => {
      events.push(kind, message, data)
    },
    onResult: (execution, result) => recordResult({ state, metrics, logger: engineLogger, events }, execution.adapter, execution.label, result, execution.pool),
    onError: (adapter, stage) => metrics.adapterErrors.inc({ adapter, stage }),
    crashAt: config.crashAt,
    ...(opts.crash === undefined ? {} : { crash: opts.crash }),
    ...(state.shadow === null ? {} : { dryRun: state.shadow }),
  })
  engine = theEngine
  theEngine.start()
  let seenLedger = 0
  const unsubscribeDraws = clock.subscribe((l) => {
    seenLedger = l.sequence
    draws.onLedger(l.sequence)
    chain.ledgerMs = clock.ledgerMs()
  })
  // Transaction results are looked for as soon as the clock sees a ledger close (a harness's own
  // clock keeps the chain client's timed polls).
  // Before the first ledger is seen there is no "next" one: the timed poll alone.
  const untilAborted = (signal: AbortSignal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
  if (opts.clock === undefined) chain.nextClose = (signal) => (seenLedger === 0 ? untilAborted(signal) : clock.waitFor(seenLedger + 1, signal))
  // A fill bounded to a ledger that closed while it waited for a lane is given up before any request.
  chain.latestLedger = () => (seenLedger === 0 ? undefined : seenLedger)
  const work = new InFlight()
  const usdc = config.usdcContract
  const ledgerReader = chain.server as Partial<LedgerReader>
  const deps: CycleDeps = {
    engine: theEngine,
    keeperAddress,
    chain,
    keypair: config.keypair,
    vault: keeperVault,
    registry,
    // Stale-draw recovery returns draws: not in a dry run.
    usdcBalance: usdc && !config.dryRun ? (holder) => tokenBalance(chain, usdc, holder) : undefined,
    ...(typeof ledgerReader.getLedgerEntries === 'function' ? { xlmBalance: (account: string) => nativeBalance(ledgerReader as LedgerReader, account) } : {}),
    adapters,
    knownDepositors: config.knownDepositors,
    state,
    events,
    metrics,
    logger: logger.child({ component: 'cycle' }),
    draws,
    ...(registers ? { registration } : {}),
  }
  return {
    config,
    chain,
    state,
    events,
    metrics,
    engine: theEngine,
    fees,
    lanes,
    adapters,
    keeperAddress,
    get registration() {
      return registration.outcome
    },
    draws,
    readiness,
    ledgerMs: () => clock.ledgerMs(),
    cycle: (signal) => {
      state.cycles.lastStartedAt = new Date().toISOString()
      return work.track(runCycle(deps, signal))
    },
    stop: (graceMs) => {
      channels.stop()
      unsubscribeDraws()
      return theEngine.stop(graceMs)
    },
    idle: async () => {
      await Promise.all([work.idle(), theEngine.drained(), channels.idle()])
    },
  }
}

/**
 * Warns when the executor cannot take the vault's flash draws: deployed for another vault (its
 * `on_flash` accepts only its own), or not deployed by the registry from its approved code
 * (`flash_draw` refuses it: NotApprovedExecutor, #122). A read that fails says nothing.
 */
async function checkExecutor(executor: ExecutorContract, registry: RegistryContract, vault: string, logger: Logger, events: EventLog): Promise<void> {
  try {
    const [own, approved] = await Promise.all([executor.vault(), registry.isExecutor(executor.contractId)])
    if (own !== vault) {
      logger.error({ executor: executor.contractId, executorVault: own, vault }, 'EXECUTOR_CONTRACT was deployed for another vault: its flash draws will fail')
      events.push('error', `executor ${executor.contractId} belongs to vault ${own}, not ${vault}`)
    }
    if (!approved) {
      logger.error({ executor: executor.contractId, registry: registry.contractId }, 'EXECUTOR_CONTRACT was not deployed by the registry: flash draws will be refused (NotApprovedExecutor)')
      events.push('error', `executor ${executor.contractId} was not deployed by the registry: deploy one with deploy_executor`)
    }
  } catch (err) {
    logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'executor check skipped (read failed)')
  }
}
