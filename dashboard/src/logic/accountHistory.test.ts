import { describe, expect, it } from 'vitest'
import type { VaultEvent } from '../../../src/audit/events.js'
import type { TimedVaultEvent } from '../clients/vaultEvents.js'
import { accountHistory, historyIsWhole, holdingStart, netDeposits } from './accountHistory.js'

const U = 10_000_000n
const ME = 'GME'
const at = (ledger: number, event: { kind: VaultEvent['kind'] } & Record<string, unknown>): TimedVaultEvent => ({
  event: { ...event, id: String(ledger).padStart(4, '0'), ledger } as VaultEvent,
  closeTime: 1_000 + ledger,
  txHash: `hash${ledger}`,
})
const events: TimedVaultEvent[] = [
  at(1, { kind: 'registry', registry: 'CREG' }),
  at(2, { kind: 'deposit', account: ME, amount: 100n * U, shares: 100n * U, deadShares: 1000n }),
  at(3, { kind: 'deposit', account: 'GOTHER', amount: 50n * U, shares: 50n * U, deadShares: 0n }),
  at(4, { kind: 'draw', account: 'GKEEPER', amount: 10n * U }),
  at(5, { kind: 'withdraw', account: ME, shares: 100n * U, amount: 101n * U }),
  at(6, { kind: 'deposit', account: ME, amount: 20n * U, shares: 19n * U, deadShares: 0n }),
  at(7, { kind: 'deposit', account: ME, amount: 30n * U, shares: 28n * U, deadShares: 0n }),
]

describe('accountHistory', () => {
  it('keeps the account’s deposits and withdrawals, newest first, with their hash', () => {
    const rows = accountHistory(events, ME)
    expect(rows.map((r) => [r.kind, r.ledger, r.amount, r.shares, r.txHash])).toEqual([
      ['deposit', 7, 30n * U, 28n * U, 'hash7'],
      ['deposit', 6, 20n * U, 19n * U, 'hash6'],
      ['withdraw', 5, 101n * U, 100n * U, 'hash5'],
      ['deposit', 2, 100n * U, 100n * U, 'hash2'],
    ])
    expect(rows[0]!.closeTime).toBe(1_007)
    expect(accountHistory(events, 'GNOBODY')).toEqual([])
  })

  it('sums deposits − withdrawals and checks them against the vault’s record', () => {
    const rows = accountHistory(events, ME)
    expect(netDeposits(rows)).toEqual({ deposited: 150n * U, withdrawn: 101n * U, net: 49n * U })
    expect(historyIsWhole(rows, { totalDeposited: 150n * U, totalWithdrawn: 101n * U })).toBe(true)
    expect(historyIsWhole(rows.slice(0, 2), { totalDeposited: 150n * U, totalWithdrawn: 101n * U })).toBe(false)
  })

  it('the current holding began with the first deposit after the full exit', () => {
    const rows = accountHistory(events, ME)
    expect(holdingStart(rows)?.ledger).toBe(6)
    expect(holdingStart(rows.slice(2))).toBeUndefined()
    expect(holdingStart([])).toBeUndefined()
  })
})
