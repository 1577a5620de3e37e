/**
 * The columns of a sweep's three tables, in order, with types, units and meanings:
 *
 *   runs      one row per job: identity, status (finished / failed / missing), every Summary figure
 *   auctions  one row per auction of every finished run (report.json's `auctions`)
 *   keepers   one row per keeper of every finished run (report.json's `keepers`)
 *
 * Figures of a run that did not finish are null. Fields an older report or summary.json may
 * lack (AuctionResult's and KeeperResult's competition fields, the newest Summary figures —
 * a resumed sweep keeps runs written by an earlier harness) are read through optional views
 * and are null when absent.
 */
import type { AuctionResult, KeeperResult, Summary } from '../report/types.js'
import type { SweepParam } from './grid.js'
import type { RunRecord } from './runFiles.js'
import { col, optionalNumber, paramColumns, withIdentity, type Cell, type Column, type ColumnType, type JobRow, type TableSpec } from './tablesSchema.js'

/** What a runs row is built from: the job, its point's scenario hash (manifest) and its record, if any. */
export interface RunRowSource extends JobRow {
  pointHash: string
  record: RunRecord | undefined
}

/** AuctionResult's competition fields, read as optional: reports written before them lack them. */
export interface AuctionExtras {
  fillLatencyMs?: unknown
  fillFee?: unknown
  fillProfit?: unknown
  contenders?: unknown
}

/** KeeperResult's competition counters, read as optional: reports written before them lack them. */
export interface KeeperExtras {
  missed?: unknown
  unprofitable?: unknown
  feesPaid?: unknown
}

/** KeeperResult's fee figures, read as optional: reports written before them lack them. */
type KeeperFeeExtras = { feeStrategy?: string; feesPerWin?: number | null; inclusionDelay?: { p50: number | null; p95: number | null }; droppedTransactions?: number; feeBumps?: number }

export interface AuctionRowSource extends JobRow {
  auction: AuctionResult & AuctionExtras
}

export interface KeeperRowSource extends JobRow {
  keeper: Omit<KeeperResult, 'feeStrategy' | 'feesPerWin' | 'inclusionDelay' | 'droppedTransactions' | 'feeBumps'> & KeeperExtras & KeeperFeeExtras
}

/** A Summary figure: its column name (the field's path), type, unit, meaning and reader. */
interface Figure {
  name: string
  type: ColumnType
  unit: string
  about: string
  read: (s: AnySummary) => unknown
}

const fig = (name: string, type: ColumnType, unit: string, about: string, read: (s: AnySummary) => unknown): Figure => ({ name, type, unit, about, read })

