/**
 * Turns a finished run into its report: per-auction outcomes from the chain's events (with the
 * core's first profitable ledger), per-keeper results, the headline figures.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { addr, read } from '../../../src/chain/index.js'
import { apyDisplay } from '../../../src/core/index.js'
import { minProfitScaled, planFill } from '../../../src/keeper/adapters/blend/auctionPlan.js'
import { AuctionType } from '../../../src/keeper/adapters/blend/storage.js'
import { describeSource } from './source.js'
import type { World } from '../../../src/world/index.js'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import type { ScenarioKeeper } from '../agents/keepers.js'
import { fillKey, type FillValuation } from '../replay/replay.js'
import type { AttackResult, AttackSummary, AuctionFillResult, AuctionResult, AuditResult, KeeperResult, PoolSummary, Report, ReplayResult, RunEvent, Series } from '../report/types.js'
import { REPORT_SCHEMA_VERSION } from '../report/types.js'
import { feeLabel } from '../scenario/chainSchema.js'
import type { LoadedScenario } from '../scenario/load.js'
import { fillsByAuction, remainingPercent } from './auctionFills.js'
import type { AuctionFilled, RunEvents } from '../../../src/world/runEvents.js'
import { competition, fillProfitOf, type CompetitionInput, type KeeperCompetition } from './competition.js'
import type { Observer, VaultSnapshot, VaultTerms } from './observer.js'
import { vaultSharePrice } from './recorder.js'
import { feeSummary, keeperFeeFigures, nearestRank } from './fees.js'
import { keeperLanes } from './lanes.js'
import { saleCounts, sumSales } from './sales.js'
import { annualisedReturn, runWarnings } from './runEnd.js'
import { strategyResults } from './strategies.js'
import type { KeeperTx } from './transactions.js'

const r7 = (x: number) => Math.round(x * 1e7) / 1e7
const nullableR7 = (x: number | null) => (x === null ? null : r7(x))
const usd = (x: bigint) => r7(Number(x) / 1e7)
/** Blocks after which an unfilled auction's bid has scaled to nothing (Blend v2: 400). */
const EXPIRY_BLOCKS = 400
/** Blocks after which the pool lets anyone delete an auction (Blend v2: 500): what is left then is lost. */
const STALE_BLOCKS = 500

export interface ReportInput {
  loaded: LoadedScenario
  seed: number
  steps: number
  startLedger: number
  endLedger: number
  fastForwarded: number
  /** Every keeper of the population in index order: daemons and strategy agents. */
  keepers: ScenarioKeeper[]
  world: World
  observer: Observer
  chainEvents: RunEvents
  /** Every keeper transaction the mempool applied, read back from the node. */
  transactions: KeeperTx[]
  series: Series
  replay: ReplayResult
  /** The core replay's valuation of each user liquidation's fill (by fillKey). */
  fillValuations: ReadonlyMap<string, FillValuation>
  audit: AuditResult
  events: RunEvent[]
  startVault: VaultSnapshot
  endVault: VaultSnapshot
  /** The vault's keeper fee and unlock period (`get_config`). */
  vaultTerms: VaultTerms
  /** The adversaries' attempts (sim/src/agents/adversaries). */
  attacks: AttackResult[]
  /** Borrowers' liabilities when the run started (USD at oracle prices). */
  borrowedStart: number
  /** The same per pool, in `observer.pools` order (multi-pool runs; default: none known). */
  borrowedStartByPool?: readonly number[]
  /** Keeper transactions the node's queue dropped, per keeper name. */
  droppedBy: ReadonlyMap<string, number>
  /** Keeper fee bumps the node took, per keeper name. */
  bumpsBy: ReadonlyMap<string, number>
  /** Transactions the node accepted during the run, per source account (each keeper's lanes). */
  sentBySource: ReadonlyMap<string, number>
  /** Sends answered TRY_AGAIN_LATER, per keeper name. */
  tryAgainLaterBy: ReadonlyMap<string, number>
  /** Other users' transactions sent, applied and dropped (scenario chain.background). */
  background: { sent: number; applied: number; dropped: number } | null
}

const percentile = nearestRank

