import type { FastifyPluginAsync } from 'fastify'

const amount = { type: 'string', pattern: '^-?[0-9]+$', description: 'integer amount with 7 implied decimals (USDC stroops)' }
const nullableAmount = { ...amount, nullable: true }

const vault = {
  type: 'object',
  nullable: true,
  description: 'vault.get_state() as last read; null until the first successful read',
  required: ['totalUsdc', 'totalShares', 'totalProfit', 'activeLiq', 'sharePrice'],
  properties: {
    totalUsdc: amount,
    totalShares: amount,
    totalProfit: amount,
    activeLiq: amount,
    sharePrice: { ...nullableAmount, description: 'USDC per share, 7 decimals (10000000 = 1.0), on the free assets: total_usdc less the profit still locked at the time of the request' },
    lockedProfit: { ...nullableAmount, description: 'booked profit not yet in the share price (it unlocks linearly until lockEnd)' },
    lockEnd: { type: 'string', description: 'when the locked profit is fully unlocked (ISO-8601)' },
    pendingShares: { ...amount, description: "shares depositors asked to withdraw: two-step draws may not take the USDC they need" },
  },
}

const keeper = {
  type: 'object',
  description: 'registry.get_keeper() of one keeper',
  properties: {
    operator: { type: 'string' },
    name: { type: 'string' },
    stake: amount,
    totalExecutions: { type: 'integer' },
    successfulFills: { type: 'integer' },
    totalProfit: amount,
    avgResponseTimeMs: { type: 'number' },
    hasActiveDraw: { type: 'boolean' },
    drawAmount: amount,
    drawTimestamp: { type: 'integer', description: 'ledger time (s) of the outstanding draw, 0 when none' },
    registeredAt: { type: 'integer' },
    slashed: { type: 'boolean' },
    slashCount: { type: 'integer' },
    totalSlashed: amount,
    approved: { type: 'boolean', description: 'an executor the registry deployed from its approved code: it may flash-draw' },
    drawLimit: { ...amount, description: "the registry's bond limit: the largest new two-step draw the stake backs, floor(stake × (10000 − slash_rate_bps) / 10000)" },
    limits: { type: 'string', description: 'what the vault lends this keeper, in words: its two-step draw limit against its stake, and whether it may take flash draws' },
  },
}

const event = {
  type: 'object',
  required: ['id', 'ts', 'kind', 'message'],
  properties: {
    id: { type: 'integer' },
    ts: { type: 'string', format: 'date-time' },
    kind: { type: 'string', description: 'scan | fill | miss | recovery | register | error | lifecycle' },
    message: { type: 'string' },
    data: { type: 'object', additionalProperties: true },
  },
}

const error = {
  type: 'object',
  required: ['error', 'statusCode', 'message'],
  properties: { error: { type: 'string' }, statusCode: { type: 'integer' }, message: { type: 'string' } },
}

const taskError = {
  type: 'object',
  nullable: true,
  description: 'the typed error behind the outcome: name is its class (ErrAlreadyFilled for a race another keeper won first), code when it has one',
  required: ['name', 'message'],
  properties: { name: { type: 'string' }, code: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, message: { type: 'string' } },
}

const liquidation = {
  type: 'object',
  properties: {
    at: { type: 'string', format: 'date-time' },
    adapter: { type: 'string' },
    pool: { type: 'string', nullable: true, description: 'the lending pool, null for work outside one' },
    label: { type: 'string' },
    drew: amount,
    proceeds: amount,
    profit: amount,
    reward: { ...amount, description: "the keeper's fee the vault paid for this work (0 when none)" },
    responseTimeMs: { type: 'number' },
    success: { type: 'boolean' },
    txHash: { type: 'string', nullable: true },
    liquidation: { type: 'boolean', description: 'false for work that is not a liquidation (a rebalance)' },
    error: taskError,
  },
}

const readiness = {
  type: 'object',
  required: ['ready', 'reason'],
  properties: {
    ready: { type: 'boolean' },
    reason: { type: 'string', nullable: true, description: 'why not ready, in words; null when ready' },
    cycles: {
      type: 'object',
      properties: { finished: { type: 'integer' }, consecutiveFailed: { type: 'integer' }, failedLimit: { type: 'integer' }, lastError: { type: 'string', nullable: true } },
    },
    rpc: {
      type: 'object',
      properties: {
        reachable: { type: 'boolean' },
        consecutiveFailures: { type: 'integer' },
        unreachableSince: { type: 'string', nullable: true },
        lastError: { type: 'string', nullable: true },
      },
    },
  },
}

