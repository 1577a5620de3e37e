import { Keypair, Networks, StrKey } from '@stellar/stellar-sdk'
import { z } from 'zod'
import type { FeeStrategy } from '../../core/index.js'
import { redactText } from '../../chain/redact.js'
import { apiFields, apiSettings, type ApiSettings } from './api.js'
import { feeFields, feeProblem, feeSettings } from './fees.js'
import { flag, numberIn, oneOf, optional } from './fields.js'

/**
 * The public testnet. CONTRACT_RPC and NETWORK_PASSPHRASE default to it; USDC_CONTRACT has no
 * default (the testnet preset of `npm run deploy` writes this USDC into the deployments file).
 */
export const TESTNET_DEFAULTS = {
  CONTRACT_RPC: 'https://soroban-testnet.stellar.org',
  NETWORK_PASSPHRASE: Networks.TESTNET,
  /** Circle's testnet USDC (issuer GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5) as a Stellar Asset Contract. */
  USDC_CONTRACT: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA',
} as const

export const REQUIRED_KEYS = ['KEEPER_SECRET', 'REGISTRY_CONTRACT', 'VAULT_CONTRACT'] as const

/** Validated keeper configuration. */
export interface KeeperConfig extends ApiSettings {
  keypair: Keypair
  operator: string
  registryContract: string
  vaultContract: string
  keeperName: string
  /**
   * KEEPER_BOND: the stake (USDC, 7 decimals) the keeper holds in the registry; after
   * registering it adds the difference (add_bond). 0: min_stake only. It bounds two-step draws
   * (draw_limit); flash draws need none.
   */
  keeperBond: bigint
  /**
   * The keeper's executor contract (EXECUTOR_CONTRACT): when set it is the registered keeper and
   * liquidations take the atomic path (draw, fill, swap and return in one transaction).
   */
  executorContract: string | undefined
  /**
   * The lending pools to liquidate on (LENDING_POOLS, or LENDING_POOL as a list of one), in the
   * order given: one adapter each, one capital budget and one schedule across them. Empty =
   * vault-monitor-only mode (API served, no liquidation cycle).
   */
  lendingPools: string[]
  /** undefined = stale-draw recovery disabled (USDC_CONTRACT unset or empty, the default). */
  usdcContract: string | undefined
  rpcUrl: string
  /**
   * A Stellar RPC with a longer event history than CONTRACT_RPC (HISTORY_API_URL, optional):
   * borrower discovery backfills from it what the main RPC's retention window no longer holds.
   */
  historyApiUrl: string | undefined
  /** Borrowers always scanned, whatever the events say (WATCH_ADDRESSES). */
  watchAddresses: string[]
  /**
   * A file of borrower addresses, one per line (BORROWER_HINTS_FILE): read at start, and every
   * newly discovered borrower is appended, so a restart after the RPC's retention window still
   * knows them.
   */
  borrowerHintsFile: string | undefined
  networkPassphrase: string
  pollIntervalSeconds: number
  /**
   * Minutes between full reads of every borrower's positions (FULL_SCAN_MINUTES): the audit of
   * the pool state the scans keep between cycles. 0: every cycle reads every borrower.
   */
  fullScanMinutes: number
  minProfit: number
  apiPort: number
  primaryDexRouter: string | undefined
  fallbackDexRouter: string | undefined
  slippageBps: number
  /**
   * What MIN_PROFIT is asked of (PROFIT_BASIS): `oracle` (default) the lot at oracle prices, with
   * the sale clearing SLIPPAGE_BPS and covering the bid; `executable` what the pools pay too.
   */
  profitBasis: 'oracle' | 'executable'
  /** Comet weighted pools the keeper may sell seized collateral into (COMET_POOLS). */
  cometPools: string[]
  rebalanceVault: string | undefined
  rebalanceDriftBps: number
  knownDepositors: string[]
  logLevel: string
  /** CPU instructions added to every simulated estimate (RPC_INSTRUCTION_LEEWAY, default 0). */
  instructionLeeway: number
  /**
   * Channel accounts derived from KEEPER_SECRET (CHANNEL_ACCOUNTS, default 4): extra source
   * accounts so that independent transactions (opening many auctions) land in the same ledger.
   */
  channelAccounts: number
  /** How often the ledger clock polls getLatestLedger (LEDGER_POLL_MS, default 250). */
  ledgerPollMs: number
  /**
   * The least inclusion fee any transaction bids (INCLUSION_FEE, stroops per operation, default
   * 100, the network minimum); the simulated resource fee is paid on top.
   */
  inclusionFee: number
  /**
   * What transactions bid for inclusion (FEE_STRATEGY, default `fixed`): `fixed` bids
   * INCLUSION_FEE; `feestats:pNN` the getFeeStats percentile of recent Soroban inclusion fees;
   * `profit:BPS` that share of a fill's expected profit in XLM (other transactions: INCLUSION_FEE).
   * Every bid is within [INCLUSION_FEE, MAX_FEE].
   */
  feeStrategy: FeeStrategy
  /** The most any transaction bids (MAX_FEE, stroops per operation, default 10 000 000 = 1 XLM). */
  maxFee: number
  /**
   * A transaction not included this many ledgers after it was sent is fee-bumped once
   * (FEE_BUMP_LEDGERS, default 2, at most 3; 0 = never).
   */
  feeBumpLedgers: number
  /**
   * Fault injection for tests and simulations (FAULT_CRASH_AT): the process kills itself (SIGKILL)
   * right after this step of an execution. Never set in production.
   */
  crashAt: 'drawn' | 'filled' | 'swapped' | undefined
  /**
   * STRICT_SECRETS (default false): refuse to start when `.env` or KEEPER_SECRET_FILE is
   * readable by group or others, instead of warning.
   */
  strictSecrets: boolean
  /**
   * DRY_RUN (default false): shadow mode. The keeper scans, plans and simulates every transaction
   * it would send, reports what it would have filled and earned, and sends nothing (no
   * registration, draw, fill, auction, swap or channel account).
   */
  dryRun: boolean
}

