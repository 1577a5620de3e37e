/**
 * The lending pools the keepers watch (their /api/state `pools`): one row per keeper and pool,
 * in each keeper's configured order. Borrower counts are the keeper's last scan; fills, capital
 * drawn and gross profit are what that keeper's process filled there since it started.
 */
import { MISSING } from '../../../src/core/index.js'
import { formatAmount } from '../logic/amounts.js'
import type { KeeperResult } from './auctions.js'

export interface PoolRow {
  pool: string
  keeper: string
  borrowers: number
  liquidatable: number
  lowestHealthFactor: string
  fills: number
  drew: string
  profit: string
  /** Executions planned or in flight there; null when the keeper hides them (no API token). */
  active: number | null
}

export function poolRows(results: readonly KeeperResult[]): PoolRow[] {
  const rows: PoolRow[] = []
  for (const r of results) {
    for (const p of r.state?.pools ?? []) {
      rows.push({
        pool: p.pool,
        keeper: r.state?.keeperName || r.url,
        borrowers: p.borrowers,
        liquidatable: p.liquidatable,
        lowestHealthFactor: p.lowestHealthFactor === null ? `${MISSING} (no debt)` : p.lowestHealthFactor.toFixed(4),
        fills: p.fills,
        drew: formatAmount(p.drew),
        profit: formatAmount(p.profit),
        active: p.activeExecutions ?? null,
      })
    }
  }
  return rows
}

/** Whether the borrowers table needs a pool column: the positions name more than one pool. */
export function severalPools(rows: readonly { pool: string | null }[]): boolean {
  return new Set(rows.map((r) => r.pool).filter((p) => p !== null)).size > 1
}
