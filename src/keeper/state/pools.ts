/**
 * Per-pool figures of a keeper that watches several lending pools (LENDING_POOLS): what each pool
 * holds now (borrowers, those below the liquidation threshold, the lowest health factor, the
 * executions planned or in flight) and what this process filled in it since start. /api/state
 * shows them as `pools`, /metrics as the `service_pool_*{pool}` families.
 */
import type { ExecutionView } from '../engine/index.js'
import type { Position, Result } from '../sdk/index.js'

/** What this process filled in one pool since start (liquidations that landed). */
export interface PoolTotals {
  fills: number
  /** USDC drawn for them, 7 decimals. */
  drew: bigint
  proceeds: bigint
  profit: bigint
}

export interface PoolFigures extends PoolTotals {
  pool: string
  /** Borrowers the last scan read in the pool. */
  borrowers: number
  /** Of those, below the liquidation threshold (health factor < 1). */
  liquidatable: number
  /** The lowest health factor among them; null without a borrower in debt. */
  lowestHealthFactor: number | null
  /** Executions planned, due or firing in the pool (a strategy detail). */
  active: number
}

const ACTIVE = new Set(['planned', 'due', 'drawn', 'filled', 'swapped'])

/** Totals per pool, folded one result at a time. */
export class PoolBooks {
  private readonly totals = new Map<string, PoolTotals>()

  /** A finished execution in `pool`: counted when it was a liquidation that landed. */
  fold(pool: string | null | undefined, r: Pick<Result, 'drew' | 'proceeds' | 'profit' | 'success' | 'liquidation'>): void {
    if (pool === undefined || pool === null) return
    if (r.success === false || r.liquidation === false) return
    const t = this.totals.get(pool) ?? { fills: 0, drew: 0n, proceeds: 0n, profit: 0n }
    t.fills++
    t.drew += r.drew
    t.proceeds += r.proceeds
    t.profit += r.profit
    this.totals.set(pool, t)
  }

  get(pool: string): PoolTotals {
    return { ...(this.totals.get(pool) ?? { fills: 0, drew: 0n, proceeds: 0n, profit: 0n }) }
  }
}

/**
 * The figures of each pool, in the configured order (`pools`), then any other pool a position or
 * an execution names.
 */
export function poolFigures(pools: readonly string[], positions: readonly Position[], executions: readonly ExecutionView[], books: PoolBooks): PoolFigures[] {
  const order = [...pools]
  for (const p of positions) if (p.pool !== undefined && !order.includes(p.pool)) order.push(p.pool)
  for (const e of executions) if (e.pool !== null && !order.includes(e.pool)) order.push(e.pool)
  return order.map((pool) => {
    const mine = positions.filter((p) => p.pool === pool)
    const inDebt = mine.map((p) => p.healthFactor).filter((h): h is number => h !== null)
    return {
      pool,
      borrowers: mine.length,
      liquidatable: inDebt.filter((h) => h < 1).length,
      lowestHealthFactor: inDebt.length === 0 ? null : Math.min(...inDebt),
      active: executions.filter((e) => e.pool === pool && ACTIVE.has(e.stage)).length,
      ...books.get(pool),
    }
  })
}

/** /api/state's `pools`: amounts as decimal strings of 7-decimal integers; `active` only with the token. */
export function poolsView(figures: readonly PoolFigures[], details: boolean) {
  return figures.map((f) => ({
    pool: f.pool,
    borrowers: f.borrowers,
    liquidatable: f.liquidatable,
    lowestHealthFactor: f.lowestHealthFactor,
    fills: f.fills,
    drew: f.drew.toString(),
    proceeds: f.proceeds.toString(),
    profit: f.profit.toString(),
    ...(details ? { activeExecutions: f.active } : {}),
  }))
}

interface PoolGauge {
  set(labels: { pool: string }, value: number): void
}

/** The `service_pool_*{pool}` gauges from the figures (the counters are kept by recordResult). */
export function setPoolGauges(m: { poolBorrowers: PoolGauge; poolLiquidatable: PoolGauge; poolLowestHealthFactor: PoolGauge }, figures: readonly PoolFigures[]): void {
  for (const f of figures) {
    m.poolBorrowers.set({ pool: f.pool }, f.borrowers)
    m.poolLiquidatable.set({ pool: f.pool }, f.liquidatable)
    m.poolLowestHealthFactor.set({ pool: f.pool }, f.lowestHealthFactor ?? Number.NaN)
  }
}
