/**
 * The scenario file format (YAML), validated with zod. Every field is documented in
 * sim/README.md; defaults are applied here so the rest of the harness sees complete values.
 *
 * Durations are seconds (a number) or a string with a unit: "90s", "15m", "6h", "2d".
 * Amounts and prices are plain decimal numbers in USD / token units (converted to 7-decimal
 * integers where they reach the chain).
 */
import { z } from 'zod'
import { DEFAULT_LEDGER_MS } from '../../../src/chain/ledgerTime.js'
import { correlationProblems } from '../market/correlation.js'
import { chainSchema, keeperFee } from './chainSchema.js'

const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }

/**
 * The shortest ledger a scenario can run: the sandbox's virtual clock moves at least 1 s per
 * close (sandbox/src/base/clock.rs MIN_VIRTUAL_STEP_MS), as close times are whole seconds that
 * stellar-core requires to increase.
 */
export const MIN_LEDGER_SECONDS = 1

/** Seconds, from a number or "15m" / "6h" / "2d". */
export const duration = z.union([
  z.number().nonnegative(),
  z
    .string()
    .regex(DURATION_RE, 'a duration like "90s", "15m", "6h" or "2d"')
    .transform((s) => {
      const m = DURATION_RE.exec(s)!
      return Number(m[1]) * UNIT_SECONDS[m[2]!]!
    }),
], {
  error: (iss) =>
    (typeof iss.input === 'number' && iss.input < 0) || (typeof iss.input === 'string' && /^\s*-/.test(iss.input))
      ? `must not be negative, got ${JSON.stringify(iss.input)} (a duration: seconds, or a string like "90s", "15m", "6h" or "2d")`
      : `a duration: seconds (a number) or a string like "90s", "15m", "6h" or "2d", got ${JSON.stringify(iss.input)}`,
})

const fraction = z.number().min(0).max(1)
/** The vault's longest cooldown and unlock period (s). */
const MAX_VAULT_PERIOD = 30 * 86_400
const positive = z.number().positive()

/** A price path for one asset. Volatility and drift are annualised (GBM convention). */
export const priceModel = z.discriminatedUnion('model', [
  z.object({ model: z.literal('constant') }).strict(),
  z
    .object({
      model: z.literal('gbm'),
      /** Annual drift μ (0.1 = +10 % a year, before the volatility correction). */
      drift: z.number().default(0),
      /** Annual volatility σ (0.8 = 80 %). */
      volatility: z.number().nonnegative(),
    })
    .strict(),
  z
    .object({
      model: z.literal('jumps'),
      drift: z.number().default(0),
      volatility: z.number().nonnegative(),
      /** Expected jumps per day (Poisson). */
      jumpsPerDay: z.number().nonnegative(),
      /** Mean and standard deviation of a jump's log-return (−0.1 ≈ a 10 % drop). */
      jumpMean: z.number(),
      jumpStd: z.number().nonnegative().default(0),
    })
    .strict(),
  z
    .object({
      model: z.literal('scripted'),
      /** Moves applied in order; each multiplies the price by (1 + change) linearly over `over`. */
      moves: z
        .array(
          z
            .object({
              at: duration,
              /** −0.3 = −30 %. */
              change: z.number().gt(-1),
              over: duration.default(0),
            })
            .strict(),
        )
        .min(1),
      /** Optional GBM noise on top of the script. */
      volatility: z.number().nonnegative().default(0),
    })
    .strict(),
  z
    .object({
      model: z.literal('csv'),
      /** Path to the CSV file, relative to the scenario file. */
      file: z.string().min(1),
      /** Column with the price (default close). */
      column: z.string().default('close'),
      /** Column with the timestamp (default timestamp); rows must be evenly spaced. */
      timeColumn: z.string().default('timestamp'),
      /** Start the series at the world asset's price (multiply by start / first row). */
      rebase: z.boolean().default(true),
      /** Scale log-returns by this factor (1 = as recorded). */
      volatilityScale: positive.default(1),
      /** Skip this many rows first. */
      startRow: z.number().int().nonnegative().default(0),
    })
    .strict(),
  z
    .object({
      model: z.literal('bootstrap'),
      /** Path to the CSV file of the recorded series, relative to the scenario file. */
      file: z.string().min(1),
      column: z.string().default('close'),
      timeColumn: z.string().default('timestamp'),
      /** Start the path at the world asset's price (otherwise at the first row's value). */
      rebase: z.boolean().default(true),
      /** Scale log-returns by this factor (1 = as recorded). */
      volatilityScale: positive.default(1),
      /** Consecutive returns (rows) per block: 24 keeps a day of hourly candles together. */
      blockLength: z.number().int().positive(),
      /** The rows whose returns are resampled: from startRow up to but not including endRow. */
      startRow: z.number().int().nonnegative().default(0),
      endRow: z.number().int().positive().optional(),
    })
    .strict()
    .refine((m) => m.endRow === undefined || m.endRow >= m.startRow + 2, {
      message: 'endRow must be at least startRow + 2 (two rows make one return)',
      path: ['endRow'],
    }),
])
export type PriceModel = z.infer<typeof priceModel>

