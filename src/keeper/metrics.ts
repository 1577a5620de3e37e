import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** The keeper's Prometheus metrics, on their own registries (one set per app instance). */
export interface KeeperMetrics {
  /** Every metric: the keeper's own and the Node process's (what GET /metrics serves). */
  registry: Registry
  /** The keeper's own metrics (service_*): cheap to collect, rendered afresh for every scrape. */
  own: Registry
  /**
   * The Node process metrics (prom-client's defaults: process_*, nodejs_*), undefined without
   * them. Their collection reads /proc and lists every open handle, so it grows with the open
   * connections: /metrics reuses one collection for up to a second (routes/metrics.ts).
   */
  process: Registry | undefined
  cyclesTotal: Counter
  liquidationsTotal: Counter
  vaultTvl: Gauge
  sseActive: Gauge
  cycleDuration: Histogram
  cycleOverruns: Counter
  rpcErrors: Counter<'stage'>
  drawsOutstanding: Gauge
  /** Ledgers since this keeper's outstanding draw was taken (0 without a draw). */
  drawOutstandingLedgers: Gauge
  /** Unix time (s) of the last completed poll cycle. */
  lastCycleTimestamp: Gauge
  /** POLL_INTERVAL in seconds, so that alerts can speak in intervals. */
  pollInterval: Gauge
  /** The operator account's XLM balance (it pays the fees); NaN until first read. */
  operatorXlmBalance: Gauge
  /** 1 while the registry lists this keeper, 0 when it does not; NaN until first read. */
  keeperRegistered: Gauge
  /** 1 when the registry marks this keeper slashed, 0 otherwise; NaN until first read. */
  keeperSlashed: Gauge
  tasksTotal: Counter<'adapter' | 'outcome'>
  adapterErrors: Counter<'adapter' | 'stage'>
  profitTotal: Counter
  /** The keeper fees the vault paid this keeper (its reward), USDC. */
  rewardsTotal: Counter
  failedTransactions: Counter<'reason'>
  failedTransactionFees: Counter
  /** XLM charged for the fill transactions of executions that landed (resource fee included). */
  feesPaid: Counter
  /** Fee bumps sent, by what the network answered (accepted, refused). */
  feeBumps: Counter<'outcome'>
  /** sendTransaction answers TRY_AGAIN_LATER (the source account already had one queued): each resend waits for the next ledger. */
  tryAgainLater: Counter
  /** The inclusion fee per operation the last transaction bid (stroops; a fee bump's bid too). */
  feeBid: Gauge
  /** Ledgers from sending an execution's fill transaction to its inclusion (1 = the next ledger). */
  inclusionDelay: Histogram
  /** Full reads of every borrower's positions, by reason (cold, gap, audit, every-scan). */
  poolFullReads: Counter<'reason'>
  /** Cached positions an audit found different from the chain (each one logged, then replaced). */
  poolCacheMismatches: Counter
  /** Borrowers' positions entries read by the scans (full reads and changes). */
  poolPositionsRead: Counter
  /** Per lending pool (LENDING_POOLS): borrowers scanned, those below HF 1, the lowest HF. */
  poolBorrowers: Gauge<'pool'>
  poolLiquidatable: Gauge<'pool'>
  poolLowestHealthFactor: Gauge<'pool'>
  /** Per lending pool: liquidations this process filled, the USDC drawn for them, their gross profit. */
  poolFills: Counter<'pool'>
  poolDrawn: Counter<'pool'>
  poolProfit: Counter<'pool'>
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): KeeperMetrics {
  const own = new Registry()
  const proc = (options.defaultMetrics ?? true) ? new Registry() : undefined
  if (proc !== undefined) collectDefaultMetrics({ register: proc })
  const r = [own]
  const metrics = {
    own,
    process: proc,
    cyclesTotal: new Counter({ name: 'service_cycles_total', help: 'Poll cycles completed.', registers: r }),
    liquidationsTotal: new Counter({
      name: 'service_liquidations_total',
      help: 'Successful liquidation fills (work that is not a liquidation, such as a rebalance, is not counted).',
      registers: r,
    }),
    vaultTvl: new Gauge({ name: 'service_vault_tvl', help: 'Vault total_usdc in USDC (7 decimals applied).', registers: r }),
    sseActive: new Gauge({ name: 'service_sse_active', help: 'Open /api/events streams.', registers: r }),
    cycleDuration: new Histogram({
      name: 'service_cycle_duration_seconds',
      help: 'Wall time of one poll cycle.',
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers: r,
    }),
    cycleOverruns: new Counter({
      name: 'service_cycle_overruns_total',
      help: 'Cycles that took longer than POLL_INTERVAL.',
      registers: r,
    }),
    rpcErrors: new Counter({
      name: 'service_rpc_errors_total',
      help: 'Failed chain calls, by cycle stage.',
      labelNames: ['stage'],
      registers: r,
    }),
    drawsOutstanding: new Gauge({
      name: 'service_draws_outstanding',
      help: "This keeper's outstanding vault draw in USDC (0 or more).",
      registers: r,
    }),
    drawOutstandingLedgers: new Gauge({
      name: 'service_draw_outstanding_ledgers',
      help: "Ledgers since this keeper's outstanding vault draw was taken (0 without a draw).",
      registers: r,
    }),
    lastCycleTimestamp: new Gauge({
      name: 'service_last_cycle_timestamp_seconds',
      help: 'Unix time of the last completed poll cycle (0 before the first).',
      registers: r,
    }),
    pollInterval: new Gauge({
      name: 'service_poll_interval_seconds',
      help: 'The configured POLL_INTERVAL.',
      registers: r,
    }),
    operatorXlmBalance: new Gauge({
      name: 'service_operator_xlm_balance',
      help: "The operator account's XLM balance, reserves included (it pays the keeper's fees); NaN until first read.",
      registers: r,
    }),
    keeperRegistered: new Gauge({
      name: 'service_keeper_registered',
      help: 'Whether the registry lists this keeper (1) or not (0); NaN until the registry is first read.',
      registers: r,
    }),
    keeperSlashed: new Gauge({
      name: 'service_keeper_slashed',
      help: 'Whether the registry marks this keeper slashed (1) or not (0, also when it is not listed); NaN until the registry is first read.',
      registers: r,
    }),
    tasksTotal: new Counter({
      name: 'service_tasks_total',
      help: 'Tasks executed, by adapter and outcome (filled, unfilled, error).',
      labelNames: ['adapter', 'outcome'],
      registers: r,
    }),
    adapterErrors: new Counter({
      name: 'service_adapter_errors_total',
      help: 'Adapter failures, by adapter and stage (get_tasks, execute, positions).',
      labelNames: ['adapter', 'stage'],
      registers: r,
    }),
    profitTotal: new Counter({
      name: 'service_profit_usdc_total',
      help: "Gross profit of this process's executions in USDC (what the depositors booked plus the keeper's fee).",
      registers: r,
    }),
    rewardsTotal: new Counter({
      name: 'service_keeper_rewards_usdc_total',
      help: "The keeper's rewards in USDC: the fees the vault paid this keeper out of its fills' gross profit (keeper_fee_bps; the fee of the vault's flash and closing return events).",
      registers: r,
    }),
    failedTransactions: new Counter({
      name: 'service_failed_transactions_total',
      help: 'Transactions this process tried that failed, refused in simulation or failed on the ledger, by reason (slippage, lost_race, other).',
      labelNames: ['reason'],
      registers: r,
    }),
    failedTransactionFees: new Counter({
      name: 'service_failed_transaction_fees_xlm_total',
      help: 'XLM the network charged for transactions of this process that failed on the ledger.',
      registers: r,
    }),
    feesPaid: new Counter({
      name: 'service_fees_paid_xlm_total',
      help: "XLM the network charged for the fill transactions of this process's executions that landed (inclusion and resource fees).",
      registers: r,
    }),
    feeBumps: new Counter({
      name: 'service_fee_bumps_total',
      help: 'Fee bumps sent for transactions not included within FEE_BUMP_LEDGERS, by outcome (accepted, refused: sendTransaction said so; a bump that got no answer is not counted).',
      labelNames: ['outcome'],
      registers: r,
    }),
    tryAgainLater: new Counter({
      name: 'service_try_again_later_total',
      help: 'sendTransaction answers TRY_AGAIN_LATER: the node queues one transaction per source account, so the envelope is resent after the next ledger.',
      registers: r,
    }),
    feeBid: new Gauge({
      name: 'service_fee_bid_stroops',
      help: 'The inclusion fee per operation the last transaction (or fee bump) bid, in stroops (FEE_STRATEGY within INCLUSION_FEE..MAX_FEE).',
      registers: r,
    }),
    inclusionDelay: new Histogram({
      name: 'service_inclusion_delay_ledgers',
      help: "Ledgers from sending an execution's fill transaction to the ledger that included it (1 = the next ledger).",
      buckets: [1, 2, 3, 4, 5, 6, 8, 10],
      registers: r,
    }),
    poolFullReads: new Counter({
      name: 'service_pool_full_reads_total',
      help: "Full reads of every borrower's positions by the lending-pool scan: reason cold (first scan), gap (events missed), audit (every FULL_SCAN_MINUTES) or every-scan (FULL_SCAN_MINUTES=0).",
      labelNames: ['reason'],
      registers: r,
    }),
    poolCacheMismatches: new Counter({
      name: 'service_pool_cache_mismatches_total',
      help: 'Cached borrower positions an audit found different from the chain, though no pool event named the borrower; each is logged and replaced. Should stay 0.',
      registers: r,
    }),
    poolPositionsRead: new Counter({
      name: 'service_pool_positions_read_total',
      help: "Borrowers' positions entries the lending-pool scans read (full reads, and the borrowers the pool's events named).",
      registers: r,
    }),
    poolBorrowers: new Gauge({ name: 'service_pool_borrowers', help: 'Borrowers the last scan read, per lending pool.', labelNames: ['pool'], registers: r }),
    poolLiquidatable: new Gauge({
      name: 'service_pool_liquidatable',
      help: 'Borrowers below the liquidation threshold (health factor < 1) at the last scan, per lending pool.',
      labelNames: ['pool'],
      registers: r,
    }),
    poolLowestHealthFactor: new Gauge({
      name: 'service_pool_lowest_health_factor',
      help: 'The lowest health factor of a borrower in debt at the last scan, per lending pool (NaN with none).',
      labelNames: ['pool'],
      registers: r,
    }),
    poolFills: new Counter({ name: 'service_pool_fills_total', help: 'Liquidation fills this process landed, per lending pool.', labelNames: ['pool'], registers: r }),
    poolDrawn: new Counter({ name: 'service_pool_drawn_usdc_total', help: 'USDC drawn from the vault for the fills that landed, per lending pool.', labelNames: ['pool'], registers: r }),
    poolProfit: new Counter({
      name: 'service_pool_profit_usdc_total',
      help: 'Gross profit of the fills that landed (the depositors profit plus the keeper fee), per lending pool.',
      labelNames: ['pool'],
      registers: r,
    }),
  }
  // Unknown until the cycle has read them: NaN, so that no `== 0` or `< x` alert fires meanwhile.
  for (const g of [metrics.operatorXlmBalance, metrics.keeperRegistered, metrics.keeperSlashed, metrics.feeBid]) g.set(Number.NaN)
  // Both outcomes from the start, so that a rate over them exists before the first bump.
  for (const outcome of ['accepted', 'refused']) metrics.feeBumps.inc({ outcome }, 0)
  for (const reason of ['cold', 'gap', 'audit', 'every-scan']) metrics.poolFullReads.inc({ reason }, 0)
  // The same metric objects, keeper's first: what registry.metrics() of both would render.
  return { ...metrics, registry: proc === undefined ? own : Registry.merge([own, proc]) }
}

/** 7-decimal stroops to a float for gauges (display only). */
export function toUnits(v: bigint): number {
  return Number(v) / 1e7
}
