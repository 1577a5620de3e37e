import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain, SubmissionLanes, SubmitOptions } from '../../chain/index.js'

/**
 * One unit of work an adapter found: a liquidation to fill, a drift to rebalance, ...
 *
 * `D` is the adapter's own payload; the loop never looks inside it.
 */
export interface Task<D = unknown> {
  /** 0–10, higher runs first (see `taskPriority` for the health-factor map). */
  priority: number
  /** Health factor of the position behind the task (1.0 = liquidation threshold), when it has one. */
  health?: number
  /** Estimated profit in USDC stroops (7 decimals). */
  estProfit: bigint
  /** Short label for logs and the event stream (e.g. the borrower address). */
  label?: string
  data: D
}

/**
 * What executing a task did. `profit` is always `max(0, proceeds - drew)`: the gross profit, of
 * which the vault pays the keeper its fee (`reward`) and books the rest for the depositors.
 */
export interface Result {
  /** USDC drawn from the vault (7 decimals). */
  drew: bigint
  /** USDC handed back to the vault with return_proceeds (7 decimals). */
  proceeds: bigint
  profit: bigint
  /** Milliseconds from the start of execution until the proceeds were returned. */
  responseTimeMs: number
  /** False when the task ended without a fill (lost a race, slippage, ...); default true. */
  success?: boolean
  /** Hash of the transaction that did the work, when there was one. */
  txHash?: string
  /** One-line outcome for the event stream. */
  note?: string
  /** True when the work was gone before this keeper could do it (another keeper filled first). */
  lost?: boolean
  /**
   * The typed error behind an unsuccessful result, when the adapter has one (e.g. the Blend
   * adapter's `ErrAlreadyFilled` for a lost race); `note` stays its one-line text. The engine
   * keeps it on the execution, and the log, the event stream and `/api/state` name it
   * (`error.name`, `error.code`).
   */
  error?: Error
  /**
   * Whether this work was a liquidation (counted by `service_liquidations_total` when it
   * succeeds); default true. Work that is not a liquidation, such as a rebalance, sets false.
   */
  liquidation?: boolean
  /**
   * Set when the work tried to send a transaction that failed: refused in simulation (nothing
   * sent, `feeCharged` 0) or applied and failed (the fee the network charged, stroops). `reason`
   * groups it for `service_failed_transactions_total{reason}`: `slippage` (the sale would pay
   * less than its floor, or less than the draw), `lost_race` (the work was gone by the time the
   * transaction ran), `other`.
   */
  failedTransaction?: { reason: string; feeCharged: bigint }
  /**
   * The sales a landed fill made, when its adapter planned them: per swap the asset sold, the
   * route's name (`primary`, `fallback`, `primary via <asset>`, `comet <pool>`), the amount sold
   * (0: the balance left after the asset's other parts) and its floor.
   */
  sales?: { asset: string; route: string; amountIn: bigint; minOut: bigint }[]
  /**
   * The fee of the transaction that did the work (the fill), when it landed: what it bid, what
   * the network charged, whether a fee bump of it is what landed, and the ledgers it was sent at
   * and included in (`executionFee(submitResult)` builds it). `/api/state` shows it per execution.
   */
  fee?: ExecutionFee
  /**
   * The keeper's reward for this work: the fee the vault paid the registered keeper out of the
   * gross profit (`keeper_fee_bps`; the `fee` of the vault's `flash` or closing `return` event),
   * USDC 7 decimals. The engine fills it in from the returns made through its vault client when
   * the adapter leaves it out.
   */
  reward?: bigint
}

/** The fee of an execution's fill transaction (see `Result.fee`). */
export interface ExecutionFee {
  /** Inclusion fee bid per operation of what landed (the fee bump's bid when it did), stroops. */
  bidStroops: number
  /** What the network charged for it (inclusion at the ledger's rate + resource fee - refund), stroops; null when unknown. */
  chargedStroops: bigint | null
  /** True when a fee bump of the transaction is what landed. */
  bumped: boolean
  /** Latest ledger when the transaction was sent (it could land in the next); null when unknown. */
  sentLedger: number | null
  /** Ledger that included it. */
  includedLedger: number
}