const KIND: Record<number, AuctionResult['kind']> = { [AuctionType.UserLiquidation]: 'liquidation', [AuctionType.BadDebt]: 'bad-debt', [AuctionType.Interest]: 'interest' }

/** Each auction's first fill and end, the keepers' transactions, answers and lifetimes, for competition.ts. */
function competitionInput(p: ReportInput, nameOf: ReadonlyMap<string, string>, fills: readonly AuctionFilled[][]): CompetitionInput {
  return {
    auctions: p.chainEvents.auctions.map((a, i) => {
      const fill = fills[i]![0]
      const expiry = a.auction.block + EXPIRY_BLOCKS
      return {
        type: a.type,
        user: a.user,
        createdLedger: a.ledger,
        endLedger: fill !== undefined ? fill.ledger : p.endLedger >= expiry ? expiry : null,
        fill: fill === undefined ? null : { ledger: fill.ledger, txHash: fill.txHash, address: fill.filler, keeper: nameOf.get(fill.filler) ?? null },
      }
    }),
    keepers: p.keepers.map((k) => ({ name: k.spec.name, address: k.address, alive: k.aliveSpans, decisions: k.decisions })),
    transactions: p.transactions,
    vault: p.chainEvents.vault,
  }
}

function auctions(p: ReportInput): { list: AuctionResult[]; keepers: Map<string, KeeperCompetition> } {
  const nameOf = new Map<string, string>(p.keepers.flatMap((k) => [[k.address, k.spec.name], [k.operator, k.spec.name]] as [string, string][]))
  const minProfit = Math.min(...p.keepers.map((k) => k.spec.minProfit))
  const multi = p.observer.pools.length > 1
  const byAuction = fillsByAuction(p.chainEvents.auctions, p.chainEvents.fills)
  const race = competition(competitionInput(p, nameOf, byAuction))
  const fillResult = (f: AuctionFilled): AuctionFillResult => {
    const v = p.fillValuations.get(fillKey(f.type, f.user, f.ledger))
    return {
      ledger: f.ledger,
      percent: Number(f.percent),
      filledBy: nameOf.get(f.filler) ?? f.filler,
      profit: fillProfitOf({ ledger: f.ledger, txHash: f.txHash, address: f.filler, keeper: null }, p.chainEvents.vault),
      lotValue: v?.lotValue === null || v === undefined ? null : usd(v.lotValue),
      bidValue: v?.bidCost === null || v === undefined ? null : usd(v.bidCost),
      txHash: f.txHash,
    }
  }
  const list = p.chainEvents.auctions.map((a, i): AuctionResult => {
    const fills = byAuction[i]!
    const fill = fills[0]
    const left = remainingPercent(fills.map((f) => f.percent))
    let first: number | null = null
    let sellable: number | null = null
    let lotValue: number | null = null
    let bidValue: number | null = null
    const valued = fill !== undefined ? p.fillValuations.get(fillKey(fill.type, fill.user, fill.ledger)) : undefined
    if (valued !== undefined) {
      // Valued on the state the filling keeper saw.
      first = valued.firstProfitableLedger
      sellable = valued.firstSellableLedger ?? null
      lotValue = valued.lotValue === null ? null : usd(valued.lotValue)
      bidValue = valued.bidCost === null ? null : usd(valued.bidCost)
    } else if (a.type === AuctionType.UserLiquidation && p.observer.scanOf(a.pool) !== undefined) {
      const scan = p.observer.scanOf(a.pool)!
      // Not filled (or filled without a view of the ledger before): the latest state.
      const plan = planFill({ auction: a.auction, reserves: scan.valuation.reserves, prices: scan.prices.prices, minProfit: minProfitScaled(minProfit), fromBlock: a.auction.block })
      first = plan?.block ?? null
    }
    const outcome: AuctionResult['outcome'] = left === 0 ? 'filled' : p.endLedger - a.auction.block >= STALE_BLOCKS ? 'expired' : 'open'
    return {
      id: `${multi ? `${a.pool}:` : ''}${a.user}:${KIND[a.type] ?? a.type}:${a.ledger}`,
      user: a.user,
      ...(multi && a.pool !== undefined ? { pool: a.pool } : {}),
      kind: KIND[a.type] ?? 'liquidation',
      createdLedger: a.ledger,
      firstProfitableLedger: first,
      filledLedger: fill?.ledger ?? null,
      filledBy: fill === undefined ? null : (nameOf.get(fill.filler) ?? fill.filler),
      fillDelay: fill !== undefined && first !== null ? Math.max(0, fill.ledger - first) : null,
      firstSellableLedger: sellable,
      fillDelaySale: fill !== undefined && sellable !== null ? Math.max(0, fill.ledger - sellable) : null,
      fillLatencyMs: race.auctions[i]!.fillLatencyMs,
      fillFee: race.auctions[i]!.fillFee,
      fillProfit: race.auctions[i]!.fillProfit,
      contenders: race.auctions[i]!.contenders,
      lotValue,
      bidValue,
      outcome,
      fills: fills.map(fillResult),
      remainingPercent: left,
    }
  })
  return { list, keepers: race.keepers }
}

