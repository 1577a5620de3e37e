import { describe, expect, it } from 'vitest'
import type { VaultFlow } from '../../../../src/world/runEvents.js'
import { ceilUsdc, depositorFigures, keeperAttackLoss, openDraws, overdueDraws } from './accounting.js'

const U = 10_000_000n
const flow = (kind: VaultFlow['kind'], address: string, ledger: number, data: Record<string, bigint>): VaultFlow => ({
  kind,
  address,
  ledger,
  closeTime: BigInt(1_000 + ledger * 5),
  data,
  txHash: `tx${ledger}`,
})

describe('ceilUsdc', () => {
  it('rounds up to the 7-decimal unit, so a positive remainder never reads as 0', () => {
    expect(ceilUsdc(1n, 3n)).toBe(1e-7)
    expect(ceilUsdc(-1n, 3n)).toBe(0)
    expect(ceilUsdc(-4n, 3n)).toBe(-1e-7)
    expect(ceilUsdc(25n * U, 1n)).toBe(25)
    expect(ceilUsdc(1n, -3n)).toBe(0)
  })
})

describe('depositorFigures', () => {
  it('a JIT deposit that leaves with what it paid in gains nothing and costs the others nothing', () => {
    // 300,000 in the vault, 300,000 shares; it deposited 200,000 and withdrew 200,000 (the fill's profit locked in between).
    const f = depositorFigures({ deposited: 200_000n * U, withdrawn: 200_000n * U, sharesBefore: 0n, sharesAfter: 0n, totalUsdc: 300_050n * U, totalShares: 300_000n * U })
    expect(f).toEqual({ gain: 0, depositorLoss: 0 })
  })

  it('for a depositor that ends with no shares, its gain is the others’ loss (the vault moves value between holders)', () => {
    const f = depositorFigures({ deposited: 100_000n * U, withdrawn: 100_012n * U, sharesBefore: 0n, sharesAfter: 0n, totalUsdc: 300_000n * U, totalShares: 300_000n * U })
    expect(f.gain).toBe(12)
    expect(f.depositorLoss).toBe(12)
  })

  it('an exit ahead of a covered slash gives up its share of the penalty: the stayers gain it', () => {
    // 3 × 100,000 shares at 1.0; one holder leaves with 100,000; the slash then books a 100 USDC penalty.
    const f = depositorFigures({ deposited: 0n, withdrawn: 100_000n * U, sharesBefore: 100_000n * U, sharesAfter: 0n, totalUsdc: 200_100n * U, totalShares: 200_000n * U })
    // Had it stayed: 300,100 over 300,000 shares, its third of the penalty is 33.33
    expect(f.gain).toBeCloseTo(-33.3333333, 6)
    expect(f.depositorLoss).toBe(f.gain)
  })

  it('an exit ahead of a loss the bond did not cover leaves its share of the loss to the stayers', () => {
    const f = depositorFigures({ deposited: 0n, withdrawn: 100_000n * U, sharesBefore: 100_000n * U, sharesAfter: 0n, totalUsdc: 199_700n * U, totalShares: 200_000n * U })
    expect(f.gain).toBeCloseTo(100, 6)
    expect(f.depositorLoss).toBeCloseTo(100, 6)
  })

  it('counts the shares it still holds at the book price', () => {
    // It held 100 shares, deposited 100 more at 1.0, the books then gained 30 over 300 shares.
    const f = depositorFigures({ deposited: 100n * U, withdrawn: 0n, sharesBefore: 100n * U, sharesAfter: 200n * U, totalUsdc: 330n * U, totalShares: 300n * U })
    // 200 shares at 1.1 − 100 paid − 100 shares at (330 − 100) / 200 = 1.15 → 220 − 100 − 115 = 5
    expect(f.gain).toBeCloseTo(5, 6)
    // the others' 100 shares: 1.15 without it, 1.1 with it
    expect(f.depositorLoss).toBeCloseTo(5, 6)
  })
})

describe('keeperAttackLoss', () => {
  const me = new Set(['GATTACKER'])

  it('a slash that recovers the draw and a penalty is the depositors’ gain (a negative loss)', () => {
    const flows = [
      flow('draw', 'GATTACKER', 10, { amount: 900n * U }),
      flow('deposit', 'GDEPOSITOR', 11, { amount: 5n * U, shares: 5n * U }),
      flow('write_off', 'GATTACKER', 80, { recovered: 1_000n * U, written_down: 900n * U }),
    ]
    expect(keeperAttackLoss(flows, me, { from: 10, to: 90 })).toBe(-100n * U)
  })

  it('draws returned at par cost nothing; a draw still out at the end of the window counts as gone', () => {
    const flows = [
      flow('draw', 'GATTACKER', 10, { amount: 300_000n * U }),
      flow('return', 'GATTACKER', 11, { amount: 300_000n * U, profit: 0n, remaining: 0n, fee: 0n }),
      flow('draw', 'GATTACKER', 12, { amount: 200_000n * U }),
    ]
    expect(keeperAttackLoss(flows, me, { from: 10, to: 11 })).toBe(0n)
    expect(keeperAttackLoss(flows, me, { from: 10, to: null })).toBe(200_000n * U)
    expect(keeperAttackLoss([...flows, flow('return', 'GATTACKER', 13, { amount: 50_000n * U, profit: 0n, remaining: 150_000n * U })], me, { from: 10, to: null })).toBe(150_000n * U)
  })

  it('profit its flash draws booked is the depositors’ gain; other keepers’ flows and flows outside the window are not its', () => {
    const flows = [
      flow('flash', 'GATTACKER', 20, { amount: 1_000n * U, profit: 9n * U, fee: 1n * U }),
      flow('flash', 'GHONEST', 21, { amount: 1_000n * U, profit: 90n * U, fee: 10n * U }),
      flow('flash', 'GATTACKER', 40, { amount: 1_000n * U, profit: 7n * U, fee: 1n * U }),
    ]
    expect(keeperAttackLoss(flows, me, { from: 15, to: 30 })).toBe(-9n * U)
  })
})

describe('openDraws / overdueDraws', () => {
  const flows = [
    flow('draw', 'GA', 10, { amount: 100n }),
    flow('draw', 'GB', 11, { amount: 200n }),
    flow('return', 'GB', 12, { amount: 50n, profit: 0n, remaining: 150n }),
    flow('draw', 'GC', 13, { amount: 300n }),
    flow('return', 'GC', 14, { amount: 300n, profit: 0n, remaining: 0n }),
    flow('flash', 'GD', 15, { amount: 400n, profit: 1n, fee: 0n }),
  ]

  it('keeps the draws not closed by a full return or a write-off, a partial return keeping the draw’s time', () => {
    expect(openDraws(flows)).toEqual([
      { keeper: 'GA', amount: 100n, ledger: 10, since: 1_050n },
      { keeper: 'GB', amount: 150n, ledger: 11, since: 1_055n },
    ])
    expect(openDraws([...flows, flow('write_off', 'GA', 20, { recovered: 100n, written_down: 100n })]).map((d) => d.keeper)).toEqual(['GB'])
  })

  it('is overdue strictly after since + timeout, as the registry slashes', () => {
    const open = openDraws(flows)
    expect(overdueDraws(open, 1_050n + 300n, 300n).map((d) => d.keeper)).toEqual([])
    expect(overdueDraws(open, 1_051n + 300n, 300n).map((d) => d.keeper)).toEqual(['GA'])
    expect(overdueDraws(open, 1_056n + 300n, 300n).map((d) => d.keeper)).toEqual(['GA', 'GB'])
  })
})