/** Invalid configuration; `problems` are the lines to print, one per problem. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly problems: string[]
  constructor(problems: string[]) {
    super(problems.join('\n'))
    this.problems = problems
  }
}


const contractId = (key: string, orEmpty = '') =>
  optional.refine((v) => v === undefined || StrKey.isValidContract(v), {
    error: (issue) => `${key} must be a contract address (C..., 56 characters)${orEmpty}, got "${String(issue.input)}"`,
  })

const url = (key: string, dflt: string) =>
  optional.transform((v, ctx) => {
    const s = v ?? dflt
    try {
      const u = new URL(s)
      if (u.protocol === 'http:' || u.protocol === 'https:') return s
    } catch {
      // fall through to the issue
    }
    ctx.addIssue({ code: 'custom', message: `${key} must be an http(s) URL, got "${redactText(s)}"` })
    return z.NEVER
  })

/** Comma- or space-separated G... / C... addresses, deduplicated in order. */
const addressList = (key: string) =>
  optional.transform((v, ctx) => {
    const list = (v ?? '').split(/[\s,]+/).filter((s) => s !== '')
    for (const a of list) {
      if (!StrKey.isValidEd25519PublicKey(a) && !StrKey.isValidContract(a)) {
        ctx.addIssue({ code: 'custom', message: `${key} entries must be Stellar addresses (G... or C...), got "${a}"` })
        return z.NEVER
      }
    }
    return [...new Set(list)]
  })

const contractList = (key: string) =>
  optional.transform((v, ctx) => {
    const list = (v ?? '').split(/[\s,]+/).filter((s) => s !== '')
    for (const a of list) {
      if (!StrKey.isValidContract(a)) {
        ctx.addIssue({ code: 'custom', message: `${key} entries must be contract addresses (C..., 56 characters), got "${a}"` })
        return z.NEVER
      }
    }
    return [...new Set(list)]
  })

/** The most pools one keeper watches: each is a full scan of its borrowers every cycle. */
export const MAX_LENDING_POOLS = 8

/** LENDING_POOLS, or LENDING_POOL as a list of one; a problem as its one line. */
function lendingPoolsOf(one: string | undefined, list: string[]): string[] | string {
  if (one !== undefined && list.length > 0) {
    return `LENDING_POOL and LENDING_POOLS are both set: set LENDING_POOLS only (a list), got LENDING_POOL "${one}" and LENDING_POOLS "${list.join(',')}"`
  }
  if (list.length > MAX_LENDING_POOLS) return `LENDING_POOLS names at most ${MAX_LENDING_POOLS} pools, got ${list.length}`
  return one === undefined ? list : [one]
}

