/**
 * The shape of a sim run's report.json (sim/src/report/types.ts, schema version 1) as a zod
 * schema, so the Research view can say in words why a file is not one. `parseReportText` is the
 * whole check: JSON, a report at all, the schema version, then every field.
 */
import { z } from 'zod'
import { REPORT_SCHEMA_VERSION, type Report } from '../../../sim/src/report/types.js'

const num = z.number()
const nullableNum = z.number().nullable()
const nums = z.array(num)

// Fields added to schema version 1 after its first runs (without a version bump): a report from
// before them lacks them. They read as "not recorded" — NaN, which the report's formatters show
// as the em-dash, or null / [] — never as a made-up zero.
const laterNum = z.number().default(Number.NaN)
const laterNullableNum = z.number().nullable().default(null)

const keeperStrategy = z.enum(['daemon', 'seed-rule', 'nectar'])

// Swaps of the landed fills by route kind and fills that split a lot asset: absent in reports
// written before fills recorded their sales.
const sales = z.object({ primary: num, fallback: num, via: num, comet: num, split: num })

const keeper = z.object({
  index: num,
  name: z.string(),
  address: z.string(),
  operator: z.string(),
  // What ran for the keeper (sim/README.md, Strategy tournament): absent in older reports.
  strategy: keeperStrategy.exactOptional(),
  path: z.enum(['atomic', 'two-step']),
  minProfit: num,
  pollIntervalLedgers: num,
  wins: num,
  losses: num,
  missed: laterNum,
  unprofitable: laterNum,
  abandoned: num,
  profit: num,
  vaultProfit: num,
  rewards: num.exactOptional(),
  winRate: num,
  crashed: z.boolean(),
  slashed: num,
  feesPaid: laterNum,
  fills: laterNum,
  failedTransactions: laterNum,
  lostRaceTransactions: laterNum,
  failedTransactionFees: laterNum,
  feeStrategy: z.string().default(''),
  feesPerWin: laterNullableNum,
  inclusionDelay: z.object({ p50: nullableNum, p95: nullableNum }).default({ p50: null, p95: null }),
  droppedTransactions: laterNum,
  feeBumps: laterNum,
  lanes: z
    .object({ count: num, accounts: z.array(z.string()), sent: nums, applied: nums, tryAgainLater: num })
    .exactOptional(),
  sales: sales.exactOptional(),
})

// The keepers summed by strategy: absent in reports written before keepers had strategies.
const strategy = z.object({
  strategy: keeperStrategy,
  keepers: z.array(z.string()),
  wins: num,
  fills: num,
  profit: num,
  vaultProfit: num,
  failedTransactions: num,
  lostRaceTransactions: num,
  drawnAtEnd: num,
})

const fees = z
  .object({
    ordering: z.enum(['latency', 'core']),
    keepersXlm: num,
    perWinXlm: nullableNum,
    xlmPriceUsd: num,
    shareOfVaultProfit: nullableNum,
    inclusionDelay: z.object({ p50: nullableNum, p95: nullableNum }),
    droppedTransactions: num,
    feeBumps: num,
    winsByStrategy: z.array(z.object({ strategy: z.string(), keepers: num, wins: num, feesXlm: num })),
    background: z.object({ sent: num, applied: num, dropped: num }).nullable(),
  })
  .default({
    ordering: 'latency',
    keepersXlm: Number.NaN,
    perWinXlm: null,
    xlmPriceUsd: Number.NaN,
    shareOfVaultProfit: null,
    inclusionDelay: { p50: null, p95: null },
    droppedTransactions: Number.NaN,
    feeBumps: Number.NaN,
    winsByStrategy: [],
    background: null,
  })

const auctionFill = z.object({
  ledger: num,
  percent: num,
  filledBy: z.string(),
  profit: num,
  lotValue: nullableNum,
  bidValue: nullableNum,
  txHash: z.string(),
})

const auction = z.object({
  id: z.string(),
  user: z.string(),
  kind: z.enum(['liquidation', 'bad-debt', 'interest']),
  createdLedger: num,
  firstProfitableLedger: nullableNum,
  filledLedger: nullableNum,
  filledBy: z.string().nullable(),
  fillDelay: nullableNum,
  firstSellableLedger: nullableNum.optional(),
  fillDelaySale: nullableNum.optional(),
  fillLatencyMs: laterNullableNum,
  fillFee: laterNullableNum,
  fillProfit: laterNullableNum,
  contenders: z.array(z.string()).default([]),
  lotValue: nullableNum,
  bidValue: nullableNum,
  outcome: z.enum(['filled', 'expired', 'open']),
  fills: z.array(auctionFill).default([]),
  remainingPercent: laterNum,
})

// A found world's origin (sim/src/record/source.ts): only in reports of runs that started from a
// snapshot or a fork of a live pool.
const source = z.object({
  kind: z.enum(['snapshot', 'fork']),
  file: z.string().exactOptional(),
  sha256: z.string().exactOptional(),
  url: z.string().exactOptional(),
  ledger: num,
  networkPassphrase: z.string(),
  pool: z.string(),
  oracle: z.string(),
  oracleCode: z.string().nullable(),
  backstop: z.string(),
  borrowerSources: z.record(z.string(), num),
  start: z.object({
    reserves: z.array(
      z.object({ asset: z.string(), code: z.string(), price: num, supplied: num, borrowed: num, utilisation: num, cFactor: num, lFactor: num }),
    ),
    borrowers: z.array(z.object({ address: z.string(), healthFactor: num, collateral: num, liabilities: num })),
    liquidatable: num,
  }),
})