/** USDC of a keeper's operator and executor plus its stake in the registry (7 decimals). */
export async function holdings(world: World, observer: Observer, k: Pick<ScenarioKeeper, 'operator' | 'address'>): Promise<bigint> {
  let total = await world.balance('USDC', k.operator)
  if (k.address !== k.operator) total += await world.balance('USDC', k.address)
  const info = await read<Record<string, bigint>>(observer.chain, world.service!.registry, 'get_keeper', [addr(k.address)]).catch(() => ({}) as Record<string, bigint>)
  return total + BigInt(info.stake ?? 0n)
}

async function keepers(p: ReportInput, list: AuctionResult[], race: ReadonlyMap<string, KeeperCompetition>): Promise<KeeperResult[]> {
  const fills = list.filter((a) => a.outcome === 'filled').length
  const out: KeeperResult[] = []
  for (const k of p.keepers) {
    const wins = list.filter((a) => a.filledBy === k.spec.name).length
    const failed = k.failedTransactions()
    const lostRaces = failed.byReason['lost_race'] ?? 0
    // Its settled executions: two-step returns and atomic flash draws.
    const returns = p.chainEvents.vault.filter((v) => (v.kind === 'return' || v.kind === 'flash') && v.address === k.address)
    const slashes = p.chainEvents.slashes.filter((s) => s.keeper === k.address)
    const counts = k.finishedCounts()
    const c = race.get(k.spec.name) ?? { losses: 0, missed: 0, unprofitable: 0, feesPaid: 0 }
    const end = await holdings(p.world, p.observer, k)
    out.push({
      index: k.spec.index,
      name: k.spec.name,
      address: k.address,
      operator: k.operator,
      strategy: k.spec.strategy,
      path: k.spec.path,
      minProfit: k.spec.minProfit,
      pollIntervalLedgers: k.spec.pollLedgers,
      wins,
      losses: c.losses,
      missed: c.missed,
      unprofitable: c.unprofitable,
      abandoned: counts.abandoned,
      profit: usd(end - k.startBalance),
      vaultProfit: usd(returns.reduce((t, r) => t + (r.data.profit ?? 0n), 0n)),
      rewards: usd(returns.reduce((t, r) => t + (r.data.fee ?? 0n), 0n)),
      winRate: fills === 0 ? 0 : r7(wins / fills),
      crashed: k.crashed,
      slashed: usd(slashes.reduce((t, s) => t + (s.data.slashed ?? 0n), 0n)),
      feesPaid: c.feesPaid,
      fills: list.reduce((n, a) => n + a.fills.filter((f) => f.filledBy === k.spec.name).length, 0),
      failedTransactions: failed.total - lostRaces,
      lostRaceTransactions: lostRaces,
      failedTransactionFees: usd(failed.feesStroops),
      ...keeperFeeFigures({ name: k.spec.name, feeStrategy: feeLabel(k.spec.fee), feesPaid: c.feesPaid, wins }, p.transactions, p.droppedBy, p.bumpsBy),
      lanes: keeperLanes({
        accounts: k.laneAccounts(),
        sentBySource: p.sentBySource,
        applied: p.transactions.filter((t) => t.agent === k.spec.name),
        tryAgainLater: p.tryAgainLaterBy.get(k.spec.name) ?? 0,
      }),
      sales: saleCounts(k.fillSales?.() ?? []),
    })
  }
  return out
}