/** Every Summary field, flattened to dotted paths, in the Summary's order. */
export const SUMMARY_FIGURES: readonly Figure[] = [
  fig('lpReturn', 'DOUBLE', 'fraction', 'share price at the end / at the start − 1', (s) => s.lpReturn),
  fig('lpApy.kind', 'STRING', '', "which APY rule applied (the core's apyDisplay)", (s) => s.lpApy.kind),
  fig('lpApy.value', 'DOUBLE', 'fraction', 'the APY on the share-price series; null when the rule gives none', (s) => s.lpApy.value),
  fig('lpApy.text', 'STRING', '', 'the APY as the dashboard prints it', (s) => s.lpApy.text),
  fig('sharePriceStart', 'DOUBLE', 'USDC per share', "the vault's share price when the run started", (s) => s.sharePriceStart),
  fig('sharePriceEnd', 'DOUBLE', 'USDC per share', "the vault's share price at the end", (s) => s.sharePriceEnd),
  fig('vaultProfit', 'DOUBLE', 'USDC', "vault profit booked during the run (the fills' gross profit less the keepers' fees, slash penalties)", (s) => s.vaultProfit),
  fig('keeperRewards', 'DOUBLE', 'USDC', "keeper fees the vault paid out of the fills' gross profit (the flash and return events' fee); null in older reports", (s) => optionalNumber(s.keeperRewards)),
  fig('lockedProfitEnd', 'DOUBLE', 'USDC', 'booked profit not yet unlocked into the share price at the end; null in older reports', (s) => optionalNumber(s.lockedProfitEnd)),
  fig('vaultTerms.keeperFeeBps', 'INT32', 'bps', "the vault's keeper fee: its share of each fill's gross profit; null in older reports", (s) => optionalNumber(s.vaultTerms?.keeperFeeBps)),
  fig('vaultTerms.profitUnlockSecs', 'INT32', 's', 'the period over which booked profit unlocks into the share price; null in older reports', (s) => optionalNumber(s.vaultTerms?.profitUnlockSecs)),
  fig('attacks.attempts', 'INT32', 'count', 'attempts of hostile keepers and depositors; null without adversaries', (s) => optionalNumber(s.attacks?.attempts)),
  fig('attacks.refused', 'INT32', 'count', 'attempts with a step a contract refused; null without adversaries', (s) => optionalNumber(s.attacks?.refused)),
  fig('attacks.maxGain', 'DOUBLE', 'USDC', "the largest gain of any attempt (<= 0: no attack paid); null without adversaries", (s) => optionalNumber(s.attacks?.maxGain)),
  fig('attacks.maxDepositorLoss', 'DOUBLE', 'USDC', "the largest loss of the depositors who took no part, over the attempts; null without adversaries", (s) => optionalNumber(s.attacks?.maxDepositorLoss)),
  fig('auctions.created', 'INT32', 'count', 'auctions created', (s) => s.auctions.created),
  fig('auctions.filled', 'INT32', 'count', 'auctions filled completely (by one fill or several)', (s) => s.auctions.filled),
  fig('auctions.expired', 'INT32', 'count', 'auctions with something left 500 blocks after they started', (s) => s.auctions.expired),
  fig('auctions.open', 'INT32', 'count', 'auctions still open at the end', (s) => s.auctions.open),
  fig('fills', 'INT32', 'count', 'fill transactions that landed (several per auction when filled in parts); null in older reports', (s) => optionalNumber(s.fills)),
  fig('failedTransactions', 'INT32', 'count', "all keepers' transactions that failed, refused in simulation or on the ledger, lost races left out; null in older reports", (s) => optionalNumber(s.failedTransactions)),
  fig('lostRaceTransactions', 'INT32', 'count', "all keepers' fill transactions that failed because another keeper's fill ran first; null in older reports", (s) => optionalNumber(s.lostRaceTransactions)),
  fig('sales.primary', 'INT32', 'count', "swaps of the keepers' landed fills on the primary router's direct pair; null in older reports", (s) => optionalNumber(s.sales?.primary)),
  fig('sales.fallback', 'INT32', 'count', "swaps of the keepers' landed fills on the fallback router; null in older reports", (s) => optionalNumber(s.sales?.fallback)),
  fig('sales.via', 'INT32', 'count', "swaps of the keepers' landed fills through another reserve on the primary router; null in older reports", (s) => optionalNumber(s.sales?.via)),
  fig('sales.comet', 'INT32', 'count', "swaps of the keepers' landed fills into a Comet pool; null in older reports", (s) => optionalNumber(s.sales?.comet)),
  fig('sales.split', 'INT32', 'count', 'landed fills that sold a lot asset in two parts; null in older reports', (s) => optionalNumber(s.sales?.split)),
  fig('missed', 'INT32', 'count', 'borrowers liquidatable at some ledger that never got an auction', (s) => s.missed),
  fig('fillDelay.median', 'DOUBLE', 'ledgers', 'median of fill ledger − first profitable ledger; null without fills', (s) => s.fillDelay.median),
  fig('fillDelay.p95', 'DOUBLE', 'ledgers', '95th percentile of the fill delay; null without fills', (s) => s.fillDelay.p95),
  fig('fillDelay.max', 'DOUBLE', 'ledgers', 'largest fill delay; null without fills', (s) => s.fillDelay.max),
  fig('fillDelaySale.median', 'DOUBLE', 'ledgers', 'median of fill ledger − first sellable ledger (the sale cleared the floor); null without fills', (s) => s.fillDelaySale?.median ?? null),
  fig('fillDelaySale.p95', 'DOUBLE', 'ledgers', '95th percentile of the fill delay after the first sellable ledger; null without fills', (s) => s.fillDelaySale?.p95 ?? null),
  fig('fillDelaySale.max', 'DOUBLE', 'ledgers', 'largest fill delay after the first sellable ledger; null without fills', (s) => s.fillDelaySale?.max ?? null),
  fig('badDebt', 'DOUBLE', 'USD', 'liabilities the backstop holds at the end, at oracle prices', (s) => s.badDebt),
  fig('borrowedStart', 'DOUBLE', 'USD', "borrowers' liabilities when the run started, at oracle prices", (s) => s.borrowedStart),
  fig('insolventDebt', 'DOUBLE', 'USD', "debt nobody's collateral covers at the end: badDebt + Σ max(0, liabilities − collateral)", (s) => s.insolventDebt),
  fig('liquidatedCollateral', 'DOUBLE', 'USD', 'Σ lot value of every fill of a user liquidation, on the state the filler saw', (s) => s.liquidatedCollateral),
  fig('slashes', 'INT32', 'count', 'keeper slashes', (s) => s.slashes),
  fig('keeperProfit', 'DOUBLE', 'USDC', "Σ over keepers of the operator's profit", (s) => s.keeperProfit),
  fig('peakUtilisation', 'DOUBLE', 'fraction', 'highest active_liq / total_usdc seen', (s) => s.peakUtilisation),
  fig('replayMismatches', 'INT32', 'count', 'core replay checks the chain disagreed with (non-zero fails the run)', (s) => s.replayMismatches),
  fig('auditHolds', 'BOOLEAN', '', 'whether every invariant of the final-state audit holds', (s) => s.auditHolds),
  fig('fees.ordering', 'STRING', '', "who ordered the ledgers: latency (the sim) or core (the node: stellar-core's selection and apply order); null in older reports", (s) => s.fees?.ordering ?? null),
  fig('fees.keepersXlm', 'DOUBLE', 'XLM', "fees charged on every keeper transaction applied; null in older reports", (s) => optionalNumber(s.fees?.keepersXlm)),
  fig('fees.perWinXlm', 'DOUBLE', 'XLM', 'keeper fees / auctions won; null without wins or in older reports', (s) => optionalNumber(s.fees?.perWinXlm)),
  fig('fees.shareOfVaultProfit', 'DOUBLE', 'fraction', "keeper fees (USD at fees.xlmPriceUsd) / the vault's profit; null without profit or in older reports", (s) => optionalNumber(s.fees?.shareOfVaultProfit)),
  fig('fees.inclusionDelay.p50', 'DOUBLE', 'ledgers', "median ledgers from send to apply of the keepers' applied transactions; null in older reports", (s) => optionalNumber(s.fees?.inclusionDelay.p50)),
  fig('fees.inclusionDelay.p95', 'DOUBLE', 'ledgers', '95th percentile (nearest rank) of the inclusion delay; null in older reports', (s) => optionalNumber(s.fees?.inclusionDelay.p95)),
  fig('fees.droppedTransactions', 'INT32', 'count', "keeper transactions the node's queue dropped without applying them; null in older reports", (s) => optionalNumber(s.fees?.droppedTransactions)),
  fig('fees.feeBumps', 'INT32', 'count', 'fee bumps the node took in place of a keeper transaction it had left queued; null in older reports', (s) => optionalNumber(s.fees?.feeBumps)),
  fig('fees.xlmPriceUsd', 'DOUBLE', 'USD', 'the XLM price fees are valued at (scenario chain.xlmPrice); null in older reports', (s) => optionalNumber(s.fees?.xlmPriceUsd)),
  fig('fees.winsByStrategy', 'STRING', 'JSON', 'wins and fees per fee strategy: [{strategy, keepers, wins, feesXlm}]; null in older reports', (s) => (s.fees === undefined ? null : JSON.stringify(s.fees.winsByStrategy))),
  fig('fees.background.sent', 'INT32', 'count', "other users' transactions sent (chain.background); null without background load", (s) => optionalNumber(s.fees?.background?.sent)),
  fig('fees.background.applied', 'INT32', 'count', "other users' transactions applied; null without background load", (s) => optionalNumber(s.fees?.background?.applied)),
  fig('fees.background.dropped', 'INT32', 'count', "other users' transactions the node's queue dropped; null without background load", (s) => optionalNumber(s.fees?.background?.dropped)),
]

