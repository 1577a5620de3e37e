/**
 * The positions-and-auctions store: every configured keeper's GET /api/state, refreshed every few
 * seconds, merged into one borrower table (health factor, core `taskPriority`) and one table of
 * open auctions (each keeper's planned or in-flight execution of it).
 */
import { createMemo, createResource, onCleanup } from 'solid-js'
import { MISSING, SCALAR_7, taskPriority } from '../../../src/core/index.js'
import { formatAmount } from '../logic/amounts.js'
import { fetchKeeperState, type KeeperExecution, type KeeperState } from '../clients/keeperApi.js'
import { auctionChartData, type AuctionChartData } from '../logic/auctionCurve.js'

/** One keeper's answer: its last good state, and the error of the last refresh if it failed. */
export interface KeeperResult {
  url: string
  state: KeeperState | undefined
  error: string | undefined
}

export interface BorrowerRow {
  address: string
  protocol: string
  /** The lending pool of the position, when the keeper names it. */
  pool: string | null
  /** The keeper's float health factor; null without debt. */
  healthFactor: number | null
  healthFactorText: string
  priority: 10 | 7 | 4 | 1
  collateral: string
  liabilities: string
  /** Keepers that report this borrower. */
  seenBy: string[]
}

const keeperName = (r: KeeperResult): string => r.state?.keeperName || r.url

/**
 * The health factor in the core's fixed point (7 decimals), rounded down: a borrower is never
 * shown safer, nor given a lower priority, than the keeper's figure says.
 */
export function healthFactorFixed(hf: number | null): bigint | null {
  if (hf === null || !Number.isFinite(hf)) return null
  return BigInt(Math.floor(hf * Number(SCALAR_7)))
}

const amountText = (v: bigint | null): string => (v === null ? MISSING : formatAmount(v))

/**
 * Borrowers from every keeper, one row per address and pool (the same borrower can be in two
 * pools; the freshest keeper's figures win), most urgent first: priority descending, then health
 * factor ascending (no debt last).
 */
export function borrowerRows(results: readonly KeeperResult[]): BorrowerRow[] {
  const byUser = new Map<string, { row: BorrowerRow; updatedAt: string }>()
  for (const r of results) {
    if (r.state === undefined) continue
    const updatedAt = r.state.updatedAt ?? ''
    for (const p of r.state.positions) {
      const id = `${p.pool ?? ''}:${p.user}`
      const seen = byUser.get(id)
      const seenBy = [...(seen?.row.seenBy ?? []), keeperName(r)]
      if (seen !== undefined && seen.updatedAt >= updatedAt) {
        seen.row.seenBy = seenBy
        continue
      }
      const hf = p.healthFactor !== null && Number.isFinite(p.healthFactor) ? p.healthFactor : null
      byUser.set(id, {
        updatedAt,
        row: {
          address: p.user,
          protocol: p.protocol,
          pool: p.pool,
          healthFactor: hf,
          healthFactorText: hf === null ? `${MISSING} (no debt)` : hf.toFixed(4),
          priority: taskPriority(healthFactorFixed(hf)),
          collateral: amountText(p.collateralBase),
          liabilities: amountText(p.liabilityBase),
          seenBy,
        },
      })
    }
  }
  return [...byUser.values()]
    .map((v) => v.row)
    .sort((a, b) => b.priority - a.priority || (a.healthFactor ?? Infinity) - (b.healthFactor ?? Infinity) || a.address.localeCompare(b.address))
}

/** Stages after which an execution is over. */
const FINAL_STAGES = new Set(['returned', 'lost', 'abandoned'])

export interface AuctionExecution {
  keeper: string
  stage: string
  path: string
  targetLedger: number
  capital: string
  /** `block 172, lot/bid 0.9736 vs MIN_PROFIT 1.0200` when the keeper reports progress. */
  progress: string | null
}

