import { describe, expect, it } from 'vitest'
import { KEEP_LEDGERS, SaleReservations } from './saleReservations.js'

describe('SaleReservations', () => {
  const pool = { reserveIn: 1000n, reserveOut: 500n }
  it('shows a pool after the sales reserved for the same ledger only', () => {
    const r = new SaleReservations()
    expect(r.adjust(10, 'XLM', pool)).toBe(pool)
    r.reserve(10, { XLM: { amountIn: 100n, out: 45n } })
    r.reserve(10, { XLM: { amountIn: 50n, out: 20n }, WETH: { amountIn: 1n, out: 1n } })
    expect(r.adjust(10, 'XLM', pool)).toEqual({ reserveIn: 1150n, reserveOut: 435n })
    expect(r.adjust(11, 'XLM', pool)).toBe(pool)
    expect(r.adjust(10, 'WBTC', pool)).toBe(pool)
    r.reserve(12, { XLM: { amountIn: 1n, out: 1n } })
    expect(r.adjust(12, 'XLM', { reserveIn: 1n, reserveOut: 0n })).toEqual({ reserveIn: 2n, reserveOut: 0n })
    // a valuation that has seen only ledger 9 counts every sale sent for 10..12
    expect(r.adjust(12, 'XLM', pool, 9)).toEqual({ reserveIn: 1151n, reserveOut: 434n })
    expect(r.adjust(12, 'XLM', pool, 10)).toEqual({ reserveIn: 1001n, reserveOut: 499n })
    // reservations more than KEEP_LEDGERS old are forgotten
    r.reserve(12 + KEEP_LEDGERS + 1, {})
    expect(r.adjust(12, 'XLM', pool, 9)).toBe(pool)
  })
  it('takes a fill across venues off each pool it passes through, in the direction sold', () => {
    const r = new SaleReservations()
    const pair = { id: 'PAIR', tokenIn: 'XLM', pool }
    const comet = { id: 'COMET', tokenIn: 'XLM', pool: { kind: 'weighted' as const, balanceIn: 1000n, weightIn: 1n, balanceOut: 500n, weightOut: 1n, fee: 30_000n } }
    r.reserveFlows(10, [
      { id: 'PAIR', tokenIn: 'XLM', amountIn: 100n, out: 45n },
      { id: 'COMET', tokenIn: 'XLM', amountIn: 10n, out: 4n },
    ])
    expect(r.adjustHop(10, pair).pool).toEqual({ reserveIn: 1100n, reserveOut: 455n })
    expect(r.adjustHop(10, comet).pool).toMatchObject({ balanceIn: 1010n, balanceOut: 496n })
    // the same pair sold the other way is untouched
    const back = { id: 'PAIR', tokenIn: 'USDC', pool }
    expect(r.adjustHop(10, back)).toBe(back)
    expect(r.adjustHop(11, pair)).toBe(pair)
  })
  it('values as if n more fills like one had sold first, and keeps none of it', async () => {
    const r = new SaleReservations()
    r.reserve(10, { XLM: { amountIn: 100n, out: 45n } })
    const fill = { sales: { XLM: { amountIn: 10n, out: 4n } } }
    const seen = await r.assuming(10, fill, 3, async () => r.adjust(10, 'XLM', pool))
    expect(seen).toEqual({ reserveIn: 1130n, reserveOut: 443n })
    expect(r.adjust(10, 'XLM', pool)).toEqual({ reserveIn: 1100n, reserveOut: 455n })
    // Across venues: per pool flow, summed where two swaps pass one pool; undone after a throw too.
    const swaps = [{ flows: [{ id: 'PAIR', tokenIn: 'XLM', amountIn: 5n, out: 2n }] }, { flows: [{ id: 'PAIR', tokenIn: 'XLM', amountIn: 5n, out: 2n }] }]
    const pair = { id: 'PAIR', tokenIn: 'XLM', pool }
    expect((await r.assuming(11, { swaps }, 2, async () => r.adjustHop(11, pair))).pool).toEqual({ reserveIn: 1020n, reserveOut: 492n })
    await expect(r.assuming(11, { swaps }, 2, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(r.adjustHop(11, pair)).toBe(pair)
  })
  it('counts the fills planned for a ledger that share a pool, until each has reserved', () => {
    const r = new SaleReservations()
    r.intend(20, 'a', ['XLM'])
    r.intend(20, 'b', ['XLM', 'WETH'])
    r.intend(20, 'c', ['WBTC'])
    r.intend(21, 'd', ['XLM'])
    // d, planned a ledger later, shares the pool too (the pools refill only through arbitrage)
    expect(r.sharing(20, 'a', ['XLM'])).toBe(3)
    expect(r.sharing(20, 'a', ['XLM'], 0)).toBe(2)
    expect(r.sharing(20, 'c', ['WBTC'])).toBe(1)
    expect(r.sharing(20, 'x', ['WETH'])).toBe(2)
    // nothing planned before the ledger counts
    expect(r.sharing(21, 'd', ['XLM'])).toBe(1)
    // a re-plan moves the intent; a settled plan no longer counts
    r.intend(21, 'b', ['XLM'])
    expect(r.sharing(20, 'a', ['XLM'], 0)).toBe(1)
    expect(r.sharing(21, 'd', ['XLM'])).toBe(2)
    r.settled('b')
    expect(r.sharing(21, 'd', ['XLM'])).toBe(1)
    // a reservation for a later ledger forgets the intents of earlier ones
    r.reserve(21, {})
    expect(r.sharing(20, 'z', ['WBTC'])).toBe(1)
  })
  it('runs exclusive steps one after the other, in call order, a failed one included', async () => {
    const r = new SaleReservations()
    const order: string[] = []
    const step = (name: string, ms: number, fail = false) =>
      r.exclusive(async () => {
        order.push(`${name}:start`)
        await new Promise((res) => setTimeout(res, ms))
        order.push(`${name}:end`)
        if (fail) throw new Error(name)
        return name
      })
    const results = await Promise.allSettled([step('a', 20, true), step('b', 1), step('c', 5)])
    expect(results.map((x) => x.status)).toEqual(['rejected', 'fulfilled', 'fulfilled'])
    expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end'])
  })
})