// The hostile agents' attempts (sim/README.md, Adversaries): only in reports of runs with them.
const attack = z.object({
  attacker: z.string(),
  kind: z.enum(['draw-and-run', 'par-returns', 'skim', 'exit-ahead', 'jit-deposit']),
  attempt: num,
  description: z.string(),
  account: z.string(),
  fromLedger: num,
  toLedger: nullableNum,
  steps: z.array(
    z.object({
      ledger: num,
      action: z.string(),
      result: z.enum(['applied', 'refused', 'failed']),
      error: z.object({ code: num, name: z.string() }).exactOptional(),
      detail: z.string().exactOptional(),
      amount: num.exactOptional(),
    }),
  ),
  refusedBy: z.array(z.string()),
  gain: num,
  depositorLoss: num,
  outcome: z.string(),
})

const replayKind = z.enum(['fill-ledger', 'fill-amounts', 'share-math', 'health-factor'])

export const reportSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  scenario: z.object({ name: z.string(), description: z.string(), hash: z.string(), resolved: z.unknown() }),
  seed: num,
  versions: z.object({ harness: z.string(), stellarSdk: z.string(), sorobanHost: z.string(), blend: z.string(), protocol: num }),
  run: z.object({ ledgerSeconds: num, ledgers: num, startLedger: num, endLedger: num, fastForwardedLedgers: num }),
  summary: z.object({
    lpReturn: num,
    lpApy: z.object({ kind: z.string(), value: nullableNum, text: z.string() }),
    sharePriceStart: num,
    sharePriceEnd: num,
    vaultProfit: num,
    // Added with the vault's keeper fee and profit unlocking: absent in older reports.
    keeperRewards: num.exactOptional(),
    lockedProfitEnd: num.exactOptional(),
    vaultTerms: z.object({ keeperFeeBps: num, profitUnlockSecs: num }).exactOptional(),
    attacks: z.object({ attempts: num, refused: num, maxGain: num, maxDepositorLoss: num }).nullable().exactOptional(),
    auctions: z.object({ created: num, filled: num, expired: num, open: num }),
    fills: laterNum,
    failedTransactions: laterNum,
    lostRaceTransactions: laterNum,
    sales: sales.exactOptional(),
    missed: num,
    fillDelay: z.object({ median: nullableNum, p95: nullableNum, max: nullableNum }),
    fillDelaySale: z.object({ median: nullableNum, p95: nullableNum, max: nullableNum }).optional(),
    badDebt: num,
    borrowedStart: laterNum,
    insolventDebt: laterNum,
    liquidatedCollateral: laterNum,
    slashes: num,
    keeperProfit: num,
    peakUtilisation: num,
    replayMismatches: num,
    auditHolds: z.boolean(),
    fees,
  }),
  keepers: z.array(keeper),
  strategies: z.array(strategy).exactOptional(),
  auctions: z.array(auction),
  replay: z.object({
    checks: z.array(z.object({ kind: replayKind, checked: num, mismatches: num })),
    mismatches: z.array(z.object({ kind: replayKind, ledger: num, detail: z.string() })),
  }),
  audit: z.object({
    holds: z.boolean(),
    invariants: z.array(z.object({ id: num, name: z.string(), holds: z.boolean(), warning: z.boolean(), detail: z.string() })),
  }),
  series: z.object({
    assets: z.array(z.string()),
    ledger: nums,
    time: nums,
    sharePrice: nums,
    totalUsdc: nums,
    activeLiq: nums,
    totalProfit: nums,
    lockedProfit: nums.exactOptional(),
    badDebt: nums,
    openAuctions: nums,
    market: z.record(z.string(), nums),
    oracle: z.record(z.string(), nums),
    dex: z.record(z.string(), z.array(nullableNum)),
  }),
  events: z.array(
    z.object({
      ledger: num,
      kind: z.enum(['deposit', 'withdraw', 'crash', 'restart', 'outage', 'recovery', 'slash', 'auction', 'fill', 'oracle']),
      text: z.string(),
    }),
  ),
  attacks: z.array(attack).exactOptional(),
  source: source.exactOptional(),
})

export type ParsedReport = { ok: true; report: Report } | { ok: false; problems: string[] }

const MAX_PROBLEMS = 6

/** A report from the text of a file, or what is wrong with it, in words. */
export function parseReportText(text: string): ParsedReport {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return { ok: false, problems: [`The file is not JSON (${err instanceof Error ? err.message : String(err)}). Open the report.json of a sim run.`] }
  }
  return parseReport(json)
}

/** A report from parsed JSON, or what is wrong with it, in words. */
export function parseReport(json: unknown): ParsedReport {
  if (json === null || typeof json !== 'object' || Array.isArray(json) || !('schemaVersion' in json))
    return { ok: false, problems: ['This is not a sim run report: it has no schemaVersion. Open the report.json of a run directory (`npm run sim -- run <scenario> --out <dir>`).'] }
  const version = (json as { schemaVersion: unknown }).schemaVersion
  if (version !== REPORT_SCHEMA_VERSION)
    return { ok: false, problems: [`This report has schema version ${JSON.stringify(version)}; the dashboard reads version ${REPORT_SCHEMA_VERSION}.`] }
  const r = reportSchema.safeParse(json)
  if (r.success) {
    const report: Report = r.data
    return { ok: true, report }
  }
  const problems = r.error.issues.slice(0, MAX_PROBLEMS).map((i) => `${i.path.join('.') || 'report'}: ${i.message}`)
  if (r.error.issues.length > MAX_PROBLEMS) problems.push(`… and ${r.error.issues.length - MAX_PROBLEMS} more problem(s)`)
  return { ok: false, problems: ['The file looks like a report.json but does not have its shape:', ...problems] }
}