/** null for undefined (a figure an older summary.json lacks). */
const cell = (v: unknown): Cell => (v === undefined ? null : (v as Cell))

/** The Summary with its newest figures optional (an older summary.json lacks them). */
type AnySummary = Omit<Summary, 'fees'> & { fees?: Summary['fees'] }

const summaryOf = (r: RunRowSource): AnySummary | null => (r.record?.ok === true ? r.record.file.summary : null)
const errorOf = (r: RunRowSource) => (r.record !== undefined && !r.record.ok ? r.record.file : null)

const RUN_COLUMNS: Column<RunRowSource>[] = [
  col('scenarioHash', 'STRING', false, '', 'SHA-256 of the resolved scenario the run used (hex)', (r) => (r.record?.ok === true ? r.record.file.scenarioHash : r.pointHash)),
  col('status', 'STRING', false, '', 'finished (summary.json), failed (error.json) or missing (neither: not run yet)', (r) => (r.record === undefined ? 'missing' : r.record.ok ? 'finished' : 'failed')),
  col('errorKind', 'STRING', true, '', 'failed runs: error (the run threw) or crash (its worker died)', (r) => errorOf(r)?.kind ?? null),
  col('errorMessage', 'STRING', true, '', "failed runs: the last attempt's error message", (r) => errorOf(r)?.message ?? null),
  col('errorAttempts', 'INT32', true, 'count', 'failed runs: attempts made', (r) => {
    const e = errorOf(r)
    return e === null ? null : (optionalNumber(e.attempts) ?? 1)
  }),
  ...SUMMARY_FIGURES.map((f) =>
    col<RunRowSource>(f.name, f.type, true, f.unit, f.about, (r) => {
      const s = summaryOf(r)
      return s === null ? null : cell(f.read(s))
    }),
  ),
]

