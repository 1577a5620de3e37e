import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { Keypair } from '@stellar/stellar-sdk'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Reads } from '../clients/chain.js'
import type { DashboardConfig } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { disconnect, setConnectedWallet } from '../stores/wallet.js'
import { WalletBar } from './WalletBar.js'

const ME = Keypair.random().publicKey()
const config = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'x' },
  contracts: { vault: 'CV', registry: 'CR', usdc: 'CU' },
  keeperApis: [],
} as DashboardConfig
const reads = { usdcBalance: async () => 100_000_000_000n } as unknown as Reads
const store: ConfigStore = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => {}, config: () => config, reads: () => reads }

afterEach(() => {
  cleanup()
  disconnect()
})

describe('WalletBar', () => {
  it('shows the connected account short with a copy button, and a toggle for the phone layout', async () => {
    setConnectedWallet({ address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x) => x })
    render(() => (
      <ConfigContext.Provider value={store}>
        <WalletBar />
      </ConfigContext.Provider>
    ))
    const short = `${ME.slice(0, 6)}…${ME.slice(-4)}`
    const address = screen.getByTestId('wallet-address')
    expect(address.getAttribute('data-address')).toBe(ME)
    expect(address.textContent).toContain(short)
    expect(address.textContent).not.toContain(ME)
    expect(screen.getByRole('button', { name: `Copy address ${short}` })).toBeTruthy()
    await waitFor(() => expect(screen.getByTestId('wallet-usdc').textContent).toBe('10,000.0000000 USDC'))
    const toggle = screen.getByRole('button', { name: `Wallet ${short}` })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByRole('group', { name: 'Wallet' }).classList.contains('open')).toBe(true)
    fireEvent.keyDown(toggle, { key: 'Escape' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })

  it('shows each step of a sandbox connection and the seconds it has taken', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let finish!: () => void
    vi.doMock('../clients/wallet/sandbox.js', () => ({
      hasSandboxKey: () => false,
      openSandboxWallet: async (_c: unknown, onStep: (t: string) => void) => {
        onStep('Step 2 of 3: Adding a trustline to USDC…')
        await new Promise<void>((r) => (finish = r))
        return { address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x: string) => x }
      },
    }))
    const sandboxConfig = { ...config, network: { ...config.network, networkPassphrase: 'Standalone Network ; February 2017', friendbotUrl: 'http://127.0.0.1:8000/friendbot' } } as DashboardConfig
    render(() => (
      <ConfigContext.Provider value={{ ...store, config: () => sandboxConfig }}>
        <WalletBar />
      </ConfigContext.Provider>
    ))
    screen.getByTestId('wallet-connect-sandbox').click()
    await waitFor(() => expect(screen.getByTestId('wallet-progress').textContent).toMatch(/^Step 2 of 3: Adding a trustline to USDC… 0 s$/))
    await vi.advanceTimersByTimeAsync(3_000)
    await waitFor(() => expect(screen.getByTestId('wallet-progress').textContent).toMatch(/ [3-4] s$/))
    finish()
    await waitFor(() => expect(screen.getByTestId('wallet-address').getAttribute('data-address')).toBe(ME))
    vi.useRealTimers()
    vi.doUnmock('../clients/wallet/sandbox.js')
  })
})