/** OpenAPI 3.0 description of the keeper's HTTP API, served at GET /openapi.json. */
export const openApiDocument = {
  openapi: '3.0.3',
  info: {
    title: 'Keeper daemon API',
    version: '1.0.0',
    description: 'Health, Prometheus metrics, dashboard state and a live event stream of one keeper.',
  },
  paths: {
    '/healthz': { get: { summary: 'Liveness', responses: { '200': { description: 'up (empty body)' } } } },
    '/readyz': {
      get: {
        summary: 'Readiness: is the keeper working',
        description:
          '503 while the last READY_FAILED_CYCLES poll cycles all had errors, while the RPC does not answer the ledger clock, or before the first cycle finished; 200 again once a cycle runs clean and the RPC answers.',
        responses: {
          '200': { description: 'working', content: { 'application/json': { schema: readiness } } },
          '503': { description: 'not working; reason says why', content: { 'application/json': { schema: readiness } } },
        },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics',
        description:
          'service_cycles_total, service_liquidations_total (liquidation fills only), service_vault_tvl, service_sse_active, service_cycle_duration_seconds, service_cycle_overruns_total, service_rpc_errors_total{stage}, service_draws_outstanding, service_draw_outstanding_ledgers, service_last_cycle_timestamp_seconds, service_poll_interval_seconds, service_operator_xlm_balance, service_keeper_registered, service_keeper_slashed (NaN until first read), service_tasks_total{adapter,outcome}, service_adapter_errors_total{adapter,stage}, service_profit_usdc_total (gross: the depositors profit plus the keeper fee), service_keeper_rewards_usdc_total (the keeper fees the vault paid this keeper), service_failed_transactions_total{reason} (slippage, lost_race, other), service_failed_transaction_fees_xlm_total, service_fees_paid_xlm_total (fill transactions of executions that landed), service_fee_bumps_total{outcome} (accepted, refused), service_try_again_later_total (sends the node did not queue because the source account had one queued; resent after the next ledger), service_fee_bid_stroops (the last inclusion fee bid; NaN before the first), service_inclusion_delay_ledgers (histogram: ledgers from sending a fill to its inclusion), service_pool_full_reads_total{reason} (cold, gap, audit, every-scan), service_pool_cache_mismatches_total (kept positions a full read found different; should stay 0), service_pool_positions_read_total, service_pool_borrowers{pool}, service_pool_liquidatable{pool}, service_pool_lowest_health_factor{pool} (NaN with no borrower in debt), service_pool_fills_total{pool}, service_pool_drawn_usdc_total{pool}, service_pool_profit_usdc_total{pool} (per lending pool of LENDING_POOLS), process defaults (process_*, nodejs_*: one collection shared by the scrapes of a second)',
        responses: { '200': { description: 'text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/api/state': {
      get: {
        summary: 'Registered keepers, pool positions, recent events, vault state',
        description:
          'With Authorization: Bearer <API_TOKEN>: also the planned executions and the plan and progress events (strategyDetails true). Without the token, or with a wrong one, they are left out.',
        security: [{}, { apiToken: [] }],
        responses: {
          '200': {
            description: 'dashboard state',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    mode: { type: 'string', enum: ['monitor-only', 'liquidating'] },
                    operator: { type: 'string' },
                    keeperName: { type: 'string' },
                    registration: {
                      type: 'string',
                      enum: ['registered', 'skipped', 'failed', 'not attempted'],
                      description: 'registration with the keeper registry; a failed one is retried at the start of every cycle (skipped = AlreadyRegistered)',
                    },
                    operatorXlm: {
                      type: 'string',
                      pattern: '^[0-9]+$',
                      nullable: true,
                      description: "the operator account's XLM balance in stroops (7 decimals), reserves included; null until first read",
                    },
                    updatedAt: { type: 'string', format: 'date-time', nullable: true },
                    vault,
                    keepers: { type: 'array', items: keeper },
                    positions: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          protocol: { type: 'string' },
                          pool: { type: 'string', nullable: true, description: 'the lending pool the position is in' },
                          user: { type: 'string' },
                          healthFactor: { type: 'number', nullable: true },
                          collateralBase: nullableAmount,
                          liabilityBase: nullableAmount,
                        },
                      },
                    },
                    pools: {
                      type: 'array',
                      description:
                        'one entry per lending pool the keeper watches (LENDING_POOLS, in that order): borrowers at the last scan, those below HF 1, the lowest HF, and what this process filled there since start (fills, USDC drawn, proceeds, gross profit); activeExecutions (planned, due or in flight) only with the API token',
                      items: {
                        type: 'object',
                        properties: {
                          pool: { type: 'string' },
                          borrowers: { type: 'integer' },
                          liquidatable: { type: 'integer' },
                          lowestHealthFactor: { type: 'number', nullable: true },
                          fills: { type: 'integer' },
                          drew: amount,
                          proceeds: amount,
                          profit: amount,
                          activeExecutions: { type: 'integer' },
                        },
                      },
                    },
                    events: { type: 'array', items: event, description: 'last 50 lines, oldest first' },
                    outstandingDraw: { ...amount, description: "this keeper's outstanding vault draw (get_keeper_draw), kept current while the engine holds it" },
                    outstandingDrawLedgers: { type: 'integer', description: 'ledgers since that draw was taken (its vault draw event), 0 without a draw' },
                    rewards: {
                      type: 'object',
                      description: "the keeper's rewards since this process started: the fees the vault paid the registered keeper (keeper_fee_bps of each fill's gross profit: the fee of its flash and closing return events)",
                      properties: { totalUsdc: amount, payments: { type: 'integer' } },
                    },
                    failedTransactions: {
                      type: 'object',
                      description: 'transactions this process tried that failed (refused in simulation or failed on the ledger), by reason, and the XLM the failed ones on the ledger cost',
                      properties: {
                        total: { type: 'integer' },
                        byReason: { type: 'object', additionalProperties: { type: 'integer' }, description: 'slippage | lost_race | other' },
                        feesXlm: { ...amount, description: 'stroops charged for failed transactions (7 decimals)' },
                      },
                    },
                    recovery: {
                      type: 'object',
                      nullable: true,
                      description: 'the last stale-draw recovery: what was owed, returned, and is still short',
                      properties: { at: { type: 'string' }, draw: amount, returned: amount, shortfall: amount, held: { type: 'array', items: { type: 'string' } } },
                    },
                    shadow: {
                      type: 'object',
                      nullable: true,
                      description:
                        'DRY_RUN=true only (null otherwise): what the keeper would have filled and earned. totals always; fills (each would-fill: adapter, key, label, target auction, path, plannedAt, firstPlannedLedger, targetLedger, fillLedger, percent, drew, expectedProfit, expectedReward, simulation passed | refused | none, reason) only with the API token. Also service_shadow_fills_total, service_shadow_drawn_usdc_total, service_shadow_profit_usdc_total, service_shadow_rewards_usdc_total on /metrics',
                      properties: {
                        dryRun: { type: 'boolean' },
                        totals: { type: 'object', properties: { fills: { type: 'integer' }, refused: { type: 'integer' }, drewUsdc: amount, profitUsdc: amount, rewardsUsdc: amount } },
                        fills: { type: 'array', items: { type: 'object' } },
                      },
                    },
                    strategyDetails: { type: 'boolean', description: 'true when the request carried the API token: executions and the plan and progress events are included' },
                    executions: {
                      type: 'array',
                      description: "the execution engine's book: planned, due and in-flight work, then the last 100 finished; only with the API token",
                      items: {
                        type: 'object',
                        properties: {
                          key: { type: 'string' },
                          adapter: { type: 'string' },
                          pool: { type: 'string', nullable: true, description: 'the lending pool, null for work outside one' },
                          label: { type: 'string' },
                          stage: { type: 'string', enum: ['planned', 'due', 'drawn', 'filled', 'swapped', 'returned', 'lost', 'abandoned'] },
                          path: { type: 'string', enum: ['atomic', 'two-step'] },
                          plannedAt: { type: 'integer' },
                          targetLedger: { type: 'integer' },
                          expiresAtLedger: { type: 'integer', nullable: true },
                          capital: amount,
                          priority: { type: 'integer' },
                          history: { type: 'array', items: { type: 'object', properties: { stage: { type: 'string' }, ledger: { type: 'integer' } } } },
                          progress: {
                            type: 'object',
                            nullable: true,
                            properties: {
                              ledger: { type: 'integer' },
                              offset: { type: 'integer' },
                              ratio: nullableAmount,
                              minProfit: amount,
                              leftPercent: {
                                type: 'number',
                                nullable: true,
                                description: "Percent of the auction's lot still open, against the auction as this keeper first saw it",
                              },
                            },
                          },
                          note: { type: 'string', nullable: true },
                          result: {
                            type: 'object',
                            nullable: true,
                            properties: {
                              drew: amount,
                              proceeds: amount,
                              profit: amount,
                              reward: { ...amount, description: "the keeper's fee the vault paid for this execution" },
                              responseTimeMs: { type: 'integer' },
                              success: { type: 'boolean' },
                              lost: { type: 'boolean' },
                              error: taskError,
                            },
                          },
                          fee: {
                            type: 'object',
                            nullable: true,
                            description:
                              'the fill transaction\'s fee, once it landed (null before, and for work that sent none): what it bid under FEE_STRATEGY, what the network charged, whether a fee bump of it (FEE_BUMP_LEDGERS) is what landed, and the ledgers it was sent at and included in',
                            properties: {
                              bidStroops: { type: 'integer', description: 'inclusion fee bid per operation of what landed (the fee bump\'s bid when it did), stroops, within INCLUSION_FEE..MAX_FEE' },
                              chargedStroops: { ...nullableAmount, description: 'fee charged by the network (inclusion fee at the ledger\'s rate + resource fee, refund deducted), stroops; null when the RPC did not say' },
                              bumped: { type: 'boolean', description: 'true when a fee bump of the fill is what landed' },
                              sentLedger: { type: 'integer', nullable: true, description: 'latest ledger when the fill was sent (it could land in the next one)' },
                              includedLedger: { type: 'integer', description: 'ledger that included it; includedLedger - sentLedger is the inclusion delay (1 = the next ledger)' },
                            },
                          },
                          error: { ...taskError, description: 'the typed error that ended the execution (the result\'s, or what the adapter threw)' },
                        },
                      },
                    },
                    cycles: {
                      type: 'object',
                      properties: {
                        count: { type: 'integer' },
                        overruns: { type: 'integer' },
                        lastStartedAt: { type: 'string', nullable: true },
                        lastDurationMs: { type: 'number', nullable: true },
                        lastError: {
                          type: 'string',
                          nullable: true,
                          description: "the last completed cycle's first error ('stage: message', '(+N more)' when several); null after a clean cycle",
                        },
                        lastErrorAt: { type: 'string', format: 'date-time', nullable: true, description: 'when a cycle last had an error; kept after clean cycles' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/api/performance': {
      get: {
        summary: 'Vault state, depositors, keeper stats, liquidation history',
        responses: {
          '200': {
            description: 'performance',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    vault,
                    depositors: {
                      type: 'array',
                      description: 'KNOWN_DEPOSITORS',
                      items: {
                        type: 'object',
                        properties: { address: { type: 'string' }, balance: amount, shares: amount, costBasis: amount },
                      },
                    },
                    keeper: { ...keeper, nullable: true },
                    keepers: { type: 'array', items: keeper },
                    liquidations: {
                      type: 'object',
                      properties: {
                        source: { type: 'string', enum: ['registry', 'process'] },
                        executions: { type: 'integer' },
                        fills: { type: 'integer' },
                        winRate: { type: 'number', description: 'fills / executions, 0..1' },
                        avgResponseTimeMs: { type: 'number' },
                        totalProfit: amount,
                        rewards: { ...amount, description: "the keeper fees the vault paid this process's executions" },
                        recent: { type: 'array', items: liquidation },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/api/events': {
      get: {
        summary: 'Server-Sent Events log stream (at most 100 concurrent clients, API_SSE_PER_ADDRESS from one address)',
        description:
          'event: <kind>, id: <id>, data: the event JSON (same shape as /api/state events); event: heartbeat every 15 s with data {"ts": ...}. ?backlog=N starts the stream with the last N events kept (at most 200), oldest first. plan and progress events only with Authorization: Bearer <API_TOKEN>. A reader more than 256 KiB behind is dropped.',
        parameters: [{ name: 'backlog', in: 'query', required: false, description: 'how many of the kept events to send first', schema: { type: 'integer', minimum: 0 } }],
        security: [{}, { apiToken: [] }],
        responses: {
          '200': { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          '503': { description: 'client limit reached (in all, or for this address)', content: { 'application/json': { schema: error } } },
        },
      },
    },
    '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.0 document' } } } },
  },
  components: {
    schemas: { Error: error, KeeperEvent: event, Keeper: keeper, Readiness: readiness },
    securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'API_TOKEN' } },
  },
} as const

export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', async () => openApiDocument)
}