/**
 * Correlated GBM shocks between assets: `assets` (at least two, each with a gbm or jumps model)
 * and either `rho` for every pair or the full `matrix` (rows and columns in the order of
 * `assets`). The matrix must be symmetric with a unit diagonal, entries in [−1, 1] and positive
 * semi-definite; see sim/src/market/correlation.ts.
 */
export const correlation = z
  .object({
    assets: z.array(z.string()),
    /** The correlation of every pair of `assets` (a sweep sets this one number). */
    rho: z.number().optional(),
    /** The full correlation matrix, one row per asset. */
    matrix: z.array(z.array(z.number())).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const p of correlationProblems(c)) ctx.addIssue({ code: 'custom', message: p.message, path: p.path })
  })
export type CorrelationSpec = z.infer<typeof correlation>

const latency = z.discriminatedUnion('model', [
  z.object({ model: z.literal('constant'), ms: z.number().nonnegative() }).strict(),
  z.object({ model: z.literal('uniform'), minMs: z.number().nonnegative(), maxMs: z.number().nonnegative() }).strict(),
  z.object({ model: z.literal('lognormal'), medianMs: positive, sigma: z.number().nonnegative() }).strict(),
])
export type LatencyModel = z.infer<typeof latency>

const crashPoint = z.enum(['drawn', 'filled', 'swapped'])

const keeperSettings = {
  /** MIN_PROFIT: lot value / bid cost the keeper waits for (1.02 = 2 %). */
  minProfit: z.number().min(1).max(10),
  /** POLL_INTERVAL in seconds (rounded up to whole ledgers); the keeper accepts 3 to 300. */
  pollInterval: duration.refine((v) => v >= 3 && v <= 300, { message: 'between 3 and 300 seconds (the keeper\'s POLL_INTERVAL range)' }),
  slippageBps: z.number().int().min(0).max(10_000),
  /** CHANNEL_ACCOUNTS: channel accounts besides the operator, each a submission lane (the daemon accepts 0 to 16). */
  channelAccounts: z.number().int().min(0).max(16),
  /** PROFIT_BASIS: MIN_PROFIT of the lot at the oracle (the daemon's default) or of what the pools pay too. */
  profitBasis: z.enum(['oracle', 'executable']),
}

/**
 * A hostile keeper (sim/README.md, Adversaries): it runs no keeper process; its operator account
 * sends the attack's transactions against the real contracts instead. A bare name takes the
 * defaults (`hostile: skim`).
 */
export const hostileKeeper = z.preprocess(
  (v) => (typeof v === 'string' ? { kind: v } : v),
  z.discriminatedUnion(
    'kind',
    [
      z
        .object({
          /** Register with min_stake, two-step draw max_draw_per_keeper, then what the bond allows, keep it, be slashed, deregister. */
          kind: z.literal('draw-and-run'),
          /** When it starts. */
          at: duration.default(0),
        })
        .strict(),
      z
        .object({
          /** Draw all idle USDC it may and return it at par ledger after ledger; a depositor asks to withdraw and must get out. */
          kind: z.literal('par-returns'),
          at: duration.default(0),
          /** Draw-and-return rounds before the victim asks to withdraw. */
          rounds: z.number().int().min(1).max(20).default(3),
          /** The depositor (0-based) kept out, who then requests a withdrawal of all its shares. */
          victim: z.number().int().nonnegative().default(0),
          /** USDC bonded on top of min_stake (default: enough to back max_draw_per_keeper). */
          bond: positive.optional(),
        })
        .strict(),
      z
        .object({
          /** Flash-fill an open auction through an approved executor without selling the lot, and flash-draw to a plain account. */
          kind: z.literal('skim'),
          /** It waits from then for an open user-liquidation auction. */
          at: duration.default(0),
        })
        .strict(),
    ],
    { error: "a hostile behaviour: draw-and-run, par-returns or skim (a name, or {kind, ...})" },
  ),
)
export type HostileKeeper = z.infer<typeof hostileKeeper>

