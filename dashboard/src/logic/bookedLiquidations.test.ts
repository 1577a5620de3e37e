import { describe, expect, it } from 'vitest'
import type { TimedVaultEvent } from '../clients/vaultEvents.js'
import { bookedKindText, bookedLiquidations, bookedTotals } from './bookedLiquidations.js'

const U = 10_000_000n
const at = (ledger: number, event: Record<string, unknown>): TimedVaultEvent =>
  ({ event: { id: `000${ledger}`, ledger, ...event }, closeTime: 1_000 + ledger, txHash: `${ledger}`.padStart(64, 'a') }) as unknown as TimedVaultEvent

const bookedEvents: TimedVaultEvent[] = [
  at(2, { kind: 'registry', registry: 'CREG' }),
  at(3, { kind: 'deposit', account: 'GDEP', amount: 1_000n * U, shares: 1_000n * U, deadShares: 0n }),
  at(5, { kind: 'flash', account: 'CEXEC', amount: 500n * U, profit: 45n * U, fee: 5n * U }),
  at(7, { kind: 'draw', account: 'GKEEP', amount: 200n * U }),
  // 200 repaid plus a gross profit of 20: 18 booked, 2 to the keeper
  at(9, { kind: 'return', account: 'GKEEP', amount: 220n * U, profit: 18n * U, remaining: 0n, fee: 2n * U }),
  at(11, { kind: 'write_off', account: 'GLOST', writtenDown: 30n * U, recovered: 10n * U }),
]

describe('booked liquidations', () => {
  it('lists the vault’s fills, returns and write-offs, newest first, with the contract’s own figures', () => {
    const rows = bookedLiquidations(bookedEvents)
    expect(rows.map((r) => [r.kind, r.keeper, r.capital, r.profit, r.fee, r.recovered, r.ledger, r.closeTime])).toEqual([
      ['write_off', 'GLOST', 30n * U, 0n, 0n, 10n * U, 11, 1_011],
      ['return', 'GKEEP', 200n * U, 18n * U, 2n * U, 0n, 9, 1_009],
      ['flash', 'CEXEC', 500n * U, 45n * U, 5n * U, 0n, 5, 1_005],
    ])
    expect(rows[2]!.txHash).toBe('5'.padStart(64, 'a'))
    expect(bookedLiquidations(bookedEvents.slice(0, 2))).toEqual([])
  })

  it('sums the profit for depositors and the keepers’ fees, and names each kind', () => {
    expect(bookedTotals(bookedLiquidations(bookedEvents))).toEqual({ profit: 63n * U, fees: 7n * U, fills: 2 })
    expect(bookedKindText('flash')).toBe('Fill (drawn and repaid in one transaction)')
    expect(bookedKindText('return')).toBe('Two-step fill returned')
    expect(bookedKindText('write_off')).toBe('Draw written off')
  })
})