export interface AuctionRow {
  key: string
  label: string
  adapter: string
  executions: AuctionExecution[]
  /** The execution with the freshest progress: the input of the auction chart. */
  latest: KeeperExecution | undefined
  /**
   * What is left of the auction's lot, from the freshest progress that tells (`60.0 % of the lot
   * left`), or null when no keeper tells.
   */
  left: string | null
}

/** The freshest progress's left percent as text (see AuctionRow.left). */
function leftText(e: KeeperExecution | undefined): string | null {
  const p = e?.progress?.leftPercent
  return p === null || p === undefined ? null : `${p.toFixed(1)} % of the lot left`
}

function progressText(e: KeeperExecution): string | null {
  const p = e.progress
  if (p === null) return null
  const ratio = p.ratio === null ? 'free bid' : `lot/bid ${(Number(p.ratio) / 1e7).toFixed(4)}`
  return `block ${p.offset}, ${ratio} vs MIN_PROFIT ${(Number(p.minProfit) / 1e7).toFixed(4)}`
}

/** Open auctions: executions not yet over, grouped by their key across keepers. */
export function auctionRows(results: readonly KeeperResult[]): AuctionRow[] {
  const byKey = new Map<string, AuctionRow>()
  for (const r of results) {
    for (const e of r.state?.executions ?? []) {
      if (FINAL_STAGES.has(e.stage)) continue
      let row = byKey.get(e.key)
      if (row === undefined) {
        row = { key: e.key, label: e.label, adapter: e.adapter, executions: [], latest: undefined, left: null }
        byKey.set(e.key, row)
      }
      row.executions.push({ keeper: keeperName(r), stage: e.stage, path: e.path, targetLedger: e.targetLedger, capital: formatAmount(e.capital), progress: progressText(e) })
      if (e.progress !== null && (row.latest?.progress == null || e.progress.ledger > row.latest.progress.ledger)) row.latest = e
    }
  }
  for (const row of byKey.values()) row.left = leftText(row.latest)
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key))
}

/** The auction chart's data for a row, from its freshest execution (see logic/auctionCurve.ts). */
export function auctionChartFor(row: AuctionRow | undefined): AuctionChartData | null {
  const e = row?.latest
  if (e === undefined || e.progress === null) return null
  const p = e.progress
  // The progress is for a fill in ledger `p.ledger + 1`, `p.offset` blocks after the start.
  const start = p.ledger + 1 - p.offset
  return auctionChartData({ offset: p.offset, ratio: p.ratio, capital: e.capital, targetOffset: e.targetLedger - start, minProfit: p.minProfit })
}

export interface AuctionsStore {
  results: () => KeeperResult[]
  borrowers: () => BorrowerRow[]
  auctions: () => AuctionRow[]
  refresh: () => void
}

/**
 * The store: one resource keyed by the keeper URLs, refetched every `refreshMs` while its owner
 * lives. `token` is the keepers' API token (Settings), sent so they show their planned executions.
 */
export function createAuctionsStore(urls: () => readonly string[], refreshMs = 3000, token: () => string | undefined = () => undefined): AuctionsStore {
  const key = createMemo(() => urls().join('\n'))
  const last = new Map<string, KeeperState>()
  const [load, { refetch }] = createResource(key, async (joined): Promise<KeeperResult[]> => {
    const list = joined === '' ? [] : joined.split('\n')
    return Promise.all(
      list.map(async (url): Promise<KeeperResult> => {
        try {
          const state = await fetchKeeperState(url, { token: token() })
          last.set(url, state)
          return { url, state, error: undefined }
        } catch (err) {
          return { url, state: last.get(url), error: err instanceof Error ? err.message : String(err) }
        }
      }),
    )
  })
  const timer = setInterval(() => {
    if (!load.loading) void refetch()
  }, refreshMs)
  onCleanup(() => clearInterval(timer))
  const results = () => (load.state === 'ready' || load.state === 'refreshing' ? (load.latest ?? []) : [])
  const borrowers = createMemo(() => borrowerRows(results()))
  const auctions = createMemo(() => auctionRows(results()))
  return { results, borrowers, auctions, refresh: () => void refetch() }
}