/** The auction's contenders when the report lists them (a list of names), else null. */
function contendersOf(a: AuctionExtras): string[] | null {
  const c = a.contenders
  return Array.isArray(c) && c.every((x) => typeof x === 'string') ? (c as string[]) : null
}

const AUCTION_COLUMNS: Column<AuctionRowSource>[] = [
  col('id', 'STRING', false, '', 'the auction: user:kind:startLedger', (r) => r.auction.id),
  col('user', 'STRING', false, '', 'the liquidated account', (r) => r.auction.user),
  col('kind', 'STRING', false, '', 'liquidation, bad-debt or interest', (r) => r.auction.kind),
  col('createdLedger', 'INT32', false, 'ledger', 'ledger the auction was created in', (r) => r.auction.createdLedger),
  col('firstProfitableLedger', 'INT32', true, 'ledger', "first ledger profitable at the population's lowest MIN_PROFIT (core firstProfitableBlock)", (r) => r.auction.firstProfitableLedger),
  col('filledLedger', 'INT32', true, 'ledger', 'ledger of the first fill (of any percent); null without one', (r) => r.auction.filledLedger),
  col('filledBy', 'STRING', true, '', "the first filler's name (keepers.name); null without a fill", (r) => r.auction.filledBy),
  col('fillDelay', 'INT32', true, 'ledgers', 'filledLedger − firstProfitableLedger', (r) => r.auction.fillDelay),
  col('fillCount', 'INT32', true, 'count', 'fills that took part of it; null in older reports', (r) => (Array.isArray(r.auction.fills) ? r.auction.fills.length : null)),
  col('fillPercents', 'STRING', true, '', 'each fill as a JSON array of [ledger, percent of what was left, filler, profit]; null in older reports', (r) =>
    Array.isArray(r.auction.fills) ? JSON.stringify(r.auction.fills.map((f) => [f.ledger, f.percent, f.filledBy, f.profit])) : null,
  ),
  col('remainingPercent', 'DOUBLE', true, 'percent', 'percent of the auction no fill took by the end; null in older reports', (r) => optionalNumber(r.auction.remainingPercent)),
  col('lotValue', 'DOUBLE', true, 'USD', "the fill's lot at oracle prices", (r) => r.auction.lotValue),
  col('bidValue', 'DOUBLE', true, 'USD', "the fill's bid at oracle prices", (r) => r.auction.bidValue),
  col('outcome', 'STRING', false, '', 'filled, expired or open (at the end of the run)', (r) => r.auction.outcome),
  col('fillLatencyMs', 'DOUBLE', true, 'ms', 'seeded submission latency of the winning fill transaction; null unless filled', (r) => optionalNumber(r.auction.fillLatencyMs)),
  col('fillFee', 'DOUBLE', true, 'XLM', 'fee charged on the winning fill transaction; null unless filled', (r) => optionalNumber(r.auction.fillFee)),
  col('fillProfit', 'DOUBLE', true, 'USDC', 'profit the fill returned to the vault (0 when none); null unless filled', (r) => optionalNumber(r.auction.fillProfit)),
  col('contenderCount', 'INT32', true, 'count', 'keepers that sent a fill transaction for it, winner included', (r) => contendersOf(r.auction)?.length ?? null),
  col('contenders', 'STRING', true, '', 'their names as a JSON array, in the order their transactions were applied', (r) => {
    const c = contendersOf(r.auction)
    return c === null ? null : JSON.stringify(c)
  }),
]