/** What a fill's fee bid is made from (see `AdapterContext.fillFee`). */
export interface FillFeeInput {
  /** The execution's expected profit in USDC (7 decimals), when the adapter knows it. */
  expectedProfit?: bigint | undefined
  /**
   * The price of one XLM in USDC (7 decimals), when the adapter knows it (e.g. from the pool's
   * oracle), or a function reading it (called only when the strategy needs it: `profit:BPS`).
   */
  xlmPrice?: bigint | (() => Promise<bigint | undefined>) | undefined
}

/** The submission options that make a transaction bid by the keeper's fee strategy. */
export type FillSubmitOptions = Pick<SubmitOptions, 'inclusionFee' | 'feeBump'>

/** The vault as an adapter sees it: bound to the keeper's own key. */
export interface VaultClient {
  /** vault.draw(keeper, amount): moves `amount` USDC from the vault to the keeper. */
  draw(amount: bigint): Promise<void>
  /**
   * vault.return_proceeds(keeper, amount, responseTimeMs): hands `amount` USDC back and clears
   * the draw. Returns the profit the vault booked.
   */
  returnProceeds(amount: bigint, responseTimeMs: number): Promise<bigint>
  /**
   * The same return, also saying what it paid the keeper: `profit` booked for the depositors and
   * the keeper's `fee` (the vault's `return` event). The keeper's own vault clients have it; the
   * engine counts each fee as the execution's reward.
   */
  returnProceedsWithFee?(amount: bigint, responseTimeMs: number): Promise<{ profit: bigint; fee: bigint }>
}

/** A position the adapter watches, for the dashboard (`/api/state`). */
export interface Position {
  protocol: string
  /** The lending pool the position is in, when the protocol has several (Blend pools). */
  pool?: string
  user: string
  /** Health factor as a float (1.0 = liquidation threshold); null when the user has no debt. */
  healthFactor: number | null
  /** Collateral and liabilities in the oracle's base currency, 7 decimals, when known. */
  collateralBase?: bigint
  liabilityBase?: bigint
}

/**
 * A protocol the keeper works on. The loop calls, each cycle and in order:
 * `getTasks` once, then `execute` for each task (highest priority first). Errors thrown by
 * either are logged and skipped: they never stop the cycle.
 */
export interface ProtocolAdapter<D = unknown> {
  /** Stable short name (metrics label, logs). */
  name(): string
  /**
   * The lending pool this adapter works on, when it works on one (optional): the engine keeps
   * the plans of different pools apart by it, and per-pool figures (/api/state, the `pool`
   * metrics label) are keyed by it.
   */
  pool?(): string
  /** Finds the work available now. Read-only: must not submit transactions. */
  getTasks(rpc: Chain): Promise<Task<D>[]>
  /**
   * Does one task. Capital comes from `vault.draw` and must go back through
   * `vault.returnProceeds` before returning (a draw left outstanding is recovered by the next
   * cycle's stale-draw step and can get the keeper slashed).
   */
  execute(rpc: Chain, keypair: Keypair, task: Task<D>, vault: VaultClient): Promise<Result>
  /** USDC (7 decimals) the task needs to draw; 0 when it needs none. */
  estimateCapital(task: Task<D>): bigint
  /** Positions for the dashboard, refreshed at the end of each cycle (optional). */
  getPositions?(rpc: Chain): Promise<Position[]>
  /**
   * Stale-draw recovery (optional): turn whatever the keeper holds of this protocol's assets
   * (collateral seized before a crash) into USDC. Returns what was sold and what is still held.
   */
  sellHeld?(rpc: Chain, keypair: Keypair): Promise<{ sold: string[]; held: string[] }>
}

/** Structured log sink handed to adapters (pino-compatible subset). */
export interface AdapterLogger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
  debug(obj: object, msg?: string): void
}

/** Everything a factory may need to build an adapter from the keeper's configuration. */
/** What an adapter may count in the keeper's metrics. */
export interface AdapterMetrics {
  /** A full read of the pool's borrowers, and why (cold, gap, audit, every-scan). */
  poolFullRead(reason: string): void
  /** Cached positions a full read found different (each logged too). */
  poolCacheMismatches(count: number): void
  /** Positions entries a scan read (full or changes only). */
  poolPositionsRead(count: number): void
}