/** A depositor-side adversary (sim/README.md, Adversaries). */
export const depositorAdversary = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        /** Withdraw all its shares while a two-step draw is past the slash timeout, before the slash. */
        kind: z.literal('exit-ahead'),
        /** Which depositor (0-based): it leaves with what it deposited at the start. */
        depositor: z.number().int().nonnegative(),
      })
      .strict(),
    z
      .object({
        /** Deposit in the ledger before a fill lands, withdraw right after it (in the fill's ledger). */
        kind: z.literal('jit-deposit'),
        /** USDC it deposits: a fresh account of its own, funded with it. */
        amount: positive,
        /** It watches for fills from then on. */
        at: duration.default(0),
        /** Tries at most this many times until a fill lands between its deposit and its withdrawal. */
        attempts: z.number().int().min(1).max(10).default(3),
      })
      .strict(),
  ],
  { error: 'a depositor adversary: {kind: exit-ahead, depositor} or {kind: jit-deposit, amount}' },
)
export type DepositorAdversary = z.infer<typeof depositorAdversary>

/**
 * What runs for a keeper (sim/README.md, Strategy tournament): `daemon`, the production keeper
 * (the default), or an agent that behaves as another public keeper does, from its public
 * description: `seed-rule` (the oracle ratio, 100 % fills, no depth awareness: Blend's
 * auctioneer bot's rule) and `nectar` (auctions opened at 50 %, fills as draw, fill, swap, return).
 */
export const keeperStrategy = z.enum(['daemon', 'seed-rule', 'nectar'], { error: 'a keeper strategy: daemon, seed-rule or nectar' })
export type KeeperStrategy = z.infer<typeof keeperStrategy>

const keeperOverride = z
  .object({
    /** Which keeper, 0-based: index 0 is keeper-1. */
    index: z.number().int().nonnegative(),
    /** An attacker instead of a keeper: its operator sends the attack, no keeper process runs. */
    hostile: hostileKeeper.optional(),
    /** What runs for it (default: the production daemon); no default written, so resolved scenarios without it stay as they were. */
    strategy: keeperStrategy.optional(),
    minProfit: keeperSettings.minProfit.optional(),
    pollInterval: keeperSettings.pollInterval.optional(),
    slippageBps: keeperSettings.slippageBps.optional(),
    channelAccounts: keeperSettings.channelAccounts.optional(),
    profitBasis: keeperSettings.profitBasis.optional(),
    latency: latency.optional(),
    rpcFaultRate: fraction.optional(),
    path: z.enum(['atomic', 'two-step']).optional(),
    /** The stake this keeper holds (KEEPER_BOND), USDC. */
    bond: z.number().nonnegative().optional(),
    /** Fee settings that differ from the population's (field by field). */
    fee: keeperFee.optional(),
  })
  .strict()

const crash = z
  .object({
    /** Which keeper, 0-based: keeper 0 is keeper-1. */
    keeper: z.number().int().nonnegative(),
    /** The step after which it dies: drawn, filled or swapped. */
    at: crashPoint,
    /** Only executions starting at or after this time (default: the first one). */
    after: duration.default(0),
    /** Restart (a fresh process: stale-draw recovery) this long after the crash; null = never. */
    restartAfter: duration.nullable().default(null),
  })
  .strict()

const flow = z
  .object({
    at: duration,
    /** Depositor index (0-based). */
    depositor: z.number().int().nonnegative(),
    action: z.enum(['deposit', 'withdraw']),
    /** USDC for a deposit; for a withdrawal, give `amount` (USDC) or `fraction` of the shares. */
    amount: positive.optional(),
    fraction: z.number().gt(0).max(1).optional(),
  })
  .strict()
  .refine((f) => (f.action === 'deposit' ? f.amount !== undefined && f.fraction === undefined : (f.amount === undefined) !== (f.fraction === undefined)), {
    message: 'a deposit needs amount; a withdrawal needs exactly one of amount or fraction',
  })