/** USDC each two-step keeper still owed the vault at the end (`get_keeper_draw`), by name; atomic keepers never hold a draw. */
async function drawsAtEnd(p: ReportInput): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const k of p.keepers) {
    if (k.spec.path !== 'two-step') continue
    const drawn = await read<bigint>(p.observer.chain, p.world.service!.vault, 'get_keeper_draw', [addr(k.address)]).catch(() => 0n)
    out.set(k.spec.name, usd(BigInt(drawn)))
  }
  return out
}

function versions(): Report['versions'] {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> }
  return { harness: pkg.version, stellarSdk: pkg.dependencies['@stellar/stellar-sdk'] ?? '', sorobanHost: '28.0.2', blend: '2.25.0', protocol: 28 }
}

export async function buildReport(p: ReportInput): Promise<Report> {
  const { list, keepers: race } = auctions(p)
  const ks = await keepers(p, list, race)
  const delays = list.flatMap((a) => (a.fillDelay === null ? [] : [a.fillDelay])).sort((a, b) => a - b)
  const saleDelays = list.flatMap((a) => (a.fillDelaySale === null || a.fillDelaySale === undefined ? [] : [a.fillDelaySale])).sort((a, b) => a - b)
  const spStart = vaultSharePrice(p.startVault)
  const spEnd = vaultSharePrice(p.endVault)
  const fees = p.chainEvents.vault.filter((v) => v.kind === 'return' || v.kind === 'flash').reduce((t, v) => t + (v.data.fee ?? 0n), 0n)
  const apy = apyDisplay(p.series.ledger.map((_, i) => ({ timestamp: p.series.time[i]!, price: BigInt(Math.round(p.series.sharePrice[i]! * 1e7)) })))
  const missed = missedBorrowers(p)
  const s = p.loaded.scenario
  const util = p.series.totalUsdc.map((u, i) => (u > 0 ? p.series.activeLiq[i]! / u : 0))
  const source = describeSource(p.world)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    scenario: { name: s.name, description: s.description, hash: p.loaded.hash, resolved: s },
    seed: p.seed,
    versions: versions(),
    run: { ledgerSeconds: s.run.ledgerSeconds, ledgers: p.steps, startLedger: p.startLedger, endLedger: p.endLedger, fastForwardedLedgers: p.fastForwarded },
    summary: {
      lpReturn: r7(spEnd / spStart - 1),
      lpApy: { kind: apy.kind, value: apy.value === null ? null : r7(apy.value), text: apy.text },
      lpApyAnnualised: nullableR7(annualisedReturn(r7(spEnd / spStart - 1), p.steps * s.run.ledgerSeconds)),
      warnings: runWarnings(list, p.endLedger, s.run.ledgerSeconds),
      sharePriceStart: r7(spStart),
      sharePriceEnd: r7(spEnd),
      vaultProfit: usd(p.endVault.totalProfit - p.startVault.totalProfit),
      keeperRewards: usd(fees),
      lockedProfitEnd: usd(p.endVault.locked),
      vaultTerms: { ...p.vaultTerms },
      attacks: attackSummary(p.attacks),
      auctions: {
        created: list.length,
        filled: list.filter((a) => a.outcome === 'filled').length,
        expired: list.filter((a) => a.outcome === 'expired').length,
        open: list.filter((a) => a.outcome === 'open').length,
      },
      fills: list.reduce((n, a) => n + a.fills.length, 0),
      failedTransactions: ks.reduce((n, k) => n + k.failedTransactions, 0),
      lostRaceTransactions: ks.reduce((n, k) => n + k.lostRaceTransactions, 0),
      sales: sumSales(ks.map((k) => k.sales)),
      missed,
      fillDelay: { median: percentile(delays, 0.5), p95: percentile(delays, 0.95), max: delays.length === 0 ? null : delays[delays.length - 1]! },
      fillDelaySale: { median: percentile(saleDelays, 0.5), p95: percentile(saleDelays, 0.95), max: saleDelays.length === 0 ? null : saleDelays[saleDelays.length - 1]! },
      badDebt: r7(p.observer.badDebt()),
      borrowedStart: r7(p.borrowedStart),
      insolventDebt: r7(p.observer.badDebt() + p.observer.debt().underwater),
      liquidatedCollateral: r7(list.reduce((t, a) => t + (a.kind === 'liquidation' ? a.fills.reduce((u, f) => u + (f.lotValue ?? 0), 0) : 0), 0)),
      slashes: p.chainEvents.slashes.length,
      keeperProfit: r7(ks.reduce((t, k) => t + k.profit, 0)),
      peakUtilisation: r7(Math.max(0, ...util)),
      replayMismatches: p.replay.checks.reduce((n, c) => n + c.mismatches, 0),
      auditHolds: p.audit.holds,
      fees: feeSummary({
        ordering: s.chain.ordering,
        keepers: ks,
        transactions: p.transactions,
        vaultProfit: usd(p.endVault.totalProfit - p.startVault.totalProfit),
        xlmPriceUsd: s.chain.xlmPrice,
        background: p.background,
      }),
      ...(p.observer.pools.length > 1 ? { pools: poolSummaries(p, list) } : {}),
    },
    keepers: ks,
    strategies: strategyResults(ks, await drawsAtEnd(p)),
    auctions: list,
    replay: p.replay,
    audit: p.audit,
    series: p.series,
    events: [...p.events].sort((a, b) => a.ledger - b.ledger || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)),
    attacks: p.attacks,
    ...(source === undefined ? {} : { source }),
  }
}

