import { describe, expect, it } from 'vitest'
import { bookProfit, freeAssets, keeperFee, lockedProfit, sharePrice, usdcForShares } from '../../../src/core/index.js'
import { formatAmount } from '../logic/amounts.js'
import type { TimedVaultEvent, VaultEvent } from '../clients/vaultEvents.js'
import { sharePriceChart, sharePriceHistory, vaultFigures } from './vault.js'

const U = 10_000_000n
const A = 'GDEPOSITOR'
const K = 'CKEEPER'
const UNLOCK = 3600
const config = { depositCap: 1_000_000n * U, withdrawCooldown: 0, maxDrawPerKeeper: 1000n * U, keeperFeeBps: 1000, profitUnlockSecs: UNLOCK }
const EMPTY = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }

const at = (closeTime: number, event: VaultEvent): TimedVaultEvent => ({ event: { ...event, time: BigInt(closeTime) }, closeTime, txHash: '' })

/**
 * deposit 1000 (first: 1000 dead shares) at t 100 → draw 500 → return 555 at t 300 (gross 55: the
 * keeper's 10 % fee 5.5, 49.5 booked and locked for an hour) → withdraw 100 shares at t 400, 100 s
 * into the unlock, for what they fetch on free assets then.
 */
const GROSS = 55n * U
const FEE = keeperFee(GROSS, 1000)
const P = GROSS - FEE
const LOCK = bookProfit(EMPTY, P, 300n, BigInt(UNLOCK))
const PAID = usdcForShares({ shares: 100n * U, totalUsdc: freeAssets(1000n * U + P, lockedProfit(LOCK, 400n)), totalShares: 1000n * U })
const events: TimedVaultEvent[] = [
  at(50, { id: '1', ledger: 1, kind: 'registry', registry: 'CREG' }),
  at(100, { id: '2', ledger: 2, kind: 'deposit', account: A, amount: 1000n * U, shares: 1000n * U - 1000n, deadShares: 1000n }),
  at(200, { id: '3', ledger: 3, kind: 'draw', account: K, amount: 500n * U }),
  at(300, { id: '4', ledger: 4, kind: 'return', account: K, amount: 500n * U + GROSS, profit: P, remaining: 0n, fee: FEE }),
  at(400, { id: '5', ledger: 5, kind: 'withdraw', account: A, shares: 100n * U, amount: PAID }),
]
const books = { totalUsdc: 1000n * U + P - PAID, totalShares: 900n * U, totalProfit: P, activeLiq: 0n, ...LOCK, pendingShares: 0n }
const read = (closeTime: number) => ({ books, config, events, ledger: 9, closeTime, complete: true })
const free = (b: { totalUsdc: bigint; totalShares: bigint }, t: number) => sharePrice({ totalUsdc: freeAssets(b.totalUsdc, lockedProfit(LOCK, BigInt(t))), totalShares: b.totalShares })

