/**
 * A keeper without its HTTP API or timers: registration, submission lanes, adapters, the
 * execution engine and one poll cycle on demand. The daemon (daemon.ts) wraps it with the API
 * and the poll loop; the simulation harness drives it ledger by ledger with its own clock.
 */
import type { rpc } from '@stellar/stellar-sdk'
import type { Logger } from 'pino'
import { ExecutorContract } from './clients/executor.js'
import { executorCycleVault } from './loop/executorVault.js'
import { ContractError, SubmissionLanes, channelKeypairs, createChain, ensureChannels, type Chain } from '../chain/index.js'
import { buildAdapters, builtinAdapterFactories, type AdapterFactories } from './adapters/index.js'
import { RegistryContract, RegistryErrorCode, VaultContract, tokenBalance, type VaultConfig } from './clients/index.js'
import type { KeeperConfig } from './config/index.js'
import { ExecutionEngine, RpcLedgerClock, type LedgerClock, type LedgerSource } from './engine/index.js'
import { recordResult, runCycle, type CycleDeps, type CycleReport } from './loop/index.js'
import { createMetrics, type KeeperMetrics } from './metrics.js'
import type { AdapterContext, ProtocolAdapter, StepBoundary } from './sdk/index.js'
import { DashboardState } from './state/dashboard.js'
import { EventLog } from './state/events.js'

/** Exact warning logged when register() reports AlreadyRegistered. */
export const REGISTRATION_SKIPPED = 'registration skipped (may already be registered)'

export type RegisterOutcome = 'registered' | 'skipped' | 'failed'

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
}

export interface KeeperRuntime {
  config: KeeperConfig
  chain: Chain
  state: DashboardState
  events: EventLog
  metrics: KeeperMetrics
  engine: ExecutionEngine
  adapters: ProtocolAdapter<any>[]
  /** The address the vault knows this keeper by (the operator, or its executor contract). */
  keeperAddress: string
  registration: RegisterOutcome | 'not attempted'
  /** One poll cycle: stale-draw recovery, scan and plan, state refresh. */
  cycle(signal?: AbortSignal): Promise<CycleReport>
  /** Stops the engine (a fire in progress may finish for up to `graceMs`). */
  stop(graceMs?: number): Promise<boolean>
}

/**
 * Startup step 3: register, never fatal. With an executor contract, the executor is what gets
 * registered (the operator's stake goes through it).
 */
export async function registerKeeper(
  registry: RegistryContract,
  config: KeeperConfig,
  logger: Logger,
  events: EventLog,
  executor?: ExecutorContract,
): Promise<RegisterOutcome> {
  try {
    const hash =
      executor === undefined
        ? await registry.register(config.keypair, config.keeperName)
        : await executor.register(config.keypair, registry.contractId, config.keeperName)
    logger.info({ operator: config.operator, keeper: executor?.contractId ?? config.operator, name: config.keeperName, tx: hash }, 'registered with the keeper registry')
    events.push('register', `registered ${config.keeperName}`, { tx: hash })
    return 'registered'
  } catch (err) {
    if (err instanceof ContractError && err.code === RegistryErrorCode.AlreadyRegistered) {
      logger.warn({ operator: config.operator, code: err.code }, REGISTRATION_SKIPPED)
      events.push('register', REGISTRATION_SKIPPED)
      return 'skipped'
    }
    const info = err instanceof ContractError ? { code: err.code, err: err.message } : { err: String((err as Error)?.message ?? err) }
    logger.warn({ operator: config.operator, ...info }, 'registration failed (continuing unregistered)')
    events.push('register', `registration failed: ${info.err}`)
    return 'failed'
  }
}

/**
 * The operator's channel accounts (CHANNEL_ACCOUNTS), created from the operator's XLM when
 * missing. Never fatal: without them every transaction goes from the operator, one per ledger.
 */
async function channelLanes(chain: Chain, config: KeeperConfig, logger: Logger): Promise<SubmissionLanes> {
  const channels = channelKeypairs(config.keypair, config.channelAccounts)
  if (channels.length === 0) return new SubmissionLanes(config.keypair)
  try {
    const created = await ensureChannels(chain, config.keypair, channels)
    logger.info({ channels: channels.length, created: created.length }, 'channel accounts ready')
    return new SubmissionLanes(config.keypair, channels)
  } catch (err) {
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'channel accounts unavailable: sending everything from the operator')
    return new SubmissionLanes(config.keypair)
  }
}

