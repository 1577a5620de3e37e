import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@solidjs/testing-library'
import { Keypair } from '@stellar/stellar-sdk'
import type { TimedVaultEvent, VaultRead } from '../clients/vaultEvents.js'
import { BookedLiquidations } from './BookedLiquidations.js'

afterEach(cleanup)

const U = 10_000_000n
const KEEPER = Keypair.random().publicKey()
const HASH = 'cd'.repeat(32)
const flash = { event: { id: '0005', ledger: 5, kind: 'flash', account: KEEPER, amount: 500n * U, profit: 45n * U, fee: 5n * U }, closeTime: 1_700_000_000, txHash: HASH } as unknown as TimedVaultEvent
const read = (events: TimedVaultEvent[], complete = true) => ({ events, complete, fromLedger: 1 }) as unknown as VaultRead

describe('BookedLiquidations', () => {
  it('lists each booked fill with its profit for depositors, the keeper’s fee and its transaction', () => {
    render(() => <BookedLiquidations load={{ read: read([flash]), error: undefined }} networkPassphrase="Standalone Network ; February 2017" />)
    expect(screen.getByRole('heading', { name: 'Liquidations booked' })).toBeTruthy()
    const row = screen.getByTestId('booked-row')
    expect(row.dataset['kind']).toBe('flash')
    expect(row.textContent).toContain('2023-11-14 22:13:20 UTC · ledger 5')
    expect(row.textContent).toContain('500.0000000')
    expect(screen.getByTestId('booked-profit').textContent).toBe('45.0000000')
    expect(screen.getByTestId('booked-hash').getAttribute('href')).toBe(`#/tx/${HASH}`)
    expect(screen.getByTestId('booked-summary').textContent).toBe(
      '1 fill(s) booked: 45.0000000 USDC of profit for depositors, 5.0000000 USDC of keeper fees since the vault was set up.',
    )
  })

  it('says when there is none yet, and which ledgers it looked at when the node does not keep them all', () => {
    render(() => <BookedLiquidations load={{ read: read([], false), error: undefined }} networkPassphrase={undefined} />)
    expect(screen.getByTestId('booked-empty').textContent).toMatch(/^No liquidation booked yet/)
    expect(screen.getByTestId('booked-summary').textContent).toContain('in the ledgers this node keeps (from 1)')
  })
})