export interface AdapterContext {
  chain: Chain
  keypair: Keypair
  /**
   * Source accounts to send independent transactions from in parallel (the operator and its
   * channel accounts); absent: everything goes from `keypair`, one transaction per ledger.
   */
  lanes?: SubmissionLanes
  logger: AdapterLogger
  /** Vault and registry contract ids. */
  vaultContract: string
  registryContract: string
  /** USDC token contract (SAC); undefined when not configured. */
  usdcContract: string | undefined
  /**
   * The keeper's executor contract when it is the registered keeper (atomic path); undefined:
   * the operator is the registered keeper and liquidations take the two-step path.
   */
  executorContract?: string | undefined
  /**
   * The lending pool a lending-pool factory builds for; undefined in vault-monitor-only mode.
   * A keeper with several pools (LENDING_POOLS) calls the factory once per pool, each time with
   * this set to that pool (`buildAdapters`).
   */
  lendingPool: string | undefined
  /** Every lending pool the keeper watches, in its configured order (default: `lendingPool` alone). */
  lendingPools?: readonly string[]
  /**
   * State the adapters of one keeper share, by name (one map per keeper): the lending-pool
   * adapters of several pools keep one book of the DEX depth their fills take in it, so fills in
   * two pools landing together do not both count on the same depth.
   */
  shared?: Map<string, unknown>
  /** Minimum lot value / bid cost ratio to fill (e.g. 1.02). */
  minProfit: number
  slippageBps: number
  /** What MIN_PROFIT is asked of (PROFIT_BASIS; default oracle). */
  profitBasis?: 'oracle' | 'executable'
  /** Comet weighted pools to sell into (COMET_POOLS). */
  cometPools?: readonly string[]
  primaryDexRouter: string | undefined
  fallbackDexRouter: string | undefined
  rebalanceVault: string | undefined
  rebalanceDriftBps: number
  /**
   * A Stellar RPC with a longer event history than `chain` (HISTORY_API_URL): discovery backfills
   * from it what the main RPC's retention window no longer holds.
   */
  historyApiUrl?: string | undefined
  /** Borrowers always scanned, whatever the events say (WATCH_ADDRESSES). */
  watchAddresses?: string[]
  /** File of known borrowers, one address per line, read at start and appended to (BORROWER_HINTS_FILE). */
  borrowerHintsFile?: string | undefined
  /**
   * Minutes between full reads of every borrower (FULL_SCAN_MINUTES, default 10): a lending-pool
   * adapter that keeps positions between scans checks its cache then. 0: every scan reads all.
   */
  fullScanMinutes?: number
  /** The keeper's counters for what adapters report (full reads of the pool, cache mismatches). */
  metrics?: AdapterMetrics
  /** Tells the event stream about something worth showing (scans, fills...). */
  emit(kind: string, message: string, data?: Record<string, unknown>): void
  /**
   * The clock valuations and swap deadlines use (ms since the epoch; default `Date.now`). A
   * simulation on a virtual ledger clock passes that clock.
   */
  now?: () => number
  /**
   * The submission options of a fill transaction under the keeper's fee strategy (FEE_STRATEGY,
   * INCLUSION_FEE, MAX_FEE, FEE_BUMP_LEDGERS): its inclusion fee from the expected profit and
   * the XLM price, and the fee-bump policy. Absent: the chain's defaults. Every other
   * transaction bids the chain's defaults (`chain.fees`), which follow the strategy too.
   */
  fillFee?: (input: FillFeeInput) => Promise<FillSubmitOptions>
  /**
   * The most a new two-step draw of this keeper may be: the registry's bond limit on it (the
   * keeper's `draw_limit`, what its stake backs; a draw above it is refused with BondTooSmall).
   * Adapters size two-step work within it or skip it; a flash draw is not bound by it. Resolves
   * undefined when unknown (not registered yet). Absent: no limit known.
   */
  drawLimit?: () => Promise<bigint | undefined>
}

/**
 * Builds an adapter from the keeper's configuration. The lending-pool adapter module exports
 * `createLendingPoolAdapter: AdapterFactory` (src/keeper/adapters/blend/index.ts), the
 * rebalancing one `createRebalanceAdapter: AdapterFactory` (src/keeper/adapters/rebalance/index.ts);
 * each builds its own DEX client from `primaryDexRouter` / `fallbackDexRouter` when one is set.
 */
export type AdapterFactory = (ctx: AdapterContext) => ProtocolAdapter<any> | Promise<ProtocolAdapter<any>>
