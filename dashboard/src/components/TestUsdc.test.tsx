import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor } from '@solidjs/testing-library'
import { Keypair } from '@stellar/stellar-sdk'
import type { DashboardConfig } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { disconnect, setConnectedWallet, writes } from '../stores/wallet.js'
import { TestUsdc, paidText } from './TestUsdc.js'

const ME = Keypair.random().publicKey()
const FAUCET = 'http://127.0.0.1:5173/sandbox/faucet'
const config = (faucetUrl?: string) =>
  ({
    network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Standalone Network ; February 2017' },
    contracts: { vault: 'CV', registry: 'CR', usdc: 'CU' },
    keeperApis: [],
    ...(faucetUrl === undefined ? {} : { faucetUrl }),
  }) as DashboardConfig

function show(c: DashboardConfig) {
  const store: ConfigStore = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => {}, config: () => c, reads: () => undefined }
  render(() => (
    <ConfigContext.Provider value={store}>
      <TestUsdc />
    </ConfigContext.Provider>
  ))
}

afterEach(() => {
  cleanup()
  disconnect()
  vi.unstubAllGlobals()
})

describe('TestUsdc', () => {
  it('asks the faucet for the sandbox wallet, says what came, and refreshes the figures', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ amount: '100000000000', balance: '200000000000' }), { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    setConnectedWallet({ address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x) => x })
    show(config(FAUCET))
    const before = writes()
    screen.getByTestId('test-usdc').click()
    await waitFor(() => expect(screen.getByTestId('test-usdc-status').textContent).toBe('Received 10,000.0000000 test USDC; the wallet holds 20,000.0000000 USDC.'))
    expect(fetch).toHaveBeenCalledWith(FAUCET, expect.objectContaining({ method: 'POST', body: JSON.stringify({ account: ME }) }))
    expect(writes()).toBe(before + 1)
  })

  it('says the faucet’s refusal in its words', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'account has no USDC trustline' }), { status: 400 })))
    setConnectedWallet({ address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x) => x })
    show(config(FAUCET))
    screen.getByTestId('test-usdc').click()
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('the USDC faucet refused (HTTP 400: account has no USDC trustline)'))
  })

  it('is offered only to the sandbox wallet on a dashboard with a faucet', () => {
    setConnectedWallet({ address: ME, kind: 'extension', label: 'Freighter', sign: async (x) => x })
    show(config(FAUCET))
    expect(screen.queryByTestId('test-usdc')).toBeNull()
    cleanup()
    setConnectedWallet({ address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x) => x })
    show(config())
    expect(screen.queryByTestId('test-usdc')).toBeNull()
    expect(paidText({ amount: undefined, balance: undefined })).toBe('Received test USDC.')
  })
})