/**
 * Variables read outside the schema: KEEPER_SECRET_FILE (resolved into KEEPER_SECRET before
 * parsing) and DEPLOYMENTS_FILE (its values become defaults before parsing).
 */
export const PRE_PARSE_KEYS = ['KEEPER_SECRET_FILE', 'DEPLOYMENTS_FILE'] as const

const schema = z.object({
  KEEPER_SECRET: z
    .string()
    .transform((v) => v.trim())
    .refine((v) => StrKey.isValidEd25519SecretSeed(v), {
      // Never echo the value: it is a secret.
      message: 'KEEPER_SECRET must be a Stellar secret seed (S..., 56 characters)',
    }),
  REGISTRY_CONTRACT: contractId('REGISTRY_CONTRACT'),
  VAULT_CONTRACT: contractId('VAULT_CONTRACT'),
  KEEPER_NAME: optional.transform((v) => v ?? 'service-keeper-1').refine((v) => v.length <= 64, {
    error: (issue) => `KEEPER_NAME must be at most 64 characters, got "${String(issue.input)}" (${String(issue.input).length})`,
  }),
  KEEPER_BOND: optional.transform((v, ctx) => {
    if (v === undefined) return 0n
    if (!/^\d{1,12}(\.\d{1,7})?$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: `KEEPER_BOND must be a USDC amount (digits and at most 7 decimals, e.g. 1000 or 2500.5), got "${v}"` })
      return z.NEVER
    }
    const [whole, frac = ''] = v.split('.')
    return BigInt(whole!) * 10_000_000n + BigInt(frac.padEnd(7, '0'))
  }),
  LENDING_POOL: contractId('LENDING_POOL'),
  LENDING_POOLS: contractList('LENDING_POOLS'),
  EXECUTOR_CONTRACT: contractId('EXECUTOR_CONTRACT'),
  // USDC_CONTRACT: unset or empty → none (stale-draw recovery disabled).
  USDC_CONTRACT: contractId('USDC_CONTRACT', ' or empty'),
  CONTRACT_RPC: url('CONTRACT_RPC', TESTNET_DEFAULTS.CONTRACT_RPC),
  HISTORY_API_URL: optional.transform((v, ctx) => {
    if (v === undefined) return undefined
    if (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)) return v
    ctx.addIssue({ code: 'custom', message: `HISTORY_API_URL must be an http(s) URL of a Stellar RPC, got "${redactText(v)}"` })
    return z.NEVER
  }),
  WATCH_ADDRESSES: addressList('WATCH_ADDRESSES'),
  BORROWER_HINTS_FILE: optional,
  NETWORK_PASSPHRASE: optional.transform((v) => v ?? TESTNET_DEFAULTS.NETWORK_PASSPHRASE),
  POLL_INTERVAL: numberIn('POLL_INTERVAL', 3, 300, 10, false),
  FULL_SCAN_MINUTES: numberIn('FULL_SCAN_MINUTES', 0, 1440, 10, false),
  MIN_PROFIT: optional.transform((v, ctx) => {
    if (v === undefined) return 1.02
    const n = Number(v)
    if (!Number.isFinite(n) || n <= 0) {
      ctx.addIssue({ code: 'custom', message: `MIN_PROFIT must be a number > 0, got "${v}"` })
      return z.NEVER
    }
    return n
  }),
  API_PORT: numberIn('API_PORT', 0, 65535, 8080, true),
  ...apiFields,
  PRIMARY_DEX_ROUTER: contractId('PRIMARY_DEX_ROUTER'),
  FALLBACK_DEX_ROUTER: contractId('FALLBACK_DEX_ROUTER'),
  SLIPPAGE_BPS: numberIn('SLIPPAGE_BPS', 0, 10_000, 100, true),
  PROFIT_BASIS: oneOf('PROFIT_BASIS', ['oracle', 'executable'], 'oracle', 'oracle or executable'),
  COMET_POOLS: contractList('COMET_POOLS'),
  REBALANCE_VAULT: contractId('REBALANCE_VAULT'),
  REBALANCE_DRIFT_BPS: numberIn('REBALANCE_DRIFT_BPS', 0, 10_000, 500, true),
  KNOWN_DEPOSITORS: addressList('KNOWN_DEPOSITORS'),
  RPC_INSTRUCTION_LEEWAY: numberIn('RPC_INSTRUCTION_LEEWAY', 0, 100_000_000, 0, true),
  CHANNEL_ACCOUNTS: numberIn('CHANNEL_ACCOUNTS', 0, 16, 4, true),
  LEDGER_POLL_MS: numberIn('LEDGER_POLL_MS', 50, 10_000, 250, true),
  ...feeFields,
  FAULT_CRASH_AT: oneOf('FAULT_CRASH_AT', ['drawn', 'filled', 'swapped'], undefined, 'one of drawn, filled, swapped (or unset)'),
  STRICT_SECRETS: flag('STRICT_SECRETS'),
  DRY_RUN: flag('DRY_RUN'),
  LOG_LEVEL: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
})

