import { cleanup, render, screen } from '@solidjs/testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { vaultFigures } from '../stores/vault.js'
import { VaultFiguresList } from './VaultView.js'

const U = 10_000_000n
const books = { totalUsdc: 1_010n * U, totalShares: 1_000n * U, totalProfit: 10n * U, activeLiq: 200n * U }
const DAY = 24 * 3600

afterEach(cleanup)

describe('VaultFiguresList', () => {
  it('labels a return over less than 7 days "cumulative"', () => {
    const history = [
      { timestamp: 0, price: 10_000_000n },
      { timestamp: DAY, price: 10_100_000n },
    ]
    render(() => <VaultFiguresList figures={vaultFigures(books, history)} />)
    expect(screen.getByTestId('vault-apy').textContent).toBe('1.00% cumulative')
    expect(screen.getByTestId('vault-apy').textContent).toContain('cumulative')
    expect(screen.getByTestId('vault-tvl').textContent).toBe('1,010.0000000 USDC')
    expect(screen.getByTestId('vault-idle').textContent).toBe('810.0000000 USDC')
    expect(screen.getByTestId('vault-deployed').textContent).toBe('200.0000000 USDC')
    expect(screen.getByTestId('vault-profit').textContent).toBe('10.0000000 USDC')
    expect(screen.getByTestId('vault-share-price').textContent).toBe('1.0100000')
  })

  it('annualizes from 7 days of history on', () => {
    const history = [
      { timestamp: 0, price: 10_000_000n },
      { timestamp: 7 * DAY, price: 10_100_000n },
    ]
    render(() => <VaultFiguresList figures={vaultFigures(books, history)} />)
    expect(screen.getByTestId('vault-apy').textContent).toMatch(/^\d+\.\d\d% APY$/)
  })

  it('shows exactly the em-dash without history, and for every figure before the first read', () => {
    render(() => <VaultFiguresList figures={vaultFigures(undefined, [])} />)
    expect(screen.getByTestId('vault-apy').textContent).toBe('—')
    for (const id of ['vault-tvl', 'vault-idle', 'vault-deployed', 'vault-profit', 'vault-share-price'])
      expect(screen.getByTestId(id).textContent).toBe('—')
  })

  it('shows the em-dash for the APY of a vault with books but a single point of history', () => {
    render(() => <VaultFiguresList figures={vaultFigures(books, [{ timestamp: 0, price: 10_000_000n }])} />)
    expect(screen.getByTestId('vault-apy').textContent).toBe('—')
    expect(screen.getByTestId('vault-tvl').textContent).toBe('1,010.0000000 USDC')
  })
})
