import { describe, expect, it } from 'vitest'
import type { ExecutionView } from '../engine/index.js'
import type { Position } from '../sdk/index.js'
import { PoolBooks, poolFigures, poolsView, setPoolGauges } from './pools.js'

const A = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'
const B = 'CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC'

const pos = (pool: string, user: string, healthFactor: number | null): Position => ({ protocol: 'blend', pool, user, healthFactor })
const exec = (pool: string | null, stage: ExecutionView['stage']) => ({ pool, stage }) as ExecutionView

describe('per-pool figures', () => {
  it('counts borrowers, those below HF 1 and the lowest HF of each pool, in the configured order', () => {
    const books = new PoolBooks()
    const figures = poolFigures([B, A], [pos(A, 'u1', 0.97), pos(A, 'u2', 1.3), pos(B, 'u1', null), pos(B, 'u3', 0.99)], [], books)
    expect(figures.map((f) => [f.pool, f.borrowers, f.liquidatable, f.lowestHealthFactor])).toEqual([
      [B, 2, 1, 0.99],
      [A, 2, 1, 0.97],
    ])
  })

  it('books only landed liquidations, each in its own pool', () => {
    const books = new PoolBooks()
    books.fold(A, { drew: 100n, proceeds: 110n, profit: 10n })
    books.fold(A, { drew: 50n, proceeds: 0n, profit: 0n, success: false })
    books.fold(B, { drew: 7n, proceeds: 9n, profit: 2n, liquidation: true })
    books.fold(null, { drew: 1n, proceeds: 2n, profit: 1n })
    books.fold(B, { drew: 5n, proceeds: 6n, profit: 1n, liquidation: false })
    expect(books.get(A)).toEqual({ fills: 1, drew: 100n, proceeds: 110n, profit: 10n })
    expect(books.get(B)).toEqual({ fills: 1, drew: 7n, proceeds: 9n, profit: 2n })
  })

  it('counts active executions per pool and shows them only with the token', () => {
    const figures = poolFigures([A, B], [], [exec(A, 'planned'), exec(A, 'returned'), exec(B, 'due'), exec(B, 'drawn'), exec(null, 'planned')], new PoolBooks())
    expect(figures.map((f) => f.active)).toEqual([1, 2])
    expect(poolsView(figures, false)[0]).not.toHaveProperty('activeExecutions')
    expect(poolsView(figures, true)[1]).toMatchObject({ pool: B, activeExecutions: 2, drew: '0' })
  })

  it('adds a pool an execution names that is not configured, after the configured ones', () => {
    expect(poolFigures([A], [], [exec(B, 'planned')], new PoolBooks()).map((f) => f.pool)).toEqual([A, B])
  })

  it('sets the gauges with the pool label, NaN for a pool without a borrower in debt', () => {
    const set: string[] = []
    const gauge = (name: string) => ({ set: (l: { pool: string }, v: number) => set.push(`${name}{${l.pool.slice(0, 4)}} ${v}`) })
    setPoolGauges(
      { poolBorrowers: gauge('borrowers'), poolLiquidatable: gauge('liquidatable'), poolLowestHealthFactor: gauge('lowest') },
      poolFigures([A, B], [pos(A, 'u', 0.9)], [], new PoolBooks()),
    )
    expect(set).toEqual(['borrowers{CA3D} 1', 'liquidatable{CA3D} 1', 'lowest{CA3D} 0.9', 'borrowers{CDLZ} 0', 'liquidatable{CDLZ} 0', 'lowest{CDLZ} NaN'])
  })
})