/** Every variable the configuration reads, in the order of the schema, then those read before it. */
export const CONFIG_KEYS: readonly string[] = [...Object.keys(schema.shape), ...PRE_PARSE_KEYS]

/**
 * Validates the keeper's environment. Required variables are checked first: each missing one is
 * reported as exactly `missing required env: <KEY>`; then every other rule, one line per problem.
 *
 * @throws ConfigError
 */
export function parseConfig(env: Record<string, string | undefined>): KeeperConfig {
  const missing = REQUIRED_KEYS.filter((k) => (env[k] ?? '').trim() === '')
  if (missing.length > 0) throw new ConfigError(missing.map((k) => `missing required env: ${k}`))

  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => i.message))
  }
  const c = parsed.data
  const feeRule = feeProblem(c)
  if (feeRule !== undefined) throw new ConfigError([feeRule])
  const pools = lendingPoolsOf(c.LENDING_POOL, c.LENDING_POOLS)
  if (typeof pools === 'string') throw new ConfigError([pools])
  const keypair = Keypair.fromSecret(c.KEEPER_SECRET)
  return {
    keypair,
    operator: keypair.publicKey(),
    registryContract: c.REGISTRY_CONTRACT!,
    vaultContract: c.VAULT_CONTRACT!,
    keeperName: c.KEEPER_NAME,
    keeperBond: c.KEEPER_BOND,
    lendingPools: pools,
    executorContract: c.EXECUTOR_CONTRACT,
    usdcContract: c.USDC_CONTRACT,
    rpcUrl: c.CONTRACT_RPC,
    historyApiUrl: c.HISTORY_API_URL,
    watchAddresses: c.WATCH_ADDRESSES,
    borrowerHintsFile: c.BORROWER_HINTS_FILE,
    networkPassphrase: c.NETWORK_PASSPHRASE,
    pollIntervalSeconds: c.POLL_INTERVAL,
    fullScanMinutes: c.FULL_SCAN_MINUTES,
    minProfit: c.MIN_PROFIT,
    apiPort: c.API_PORT,
    ...apiSettings(c),
    primaryDexRouter: c.PRIMARY_DEX_ROUTER,
    fallbackDexRouter: c.FALLBACK_DEX_ROUTER,
    slippageBps: c.SLIPPAGE_BPS,
    profitBasis: c.PROFIT_BASIS as KeeperConfig['profitBasis'],
    cometPools: c.COMET_POOLS,
    rebalanceVault: c.REBALANCE_VAULT,
    rebalanceDriftBps: c.REBALANCE_DRIFT_BPS,
    knownDepositors: c.KNOWN_DEPOSITORS,
    logLevel: c.LOG_LEVEL,
    instructionLeeway: c.RPC_INSTRUCTION_LEEWAY,
    channelAccounts: c.CHANNEL_ACCOUNTS,
    ledgerPollMs: c.LEDGER_POLL_MS,
    ...feeSettings(c),
    crashAt: c.FAULT_CRASH_AT as KeeperConfig['crashAt'],
    strictSecrets: c.STRICT_SECRETS,
    dryRun: c.DRY_RUN,
  }
}
