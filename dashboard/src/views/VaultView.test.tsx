import { cleanup, render, screen } from '@solidjs/testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { vaultFigures } from '../stores/vault.js'
import { VaultFiguresList } from './VaultView.js'

const U = 10_000_000n
const DAY = 24 * 3600
const NOW = 1_735_740_202 // 2025-01-01 14:03:22 UTC
// 10 USDC of profit booked 20 minutes ago, locking for an hour: 6.6666667 still locked.
const books = {
  totalUsdc: 1_010n * U,
  totalShares: 1_000n * U,
  totalProfit: 10n * U,
  activeLiq: 200n * U,
  lockedProfit: 10n * U,
  lockStart: BigInt(NOW - 1200),
  lockEnd: BigInt(NOW + 2400),
  pendingShares: 25n * U,
}
const config = { depositCap: 1_000_000n * U, withdrawCooldown: 0, maxDrawPerKeeper: 500n * U, keeperFeeBps: 1000, profitUnlockSecs: 3600 }
const read = { books, config, closeTime: NOW }
const unlocked = { ...read, closeTime: NOW + 2400 }

afterEach(cleanup)

describe('VaultFiguresList', () => {
  it('labels a return over less than 7 days "cumulative"', () => {
    const history = [
      { timestamp: 0, price: 10_000_000n },
      { timestamp: DAY, price: 10_100_000n },
    ]
    render(() => <VaultFiguresList figures={vaultFigures(unlocked, history)} />)
    expect(screen.getByTestId('vault-apy').textContent).toBe('1.00% cumulative')
    expect(screen.getByTestId('vault-apy').textContent).toContain('cumulative')
    expect(screen.getByTestId('vault-tvl').textContent).toBe('1,010.0000000 USDC')
    expect(screen.getByTestId('vault-idle').textContent).toBe('810.0000000 USDC')
    expect(screen.getByTestId('vault-deployed').textContent).toBe('200.0000000 USDC')
    expect(screen.getByTestId('vault-profit').textContent).toBe('10.0000000 USDC')
    expect(screen.getByTestId('vault-share-price').textContent).toBe('1.0100000')
    expect(screen.getByTestId('vault-locked-profit').textContent).toBe('0.0000000 USDC')
    expect(screen.getByTestId('vault-keeper-fee').textContent).toBe('10.00% (1000 bps)')
    expect(screen.getByTestId('vault-pending-shares').textContent).toBe('25.0000000 shares')
  })

  it('prices a share on free assets while profit unlocks, and says how much is locked until when', () => {
    render(() => <VaultFiguresList figures={vaultFigures(read, [])} />)
    // 1,010 − 6.6666667 locked = 1,003.3333333 free over 1,000 shares.
    expect(screen.getByTestId('vault-share-price').textContent).toBe('1.0033333')
    expect(screen.getByTestId('vault-locked-profit').textContent).toBe('6.6666667 USDC')
    expect(screen.getByTestId('vault-locked-until').textContent).toBe('fully unlocked 2025-01-01 14:43:22 UTC, in 40 min 0 s (booked profit unlocks over 1 h 0 min)')
    expect(screen.getByTestId('vault-tvl').textContent).toBe('1,010.0000000 USDC')
  })

  it('annualizes from 7 days of history on', () => {
    const history = [
      { timestamp: 0, price: 10_000_000n },
      { timestamp: 7 * DAY, price: 10_100_000n },
    ]
    render(() => <VaultFiguresList figures={vaultFigures(unlocked, history)} />)
    expect(screen.getByTestId('vault-apy').textContent).toMatch(/^\d+\.\d\d% APY$/)
  })

  it('shows exactly the em-dash without history, and for every figure before the first read', () => {
    render(() => <VaultFiguresList figures={vaultFigures(undefined, [])} />)
    expect(screen.getByTestId('vault-apy').textContent).toBe('—')
    for (const id of ['vault-tvl', 'vault-idle', 'vault-deployed', 'vault-profit', 'vault-share-price', 'vault-locked-profit', 'vault-keeper-fee', 'vault-pending-shares'])
      expect(screen.getByTestId(id).textContent).toBe('—')
  })

  it('shows the em-dash for the APY of a vault with books but a single point of history', () => {
    render(() => <VaultFiguresList figures={vaultFigures(unlocked, [{ timestamp: 0, price: 10_000_000n }])} />)
    expect(screen.getByTestId('vault-apy').textContent).toBe('—')
    expect(screen.getByTestId('vault-tvl').textContent).toBe('1,010.0000000 USDC')
  })
})
