import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@solidjs/testing-library'
import { Keypair } from '@stellar/stellar-sdk'
import type { KeeperInfo, Reads } from '../clients/chain.js'
import type { DashboardConfig } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { KeepersView } from './KeepersView.js'

const U = 10_000_000n
const DIRECT = Keypair.random().publicKey()
const OWNER = Keypair.random().publicKey()
const EXECUTOR = 'CBEXEC' + 'E'.repeat(46) + 'UTOR'
const config = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Standalone Network ; February 2017' },
  contracts: { vault: 'CV', registry: 'CR', usdc: 'CU' },
  keeperApis: [],
} as unknown as DashboardConfig

const keeper = (over: Partial<KeeperInfo>): KeeperInfo => ({
  operator: DIRECT,
  name: 'direct',
  stake: 1000n * U,
  totalExecutions: 0,
  successfulFills: 0,
  totalProfit: 0n,
  avgResponseTimeMs: 0,
  hasActiveDraw: false,
  drawAmount: 0n,
  drawTimestamp: 0,
  registeredAt: 1,
  slashed: false,
  slashCount: 0,
  totalSlashed: 0n,
  approved: false,
  drawLimit: 500n * U,
  ...over,
})

const reads = {
  chain: {},
  latestLedger: async () => ({ sequence: 555, closeTime: Date.UTC(2025, 0, 1, 14, 3, 22) / 1000 }),
  registryConfig: async () => ({ minStake: 1000n * U, slashTimeout: 3600, slashRateBps: 5000, usdcToken: 'CU', executorWasm: 'ab'.repeat(32) }),
  vaultConfig: async () => ({ depositCap: 1_000_000n * U, withdrawCooldown: 0, maxDrawPerKeeper: 500n * U, keeperFeeBps: 1000, profitUnlockSecs: 3600 }),
  keepers: async () => [
    keeper({}),
    keeper({ operator: EXECUTOR, name: 'via-executor', totalExecutions: 3, successfulFills: 3, approved: true, stake: 3000n * U, drawLimit: 1500n * U }),
  ],
  executorOwner: async (c: string) => (c === EXECUTOR ? OWNER : Promise.reject(new Error('not an executor'))),
} as unknown as Reads

const store: ConfigStore = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => {}, config: () => config, reads: () => reads }

afterEach(() => cleanup())

describe('KeepersView', () => {
  it('labels operator and executor, explains the fill delay and scrolls the table inside its region', async () => {
    render(() => (
      <ConfigContext.Provider value={store}>
        <KeepersView />
      </ConfigContext.Provider>
    ))
    const direct = await screen.findByTestId(`keeper-row-${DIRECT}`)
    expect(within(direct).getByRole('group', { name: `Operator ${DIRECT}` })).toBeTruthy()
    expect(direct.textContent).toContain('none')
    expect(direct.textContent).toContain('—')

    const viaExecutor = await screen.findByTestId(`keeper-row-${EXECUTOR}`)
    await waitFor(() => expect(within(viaExecutor).getByRole('group', { name: `Operator ${OWNER}` })).toBeTruthy())
    expect(within(viaExecutor).getByRole('group', { name: `Executor ${EXECUTOR}` })).toBeTruthy()
    expect(within(viaExecutor).getByRole('button', { name: 'Copy address CBEXEC…UTOR' })).toBeTruthy()
    expect(viaExecutor.textContent).toContain('0 s (on time)')
    expect(viaExecutor.textContent).not.toContain(EXECUTOR)

    expect(screen.getByRole('columnheader', { name: /Avg fill delay/ }).textContent).toContain('after the planned ledger')
    expect(screen.getByTestId('keepers-columns').textContent).toMatch(/0 s \(on time\)”: every fill landed in its planned\s+ledger/)
    const region = screen.getByRole('region', { name: 'Keepers table' })
    expect(region.getAttribute('tabindex')).toBe('0')
    expect(region.contains(direct)).toBe(true)
    await waitFor(() => expect(screen.getByTestId('keepers-clock').textContent).toContain('14:03:22 · ledger 555'))
  })

  it("shows each keeper's bond and the two-step draw limit it backs, and the vault's keeper fee", async () => {
    render(() => (
      <ConfigContext.Provider value={store}>
        <KeepersView />
      </ConfigContext.Provider>
    ))
    const viaExecutor = await screen.findByTestId(`keeper-row-${EXECUTOR}`)
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent ?? '')
    const cells = within(viaExecutor)
      .getAllByRole('cell')
      .map((c) => c.textContent ?? '')
    expect(cells[headers.findIndex((h) => h.startsWith('Bond (USDC)'))]).toBe('3,000.0000000')
    expect(cells[headers.findIndex((h) => h.startsWith('Draw limit (USDC)'))]).toBe('1,500.0000000')
    expect(headers.find((h) => h.startsWith('Draw limit'))).toContain('two-step draws')
    await waitFor(() => expect(screen.getByTestId('keepers-fee').textContent).toMatch(/^Keeper fee: 10\.00% \(1000 bps\) of each fill's gross profit/))
    expect(screen.getByTestId('keepers-columns').textContent).toMatch(/Draw limit: the most it may hold in a two-step draw/)
  })
})
