import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { Keypair } from '@stellar/stellar-sdk'
import type { Reads } from '../clients/chain.js'
import type { DashboardConfig } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { disconnect, setConnectedWallet } from '../stores/wallet.js'
import { KeepersView } from './KeepersView.js'
import { PositionView } from './PositionView.js'

const U = 10_000_000n
const ME = Keypair.random().publicKey()
const OTHER = Keypair.random().publicKey()
const config = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Standalone Network ; February 2017' },
  contracts: {
    vault: 'CBYYP64QJSE3B6CB6IEL77DJZZWF435EVINT7R2QWFD7ISJQ5CLPTB5W',
    registry: 'CCK5TNPGAY6EUXSLB4V7ADIGKARCRWN6NL2WHMTJUYJQ2KNAJYFT5FGA',
    usdc: 'CCCU4CAD5V4BWKVHA5TILOECSDBQOTGO2KA2UZZLFT6ZRQ7RPZK5WMP7',
  },
  keeperApis: [],
} as DashboardConfig

// A deployment read from memory: 1,100 USDC for 1,000 shares, a cap of 5,000 USDC.
const reads = {
  chain: {},
  vaultState: async () => ({
    totalUsdc: 1100n * U,
    totalShares: 1000n * U,
    totalProfit: 100n * U,
    activeLiq: 0n,
    lockedProfit: 0n,
    lockStart: 0n,
    lockEnd: 0n,
    pendingShares: 0n,
  }),
  vaultConfig: async () => ({ depositCap: 5000n * U, withdrawCooldown: 60, maxDrawPerKeeper: 100n * U, keeperFeeBps: 500, profitUnlockSecs: 3600 }),
  depositor: async () => ({ shares: 909_090_909n, costBasis: 100n * U, totalDeposited: 100n * U, totalWithdrawn: 0n, lastDepositTime: 1_000, withdrawRequest: 0n, raw: {} }),
  vaultBalance: async () => 99_999_999n,
  usdcBalance: async () => 9_900n * U,
  latestLedger: async () => ({ sequence: 50, closeTime: 1_030 }),
  registryConfig: async () => ({ minStake: 1000n * U, slashTimeout: 3600, slashRateBps: 5000, usdcToken: config.contracts.usdc, executorWasm: '' }),
  keepers: async () => [
    {
      operator: OTHER,
      name: 'stuck',
      stake: 1000n * U,
      totalExecutions: 2,
      successfulFills: 1,
      totalProfit: 0n,
      avgResponseTimeMs: 80,
      hasActiveDraw: true,
      drawAmount: 50n * U,
      drawTimestamp: 1_030 - 3_601,
      registeredAt: 1,
      slashed: false,
      slashCount: 0,
      totalSlashed: 0n,
      approved: false,
      drawLimit: 500n * U,
    },
  ],
} as unknown as Reads

const store: ConfigStore = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => {}, config: () => config, reads: () => reads }

function show(view: () => ReturnType<typeof PositionView>) {
  setConnectedWallet({ address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x) => x })
  render(() => <ConfigContext.Provider value={store}>{view()}</ConfigContext.Provider>)
}

afterEach(() => {
  cleanup()
  disconnect()
})

describe('PositionView', () => {
  it('shows the record, the cap left, the cooldown on the ledger clock and live previews', async () => {
    show(() => <PositionView />)
    await waitFor(() => expect(screen.getByTestId('position-shares').textContent).toBe('90.9090909'))
    expect(screen.getByTestId('position-value').textContent).toBe('9.9999999')
    expect(screen.getByTestId('cap-left').textContent).toBe('3,900.0000000')
    await waitFor(() => expect(screen.getByTestId('cooldown').textContent).toBe('30 s left'))
    fireEvent.input(screen.getByTestId('deposit-amount'), { target: { value: '100' } })
    expect(screen.getByTestId('deposit-preview').textContent).toBe('You receive 90.9090909 shares')
    fireEvent.input(screen.getByTestId('withdraw-shares'), { target: { value: '10' } })
    expect(screen.getByTestId('withdraw-preview').textContent).toBe('You receive 11.0000000 USDC')
    fireEvent.input(screen.getByTestId('withdraw-shares'), { target: { value: '1,2' } })
    expect(screen.getByTestId('withdraw-preview').textContent).toMatch(/^Type the amount without “,”/)
    expect(screen.getByLabelText('Deposit amount (USDC)')).toBe(screen.getByTestId('deposit-amount'))
    expect(screen.getByLabelText('Withdraw shares')).toBe(screen.getByTestId('withdraw-shares'))
  })
})

describe('KeepersView', () => {
  it('lists keepers with derived figures, offers Slash on an overdue draw and the register form', async () => {
    show(() => <KeepersView />)
    const row = await screen.findByTestId(`keeper-row-${OTHER}`)
    expect(row.textContent).toContain('50.00%')
    expect(row.textContent).toContain('1 h 0 min')
    expect(row.textContent).toContain('500.0000000')
    await waitFor(() => expect(screen.getByTestId('keepers-fee').textContent).toContain('5.00% (500 bps)'))
    await waitFor(() => expect(screen.getByTestId(`slash-${OTHER}`)).toBeTruthy())
    expect(screen.getByTestId('register-name')).toBeTruthy()
    expect(screen.getByTestId('register-submit')).toBeTruthy()
    expect(screen.queryByTestId('deregister-submit')).toBeNull()
    expect(screen.getByText(/takes the registry’s minimum stake, 1,000.0000000 USDC/)).toBeTruthy()
  })
})