/** Per pool (in `observer.pools` order): its borrowers liquidatable at the end that never got an auction. */
function missedByPool(p: ReportInput): number[] {
  return p.observer.pools.map((pool, k) => {
    const liquidated = new Set(p.chainEvents.auctions.filter((a) => p.observer.poolIndex(a.pool) === k).map((a) => a.user))
    return p.observer.scans[k]?.borrowers.filter((b) => b.liquidatable && !liquidated.has(b.user)).length ?? 0
  })
}

/** Borrowers liquidatable at the end that never got an auction, over every pool. */
function missedBorrowers(p: ReportInput): number {
  return missedByPool(p).reduce((t, n) => t + n, 0)
}

/** `Summary.pools`: each pool's auctions, fills, misses and bad debt. */
function poolSummaries(p: ReportInput, list: readonly AuctionResult[]): PoolSummary[] {
  const missed = missedByPool(p)
  return p.observer.pools.map((pool, k) => {
    const mine = list.filter((a) => p.observer.poolIndex(a.pool) === k)
    const fills = mine.flatMap((a) => a.fills)
    return {
      pool,
      borrowers: p.world.borrowers.filter((b) => b.pool === pool).length,
      auctions: {
        created: mine.length,
        filled: mine.filter((a) => a.outcome === 'filled').length,
        expired: mine.filter((a) => a.outcome === 'expired').length,
        open: mine.filter((a) => a.outcome === 'open').length,
      },
      fills: fills.length,
      missed: missed[k]!,
      badDebt: r7(p.observer.badDebt(k)),
      borrowedStart: r7(p.borrowedStartByPool?.[k] ?? 0),
      bidPaid: r7(fills.reduce((t, f) => t + (f.bidValue ?? 0), 0)),
      liquidatedCollateral: r7(mine.reduce((t, a) => t + (a.kind === 'liquidation' ? a.fills.reduce((u, f) => u + (f.lotValue ?? 0), 0) : 0), 0)),
      vaultProfit: r7(fills.reduce((t, f) => t + f.profit, 0)),
    }
  })
}

/** The attacks in brief; null without any. */
export function attackSummary(attacks: readonly AttackResult[]): AttackSummary | null {
  if (attacks.length === 0) return null
  return {
    attempts: attacks.length,
    refused: attacks.filter((a) => a.refusedBy.length > 0).length,
    maxGain: Math.max(...attacks.map((a) => a.gain)),
    maxDepositorLoss: Math.max(...attacks.map((a) => a.depositorLoss)),
  }
}