const asset = z
  .object({
    /** Classic asset code (1-12 letters or digits). */
    code: z.string().regex(/^[A-Za-z0-9]{1,12}$/, 'an asset code of 1-12 letters or digits'),
    /** Initial price in USD. */
    price: positive,
    /** Blend collateral factor (0.75 = 75 %). */
    cFactor: z.number().gt(0).max(1).default(0.75),
    /** USD value on each side of the primary DEX pool (the fallback router gets half). */
    dexDepthUsd: positive.default(1_000_000),
    /**
     * USD value on each side of a Comet weighted pool of this asset against USDC (50/50, 0.3 %
     * fee), one of the registry's venues and in the keepers' COMET_POOLS. Absent or 0: none (no
     * default written, so resolved scenarios without it stay as they were).
     */
    cometDepthUsd: z.number().nonnegative().optional(),
    /**
     * An intermediate-asset route: a pair of this asset against another world asset (`asset`,
     * its code) on the primary router, `depthUsd` USD a side at both prices, so that the path
     * [this, asset, USDC] exists there. Absent: none.
     */
    via: z
      .object({
        asset: z.string().regex(/^[A-Za-z0-9]{1,12}$/, 'an asset code of 1-12 letters or digits'),
        depthUsd: positive,
      })
      .strict()
      .optional(),
  })
  .strict()

const contractId = z.string().regex(/^C[A-Z2-7]{55}$/, 'a contract address (C..., 56 characters)')
const accountOrContract = z.string().regex(/^[GC][A-Z2-7]{55}$/, 'a Stellar address (G... or C..., 56 characters)')

/**
 * A world found rather than deployed: the sandbox starts from a LedgerSnapshot file or forks a
 * live RPC, and the scenario's pool is whatever that state holds (sim/README.md, "Real pools").
 */
export const worldFrom = z
  .object({
    /** A LedgerSnapshot file, relative to the scenario file. */
    snapshot: z.string().min(1).optional(),
    /** A Stellar RPC to fork lazily (its latest ledger). */
    fork: z.url({ protocol: /^https?$/, error: 'an http(s) URL of a Stellar RPC' }).optional(),
    /** HTTP headers for the fork's upstream (e.g. an API key). */
    headers: z.record(z.string(), z.string()).default({}),
    /**
     * The network's passphrase. Default: a snapshot's is the public network its `network_id`
     * names (mainnet, testnet, futurenet, standalone), a fork's the upstream's; given, it must
     * match the file's network_id or the upstream's passphrase.
     */
    networkPassphrase: z.string().min(1).optional(),
    /** With `fork`: the ledger the upstream must be at (an RPC serves only its latest state). */
    ledger: z.number().int().positive().optional(),
    /** The Blend v2 pool. */
    pool: contractId,
    /** Checked against the pool's config when given (default: the pool's). */
    oracle: contractId.optional(),
    /** Checked against the pool's backstop when given. */
    backstop: contractId.optional(),
    /** The reserve the vault lends (default: the one whose asset code is USDC). */
    usdc: contractId.optional(),
    /** Routers that exist to sell into; when absent, DEX pools are created at `dexDepthUsd`. */
    routers: z.object({ primary: contractId, fallback: contractId.optional() }).strict().optional(),
    /** USD on each side of a created primary pool: one number, or per asset code. */
    dexDepthUsd: z.union([positive, z.record(z.string(), positive)]).default(1_000_000),
    /** Borrowers to track besides those the snapshot or the upstream's events name. */
    borrowers: z.array(accountOrContract).default([]),
    /** A file of borrower addresses, one per line, relative to the scenario file. */
    hints: z.string().min(1).optional(),
  })
  .strict()
  .refine((f) => (f.snapshot === undefined) !== (f.fork === undefined), { message: 'give exactly one of snapshot or fork' })
  .refine((f) => f.ledger === undefined || f.fork !== undefined, { message: 'ledger goes with fork (a snapshot holds one ledger)', path: ['ledger'] })
export type WorldFrom = z.infer<typeof worldFrom>