describe('sharePriceHistory', () => {
  it('prices each deposit, withdrawal and return on free assets, adds where the lock ran out, and now', () => {
    const end = Number(LOCK.lockEnd)
    const h = sharePriceHistory(read(end + 1000))
    expect(h.map((p) => [p.timestamp, p.kind, p.ledger])).toEqual([
      [100, 'deposit', 2],
      [300, 'return', 4],
      [400, 'withdraw', 5],
      [end, 'unlocked', 5],
      [end + 1000, 'now', 9],
    ])
    // The return locks what it books: the free-asset price does not jump at it.
    expect(h[1]!.price).toBe(10_000_000n)
    expect(h[2]!.price).toBe(free(books, 400))
    expect(h[3]!.price).toBe(sharePrice({ totalUsdc: books.totalUsdc, totalShares: books.totalShares }))
    expect(h[4]!.price).toBe(h[3]!.price)
  })

  it('has no "unlocked" point while the lock still runs, and prices now on what is free', () => {
    const h = sharePriceHistory(read(1_000))
    expect(h.map((p) => p.kind)).toEqual(['deposit', 'return', 'withdraw', 'now'])
    expect(h.at(-1)!.price).toBe(free(books, 1_000))
    expect(h.at(-1)!.price).toBeLessThan(sharePrice({ totalUsdc: books.totalUsdc, totalShares: books.totalShares }))
  })

  it('prices a write-off just before and after it', () => {
    const draw = at(450, { id: '5b', ledger: 5, kind: 'draw', account: K, amount: 90n * U })
    const writeOff = at(500, { id: '6', ledger: 6, kind: 'write_off', account: K, writtenDown: 90n * U, recovered: 0n })
    const after = { ...books, totalUsdc: books.totalUsdc - 90n * U }
    const h = sharePriceHistory({ ...read(500), books: after, events: [...events, draw, writeOff], ledger: 7 })
    const [before, off] = h.slice(-2)
    expect(before).toMatchObject({ kind: 'write_off', timestamp: 500, price: free(books, 500) })
    expect(off).toMatchObject({ kind: 'write_off', timestamp: 500, price: free(after, 500) })
    expect(off!.price).toBeLessThan(before!.price)
  })

  it('with part of the history, gives no point before the last booking it keeps', () => {
    const h = sharePriceHistory({ ...read(1_000), events: events.slice(2), complete: false })
    expect(h.map((p) => p.kind)).toEqual(['return', 'withdraw', 'now'])
    expect(h[1]!.price).toBe(free(books, 400))
  })

  it('is empty without events, and adds no "now" point then', () => {
    expect(sharePriceHistory({ ...read(1_000), events: [] })).toEqual([])
  })
})

describe('vaultFigures', () => {
  it('shows the books, idle = total − active, the free-asset price, the lock, the fee and the cumulative return', () => {
    const h = sharePriceHistory(read(1_000))
    const f = vaultFigures({ books: { ...books, activeLiq: 45n * U, pendingShares: 12n * U }, config, closeTime: 1_000 }, h)
    expect(f).toMatchObject({
      tvl: `${formatAmount(books.totalUsdc)} USDC`,
      deployed: '45.0000000 USDC',
      profit: '49.5000000 USDC',
      keeperFee: '10.00% (1000 bps)',
      pendingShares: '12.0000000 shares',
    })
    expect(f.sharePrice).toBe(`1.${(free(books, 1_000) - 10_000_000n).toString().padStart(7, '0')}`)
    expect(f.lockedProfit).toBe(`${formatAmount(lockedProfit(LOCK, 1_000n))} USDC`)
    expect(f.lockedUntil).toBe(`fully unlocked 1970-01-01 01:05:00 UTC, in ${Math.floor((Number(LOCK.lockEnd) - 1_000) / 60)} min ${(Number(LOCK.lockEnd) - 1_000) % 60} s (booked profit unlocks over 1 h 0 min)`)
    expect(f.apy.kind).toBe('cumulative')
  })

  it('says nothing is locked once the lock has run out', () => {
    const f = vaultFigures({ books, config, closeTime: Number(LOCK.lockEnd) }, [])
    expect(f.lockedProfit).toBe('0.0000000 USDC')
    expect(f.lockedUntil).toBe('nothing locked (booked profit unlocks over 1 h 0 min)')
  })

  it('renders every figure as the em-dash before the first read', () => {
    const f = vaultFigures(undefined, [])
    expect([f.tvl, f.idle, f.deployed, f.profit, f.sharePrice, f.lockedProfit, f.lockedUntil, f.keeperFee, f.pendingShares, f.apy.text]).toEqual(Array(10).fill('—'))
  })
})

describe('sharePriceChart', () => {
  it('plots USDC per share against the close time, linear between the points', () => {
    const h = sharePriceHistory(read(1_000))
    const c = sharePriceChart(h)
    expect(c.data.datasets[0]!.data).toEqual(h.map((p) => ({ x: p.timestamp, y: Number(p.price) / 1e7 })))
    expect(c.data.datasets[0]!.data[0]).toEqual({ x: 100, y: 1 })
    expect(c.data.datasets[0]!.stepped).toBe(false)
  })
})