/** Registers, builds lanes, adapters and the engine, and starts the engine on its clock. */
export async function startKeeperRuntime(config: KeeperConfig, opts: KeeperRuntimeOptions): Promise<KeeperRuntime> {
  const { logger } = opts
  const chain =
    opts.chain ??
    createChain({ rpcUrl: config.rpcUrl, networkPassphrase: config.networkPassphrase, instructionLeeway: config.instructionLeeway })
  const state = new DashboardState()
  const events = new EventLog()
  const metrics = createMetrics()
  const vault = new VaultContract(chain, config.vaultContract)
  const registry = new RegistryContract(chain, config.registryContract)
  // The registered keeper: the operator, or its executor contract (atomic path).
  const executor = config.executorContract === undefined ? undefined : new ExecutorContract(chain, config.executorContract)
  const keeperAddress = executor?.contractId ?? config.operator
  const keeperVault = executor === undefined ? vault : executorCycleVault(vault, executor)
  state.operator = config.operator
  state.keeperName = config.keeperName
  state.mode = config.lendingPool ? 'liquidating' : 'monitor-only'

  logger.info(
    {
      operator: config.operator,
      name: config.keeperName,
      mode: state.mode,
      rpc: config.rpcUrl,
      vault: config.vaultContract,
      registry: config.registryContract,
      lendingPool: config.lendingPool ?? null,
      executor: config.executorContract ?? null,
      pollIntervalSeconds: config.pollIntervalSeconds,
    },
    'keeper starting',
  )
  events.push('lifecycle', `keeper ${config.keeperName} starting (${state.mode})`)

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

  // 3. registration
  const registration = opts.register === false ? 'not attempted' : await registerKeeper(registry, config, logger, events, executor)

  // 4. adapters, with the channel accounts as extra submission lanes
  const lanes = await channelLanes(chain, config, logger)
  const ctx: AdapterContext = {
    chain,
    keypair: config.keypair,
    lanes,
    logger: logger.child({ component: 'adapter' }),
    vaultContract: config.vaultContract,
    registryContract: config.registryContract,
    usdcContract: config.usdcContract,
    executorContract: config.executorContract,
    lendingPool: config.lendingPool,
    minProfit: config.minProfit,
    slippageBps: config.slippageBps,
    primaryDexRouter: config.primaryDexRouter,
    fallbackDexRouter: config.fallbackDexRouter,
    rebalanceVault: config.rebalanceVault,
    rebalanceDriftBps: config.rebalanceDriftBps,
    historyApiUrl: config.historyApiUrl,
    watchAddresses: config.watchAddresses,
    borrowerHintsFile: config.borrowerHintsFile,
    emit: (kind, message, data) => {
      events.push(kind, message, data)
    },
    ...(opts.now === undefined ? {} : { now: opts.now }),
  }
  const adapters = [...(await buildAdapters(ctx, opts.factories ?? builtinAdapterFactories)), ...(opts.extraAdapters ?? [])]

  // 5. the execution engine, driven by ledger closes
  const clock =
    opts.clock ??
    new RpcLedgerClock(chain.server as unknown as LedgerSource, config.ledgerPollMs, (err) => {
      metrics.rpcErrors.inc({ stage: 'ledger_clock' })
      logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'ledger poll failed')
    })
  const engineLogger = logger.child({ component: 'engine' })
  let vaultConfig: VaultConfig | undefined
  const engine = new ExecutionEngine({
    chain,
    keypair: config.keypair,
    vault: keeperVault.bind(config.keypair),
    limits: async () => {
      const [s, c] = await Promise.all([vault.getState(), vaultConfig ?? vault.getConfig()])
      vaultConfig = c
      return { idle: s.totalUsdc - s.activeLiq, maxDraw: c.maxDrawPerKeeper }
    },
    clock,
    logger: engineLogger,
    emit: (kind, message, data) => {
      events.push(kind, message, data)
    },
    onResult: (execution, result) => recordResult({ state, metrics, logger: engineLogger, events }, execution.adapter, execution.label, result),
    onError: (adapter, stage) => metrics.adapterErrors.inc({ adapter, stage }),
    crashAt: config.crashAt,
    ...(opts.crash === undefined ? {} : { crash: opts.crash }),
  })
  engine.start()
  const usdc = config.usdcContract
  const deps: CycleDeps = {
    engine,
    keeperAddress,
    chain,
    keypair: config.keypair,
    vault: keeperVault,
    registry,
    usdcBalance: usdc ? (holder) => tokenBalance(chain, usdc, holder) : undefined,
    adapters,
    knownDepositors: config.knownDepositors,
    state,
    events,
    metrics,
    logger: logger.child({ component: 'cycle' }),
  }
  return {
    config,
    chain,
    state,
    events,
    metrics,
    engine,
    adapters,
    keeperAddress,
    registration,
    cycle: (signal) => {
      state.cycles.lastStartedAt = new Date().toISOString()
      return runCycle(deps, signal)
    },
    stop: (graceMs) => engine.stop(graceMs),
  }
}