const KEEPER_COLUMNS: Column<KeeperRowSource>[] = [
  col('index', 'INT32', false, '', "the keeper's index in the scenario (0-based)", (r) => r.keeper.index),
  col('name', 'STRING', false, '', "the keeper's name (what auctions.filledBy holds)", (r) => r.keeper.name),
  col('path', 'STRING', false, '', 'atomic (executor contract) or two-step', (r) => r.keeper.path),
  col('minProfit', 'DOUBLE', false, 'ratio', "the keeper's MIN_PROFIT (lot / bid it requires)", (r) => r.keeper.minProfit),
  col('pollIntervalLedgers', 'INT32', false, 'ledgers', "the keeper's poll interval", (r) => r.keeper.pollIntervalLedgers),
  col('wins', 'INT32', false, 'count', 'auctions this keeper made the first fill of', (r) => r.keeper.wins),
  col('losses', 'INT32', false, 'count', 'auctions another keeper filled that this one tried to fill while they were profitable for it', (r) => r.keeper.losses),
  col('abandoned', 'INT32', false, 'count', 'executions given up (capital, expiry, errors)', (r) => r.keeper.abandoned),
  col('profit', 'DOUBLE', false, 'USDC', 'what the operator (and its executor) gained over the run, stake changes included', (r) => r.keeper.profit),
  col('vaultProfit', 'DOUBLE', false, 'USDC', 'profit it returned to the vault', (r) => r.keeper.vaultProfit),
  col('rewards', 'DOUBLE', true, 'USDC', 'keeper fees the vault paid it (its flash and return events); null in older reports', (r) => optionalNumber(r.keeper.rewards)),
  col('winRate', 'DOUBLE', false, 'fraction', "its share of all the run's fills", (r) => r.keeper.winRate),
  col('crashed', 'BOOLEAN', false, '', 'whether the scenario crashed it', (r) => r.keeper.crashed),
  col('slashed', 'DOUBLE', false, 'USDC', 'stake slashed from it', (r) => r.keeper.slashed),
  col('missed', 'INT32', true, 'count', 'auctions that ended while it ran, with no fill transaction of its own, neither lost nor unprofitable', (r) => optionalNumber(r.keeper.missed)),
  col('unprofitable', 'INT32', true, 'count', "auctions that ended without its fill where its engine's last answer said they would not clear its MIN_PROFIT in time", (r) => optionalNumber(r.keeper.unprofitable)),
  col('feesPaid', 'DOUBLE', true, 'XLM', 'fees charged on every transaction of its that was applied, failed ones included', (r) => optionalNumber(r.keeper.feesPaid)),
  col('fills', 'INT32', true, 'count', 'fills of any percent it landed; null in older reports', (r) => optionalNumber(r.keeper.fills)),
  col('failedTransactions', 'INT32', true, 'count', 'its transactions that failed, refused in simulation or on the ledger, lost races left out; null in older reports', (r) => optionalNumber(r.keeper.failedTransactions)),
  col('lostRaceTransactions', 'INT32', true, 'count', "its fill transactions that failed because another keeper's fill ran first; null in older reports", (r) => optionalNumber(r.keeper.lostRaceTransactions)),
  col('failedTransactionFees', 'DOUBLE', true, 'XLM', 'what the ledger charged for its failed transactions, lost races included; null in older reports', (r) => optionalNumber(r.keeper.failedTransactionFees)),
  col('feeStrategy', 'STRING', true, '', 'its fee strategy (keepers.fee): fixed N, feestats:pNN or profit:BPS; null in older reports', (r) => r.keeper.feeStrategy ?? null),
  col('feesPerWin', 'DOUBLE', true, 'XLM', 'its fees / its wins; null without wins or in older reports', (r) => optionalNumber(r.keeper.feesPerWin)),
  col('inclusionDelayP50', 'DOUBLE', true, 'ledgers', 'median ledgers from send to apply of its applied transactions; null in older reports', (r) => optionalNumber(r.keeper.inclusionDelay?.p50)),
  col('droppedTransactions', 'INT32', true, 'count', "its transactions the node's queue dropped without applying them; null in older reports", (r) => optionalNumber(r.keeper.droppedTransactions)),
  col('feeBumps', 'INT32', true, 'count', 'its fee bumps the node took in place of a queued transaction; null in older reports', (r) => optionalNumber(r.keeper.feeBumps)),
  col('inclusionDelayP95', 'DOUBLE', true, 'ledgers', '95th percentile (nearest rank) of its inclusion delay; null in older reports', (r) => optionalNumber(r.keeper.inclusionDelay?.p95)),
  col('laneCount', 'INT32', true, 'count', 'its submission lanes at the end: the operator and its channel accounts; null in older reports', (r) => optionalNumber(r.keeper.lanes?.count)),
  col('laneSent', 'STRING', true, '', 'JSON list, per lane (operator first): transactions the node accepted from it during the run; null in older reports', (r) => (r.keeper.lanes === undefined ? null : JSON.stringify(r.keeper.lanes.sent))),
  col('laneApplied', 'STRING', true, '', 'JSON list, per lane (operator first): transactions a close applied from it; null in older reports', (r) => (r.keeper.lanes === undefined ? null : JSON.stringify(r.keeper.lanes.applied))),
  col('tryAgainLater', 'INT32', true, 'count', 'its sends the node answered TRY_AGAIN_LATER (the account already had one queued); null in older reports', (r) => optionalNumber(r.keeper.lanes?.tryAgainLater)),
  col('salesPrimary', 'INT32', true, 'count', "its landed fills' swaps on the primary router's direct pair; null in older reports", (r) => optionalNumber(r.keeper.sales?.primary)),
  col('salesFallback', 'INT32', true, 'count', "its landed fills' swaps on the fallback router; null in older reports", (r) => optionalNumber(r.keeper.sales?.fallback)),
  col('salesVia', 'INT32', true, 'count', "its landed fills' swaps through another reserve on the primary router; null in older reports", (r) => optionalNumber(r.keeper.sales?.via)),
  col('salesComet', 'INT32', true, 'count', "its landed fills' swaps into a Comet pool; null in older reports", (r) => optionalNumber(r.keeper.sales?.comet)),
  col('salesSplit', 'INT32', true, 'count', 'its landed fills that sold a lot asset in two parts; null in older reports', (r) => optionalNumber(r.keeper.sales?.split)),
]

export interface SweepTables {
  runs: TableSpec<RunRowSource>
  auctions: TableSpec<AuctionRowSource>
  keepers: TableSpec<KeeperRowSource>
}

/** The three tables of a sweep over `grid`. */
export function sweepTables(grid: readonly SweepParam[]): SweepTables {
  const taken = new Set(['key', 'point', 'seed', ...[RUN_COLUMNS, AUCTION_COLUMNS, KEEPER_COLUMNS].flatMap((cs) => cs.map((c) => c.name))])
  const params = paramColumns(grid, taken)
  return {
    runs: { name: 'runs', columns: withIdentity(params, RUN_COLUMNS) },
    auctions: { name: 'auctions', columns: withIdentity(params, AUCTION_COLUMNS) },
    keepers: { name: 'keepers', columns: withIdentity(params, KEEPER_COLUMNS) },
  }
}
