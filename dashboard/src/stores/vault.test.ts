import { describe, expect, it } from 'vitest'
import type { TimedVaultEvent, VaultEvent } from '../clients/vaultEvents.js'
import { sharePriceChart, sharePriceHistory, vaultFigures } from './vault.js'

const U = 10_000_000n
const A = 'GDEPOSITOR'
const K = 'CKEEPER'

const at = (closeTime: number, event: VaultEvent): TimedVaultEvent => ({ event, closeTime, txHash: '' })

/**
 * deposit 1000 (first: 1000 dead shares) → draw 500 → return 550 (profit 50) → withdraw 100 shares
 * for 105. Forward: total_usdc 1000 → 1050 → 945; total_shares 1000 → 900; active_liq 0 → 500 → 0.
 */
const events: TimedVaultEvent[] = [
  at(50, { id: '1', ledger: 1, kind: 'registry', registry: 'CREG' }),
  at(100, { id: '2', ledger: 2, kind: 'deposit', account: A, amount: 1000n * U, shares: 1000n * U - 1000n, deadShares: 1000n }),
  at(200, { id: '3', ledger: 3, kind: 'draw', account: K, amount: 500n * U }),
  at(300, { id: '4', ledger: 4, kind: 'return', account: K, amount: 550n * U, profit: 50n * U, remaining: 0n }),
  at(400, { id: '5', ledger: 5, kind: 'withdraw', account: A, shares: 100n * U, amount: 105n * U }),
]
const books = { totalUsdc: 945n * U, totalShares: 900n * U, totalProfit: 50n * U, activeLiq: 0n }

describe('sharePriceHistory', () => {
  it('replays the events backward from the current books: one point per deposit, withdraw, return and write-off, plus now', () => {
    const h = sharePriceHistory({ books, events, ledger: 9, closeTime: 1_000 })
    expect(h.map((p) => [p.timestamp, p.kind, p.price])).toEqual([
      [100, 'deposit', 10_000_000n],
      [300, 'return', 10_500_000n],
      [400, 'withdraw', 10_500_000n],
      [1_000, 'now', 10_500_000n],
    ])
  })

  it('prices a write-off from the books it leaves', () => {
    const writeOff = at(500, { id: '6', ledger: 6, kind: 'write_off', account: K, writtenDown: 90n * U, recovered: 0n })
    const draw = at(450, { id: '5b', ledger: 5, kind: 'draw', account: K, amount: 90n * U })
    const after = { totalUsdc: 855n * U, totalShares: 900n * U, totalProfit: 50n * U, activeLiq: 0n }
    const h = sharePriceHistory({ books: after, events: [...events, draw, writeOff], ledger: 7, closeTime: 500 })
    expect(h.at(-1)).toMatchObject({ kind: 'write_off', price: 9_500_000n, timestamp: 500 })
  })

  it('is empty without events, and adds no "now" point then', () => {
    expect(sharePriceHistory({ books, events: [], ledger: 9, closeTime: 1_000 })).toEqual([])
  })
})

describe('vaultFigures', () => {
  it('shows the books, idle = total − active, and the cumulative return under 7 days', () => {
    const h = sharePriceHistory({ books, events, ledger: 9, closeTime: 1_000 })
    const f = vaultFigures({ ...books, activeLiq: 45n * U }, h)
    expect(f).toMatchObject({
      tvl: '945.0000000 USDC',
      idle: '900.0000000 USDC',
      deployed: '45.0000000 USDC',
      profit: '50.0000000 USDC',
      sharePrice: '1.0500000',
    })
    expect(f.apy.kind).toBe('cumulative')
    expect(f.apy.text).toBe('5.00% cumulative')
  })

  it('renders every figure as the em-dash before the first read', () => {
    const f = vaultFigures(undefined, [])
    expect([f.tvl, f.idle, f.deployed, f.profit, f.sharePrice, f.apy.text]).toEqual(['—', '—', '—', '—', '—', '—'])
  })
})

describe('sharePriceChart', () => {
  it('plots USDC per share against the close time, stepped after each point', () => {
    const h = sharePriceHistory({ books, events, ledger: 9, closeTime: 1_000 })
    const c = sharePriceChart(h)
    expect(c.data.datasets[0]!.data).toEqual([
      { x: 100, y: 1 },
      { x: 300, y: 1.05 },
      { x: 400, y: 1.05 },
      { x: 1_000, y: 1.05 },
    ])
    expect(c.data.datasets[0]!.stepped).toBe('after')
  })
})
