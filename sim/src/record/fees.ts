/**
 * What the keepers paid to be included, and how long they waited: fees per keeper and per win,
 * the share of the vault's profit spent on fees by all keepers, the inclusion delay of every
 * keeper transaction a close applied, and wins grouped by fee strategy. Read from the mempool's
 * journal and the node's answers (sim/src/record/transactions.ts).
 */
import type { KeeperTx } from './transactions.js'

/** Nearest-rank percentile of ascending values (q in 0..1); null without values. */
export function nearestRank(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

/** Ledgers from send to apply, as nearest-rank p50 and p95 over transactions (null without any). */
export interface DelayFigures {
  p50: number | null
  p95: number | null
}

export interface StrategyWins {
  /** The fee strategy as keepers.fee gives it: `fixed 100`, `feestats:p90`, `profit:2000`. */
  strategy: string
  keepers: number
  /** Auctions its keepers filled (first fill). */
  wins: number
  /** XLM its keepers were charged in all. */
  feesXlm: number
}

export interface FeeSummary {
  /** Who ordered each ledger: the sim by latency, or the node (stellar-core's selection and order). */
  ordering: 'latency' | 'core'
  /** XLM charged on every keeper transaction a close applied (fills, auctions, returns; failed ones too). */
  keepersXlm: number
  /** keepersXlm / auctions won by any keeper; null without wins. */
  perWinXlm: number | null
  /** The XLM price (USD) the fees are valued at. */
  xlmPriceUsd: number
  /** keepersXlm in USD / the vault's profit over the run; null when the vault made none. */
  shareOfVaultProfit: number | null
  /** Ledgers from send to apply of the keepers' applied transactions (0: the ledger it was sent in). */
  inclusionDelay: DelayFigures
  /** Keeper transactions the node's queue dropped without applying them (not included in 4 closes, or no longer valid). */
  droppedTransactions: number
  /** Fee bumps the node took in place of a keeper transaction it had left queued. */
  feeBumps: number
  winsByStrategy: StrategyWins[]
  /** Other users' transactions (scenario chain.background); null without background load. */
  background: { sent: number; applied: number; dropped: number } | null
}

export interface KeeperFeeFigures {
  feeStrategy: string
  /** Its fees / its wins; null without wins. */
  feesPerWin: number | null
  inclusionDelay: DelayFigures
  /** Its transactions the node's queue dropped without applying them. */
  droppedTransactions: number
  /** Its fee bumps the node took in place of a queued transaction (FEE_BUMP_LEDGERS). */
  feeBumps: number
}

const r7 = (x: number) => Math.round(x * 1e7) / 1e7

/** Ledgers a transaction waited: applied ledger − the ledger being built when it was sent. */
export function inclusionDelays(txs: readonly KeeperTx[]): number[] {
  return txs.map((t) => t.ledger - t.submittedLedger).sort((a, b) => a - b)
}

export function delayFigures(sorted: readonly number[]): DelayFigures {
  return { p50: nearestRank(sorted, 0.5), p95: nearestRank(sorted, 0.95) }
}

export function keeperFeeFigures(
  k: { name: string; feeStrategy: string; feesPaid: number; wins: number },
  txs: readonly KeeperTx[],
  dropped: ReadonlyMap<string, number>,
  bumps: ReadonlyMap<string, number>,
): KeeperFeeFigures {
  return {
    feeStrategy: k.feeStrategy,
    feesPerWin: k.wins === 0 ? null : r7(k.feesPaid / k.wins),
    inclusionDelay: delayFigures(inclusionDelays(txs.filter((t) => t.agent === k.name))),
    droppedTransactions: dropped.get(k.name) ?? 0,
    feeBumps: bumps.get(k.name) ?? 0,
  }
}

export function feeSummary(p: {
  ordering: 'latency' | 'core'
  keepers: readonly { feeStrategy: string; feesPaid: number; wins: number; droppedTransactions: number; feeBumps: number }[]
  transactions: readonly KeeperTx[]
  vaultProfit: number
  xlmPriceUsd: number
  background: FeeSummary['background']
}): FeeSummary {
  const fees = r7(p.keepers.reduce((t, k) => t + k.feesPaid, 0))
  const wins = p.keepers.reduce((t, k) => t + k.wins, 0)
  const groups = new Map<string, StrategyWins>()
  for (const k of p.keepers) {
    const g = groups.get(k.feeStrategy) ?? { strategy: k.feeStrategy, keepers: 0, wins: 0, feesXlm: 0 }
    g.keepers++
    g.wins += k.wins
    g.feesXlm = r7(g.feesXlm + k.feesPaid)
    groups.set(k.feeStrategy, g)
  }
  return {
    ordering: p.ordering,
    keepersXlm: fees,
    perWinXlm: wins === 0 ? null : r7(fees / wins),
    xlmPriceUsd: p.xlmPriceUsd,
    shareOfVaultProfit: p.vaultProfit > 0 ? r7((fees * p.xlmPriceUsd) / p.vaultProfit) : null,
    inclusionDelay: delayFigures(inclusionDelays(p.transactions)),
    droppedTransactions: p.keepers.reduce((n, k) => n + k.droppedTransactions, 0),
    feeBumps: p.keepers.reduce((n, k) => n + k.feeBumps, 0),
    winsByStrategy: [...groups.values()].sort((a, b) => (a.strategy < b.strategy ? -1 : a.strategy > b.strategy ? 1 : 0)),
    background: p.background,
  }
}