export const scenarioSchema = z
  .object({
    /** Short name (the file name by default). */
    name: z.string().min(1).optional(),
    description: z.string().default(''),
    run: z
      .object({
        /** Ledgers to simulate; or give `duration`. */
        ledgers: z.number().int().positive().optional(),
        duration: duration.optional(),
        /**
         * Seconds per ledger (5 on the public networks until CAP-70's 2.5 s ledgers), in whole
         * milliseconds, at least MIN_LEDGER_SECONDS. The sandbox writes it into its scp_timing
         * setting; close times are whole seconds (2.5 s ledgers close +2 s, +3 s, ...).
         */
        ledgerSeconds: z
          .number()
          .min(MIN_LEDGER_SECONDS, `run.ledgerSeconds must be at least ${MIN_LEDGER_SECONDS} s: close times are whole seconds and must increase`)
          .max(60)
          .refine((v) => Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6, 'run.ledgerSeconds must be a whole number of milliseconds')
          .default(DEFAULT_LEDGER_MS / 1000),
        /** Default seed (the command line's --seed wins). */
        seed: z.number().int().nonnegative().default(1),
        /** One series point every this many ledgers (default: at most 2,000 points). */
        recordEvery: z.number().int().positive().optional(),
        /** Skip ledgers in which nothing can change any decision (same report, faster). */
        fastForward: z.boolean().default(true),
      })
      .strict()
      .refine((r) => (r.ledgers === undefined) !== (r.duration === undefined), { message: 'give exactly one of run.ledgers or run.duration' }),
    world: z
      .object({
        /** Start from a snapshot or a fork instead of deploying a world (assets and borrowers are then found). */
        from: worldFrom.optional(),
        /** Collateral assets (at least two; USDC is always the borrowed asset). */
        assets: z
          .array(asset)
          .min(2)
          .superRefine((list, ctx) => {
            const codes = new Set(list.map((a) => a.code))
            list.forEach((a, i) => {
              if (a.via !== undefined && (a.via.asset === a.code || !codes.has(a.via.asset))) {
                ctx.addIssue({ code: 'custom', path: [i, 'via', 'asset'], message: `via.asset must be another world asset's code (assets: ${[...codes].join(', ')})` })
              }
            })
          })
          .default([
          { code: 'WETH', price: 2000, cFactor: 0.75, dexDepthUsd: 1_000_000 },
          { code: 'WBTC', price: 60_000, cFactor: 0.75, dexDepthUsd: 1_000_000 },
        ]),
        borrowers: z
          .object({
            count: z.number().int().min(1).max(1000).default(8),
            /** Opening health factors, drawn uniformly from [min, max]. */
            healthFactor: z
              .object({ min: z.number().gt(1), max: z.number().gt(1) })
              .strict()
              .refine((h) => h.min <= h.max, { message: 'min must not exceed max' })
              .default({ min: 1.04, max: 1.1 }),
            /** Share of borrowers per collateral asset code (default: equal). */
            collateralMix: z.record(z.string(), z.number().nonnegative()).optional(),
          })
          .strict()
          .prefault({}),
        depositors: z
          .object({
            count: z.number().int().min(1).max(1000).default(3),
            /** USDC each deposits at the start. */
            amount: positive.default(100_000),
            /** Scripted deposits and withdrawals. */
            flows: z.array(flow).default([]),
            /** Hostile depositors: exit-ahead (one of the depositors) and jit-deposit (an account of its own). */
            adversaries: z.array(depositorAdversary).default([]),
          })
          .strict()
          .prefault({}),
        vault: z
          .object({
            depositCap: positive.default(100_000_000),
            withdrawCooldown: duration.refine((v) => v <= MAX_VAULT_PERIOD, { message: 'at most 30 days (the vault refuses more)' }).default(0),
            maxDrawPerKeeper: positive.default(1_000_000),
            /** The keeper's share of each fill's gross profit (basis points); the vault takes at most 5000. */
            keeperFeeBps: z.number().int().min(0).max(5_000).default(1_000),
            /** Booked profit unlocks into the share price over this long (1 s to 30 days). */
            profitUnlockSecs: duration.refine((v) => v >= 1 && v <= MAX_VAULT_PERIOD, { message: 'from 1 second to 30 days (the vault refuses 0 or more)' }).default(3_600),
          })
          .strict()
          .prefault({}),
        registry: z
          .object({
            minStake: positive.default(1_000),
            /** Seconds a two-step draw may stay out before anyone may slash it (the registry takes 1 s to 7 days). */
            slashTimeout: duration.refine((v) => v >= 1 && v <= 7 * 86_400, { message: 'from 1 second to 7 days (the registry refuses 0 or more)' }).default(3_600),
            /** The penalty share of the stake; it also sets how much of the stake backs a draw (1 to 5000 bps). */
            slashRateBps: z.number().int().min(1).max(5_000).default(1_000),
          })
          .strict()
          .prefault({}),
        /** USDC the lender supplies to each Blend pool. */
        lenderSupply: positive.default(2_000_000),
        /**
         * Blend pools the world opens (1 to 4; absent: 1, no default written so resolved
         * one-pool scenarios stay as they were), from the same protocol with the same oracle
         * and reserves: borrower i opens in pool i % pools, the keepers get LENDING_POOLS.
         */
        pools: z.number().int().min(1).max(4).optional(),
      })
      .strict()
      .refine((w) => w.pools === undefined || w.pools === 1 || w.from === undefined, {
        message: 'world.pools goes with a deployed world (a snapshot or a fork has the one pool world.from names)',
        path: ['pools'],
      })
      .prefault({}),
    market: z
      .object({
        /** One price model per world asset code (missing: constant). */
        prices: z.record(z.string(), priceModel).default({}),
        /** Correlation between the GBM shocks of some assets (default: independent). */
        correlation: correlation.optional(),
        oracle: z
          .object({
            /** The oracle posts at least this often. */
            heartbeat: duration.default(3_600),
            /** ...and whenever the market moved this much since the last post (basis points). */
            deviationBps: z.number().int().min(0).max(10_000).default(50),
            /** Posts carry the market price from this long ago. */
            delay: duration.default(0),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    dex: z
      .object({
        /** Chance per ledger that the primary router goes down... */
        primaryFailureRate: fraction.default(0),
        /** ...for this long. */
        outage: duration.default(60),
        arbitrage: z
          .object({
            enabled: z.boolean().default(true),
            /** The arbitrageur trades toward the market price of this long ago. */
            lag: duration.default(60),
            /** Largest trade per pool per ledger, USD. */
            maxTradeUsd: positive.default(100_000),
            /** Leaves pools alone within this distance of the target (basis points). */
            toleranceBps: z.number().int().min(0).max(10_000).default(30),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    keepers: z
      .object({
        count: z.number().int().min(1).max(16).default(3),
        minProfit: keeperSettings.minProfit.default(1.02),
        pollInterval: keeperSettings.pollInterval.default(10),
        slippageBps: keeperSettings.slippageBps.default(300),
        /** The daemon's PROFIT_BASIS (its default, oracle, when absent; no default written). */
        profitBasis: keeperSettings.profitBasis.optional(),
        /** Channel accounts per keeper (its lanes: the operator and these), the daemon's default. */
        channelAccounts: keeperSettings.channelAccounts.default(4),
        /** Atomic (executor contract) or two-step (draw, fill, swap, return). */
        path: z.enum(['atomic', 'two-step']).default('atomic'),
        /**
         * The stake each keeper holds in the registry, USDC (the daemon's KEEPER_BOND; 0 =
         * min_stake only). It bounds what a keeper may hold two-step (its draw_limit); flash
         * draws need none.
         */
        bond: z.number().nonnegative().default(0),
        /** Time from a keeper's decision to its transaction reaching the network. */
        latency: latency.default({ model: 'lognormal', medianMs: 400, sigma: 0.6 }),
        /** Chance that any one RPC call fails (reads error out; a send's answer is lost). */
        rpcFaultRate: fraction.default(0),
        /** Fee settings: strategy, inclusionFee, maxFee, bumpLedgers (the daemon's FEE_* variables). */
        fee: keeperFee.optional(),
        /** Per-keeper settings that differ from the above. */
        individual: z.array(keeperOverride).default([]),
        crashes: z.array(crash).default([]),
      })
      .strict()
      .prefault({}),
    /** The network: who orders a ledger, its limits and other users' load. */
    chain: chainSchema.prefault({}),
  })
  .strict()

export type ScenarioInput = z.input<typeof scenarioSchema>
export type Scenario = z.infer<typeof scenarioSchema> & { name: string }
export type KeeperOverride = z.infer<typeof keeperOverride>
export type CrashSpec = z.infer<typeof crash>
export type FlowSpec = z.infer<typeof flow>
