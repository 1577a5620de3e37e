import { cleanup, render, screen, waitFor, within } from '@solidjs/testing-library'
import { createResource } from 'solid-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Reads } from '../clients/chain.js'
import type { DashboardConfig } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { AuctionsView } from './AuctionsView.js'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const config = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'x' },
  contracts: { vault: 'CV', registry: 'CR', usdc: 'CU' },
  keeperApis: ['http://127.0.0.1:8080'],
} as DashboardConfig

/** /api/state as src/keeper/routes/views.ts writes it (amounts as strings). */
const state = {
  mode: 'liquidating',
  operator: 'GOP',
  keeperName: 'demo-keeper-1',
  updatedAt: '2025-01-01T00:00:00.000Z',
  vault: null,
  keepers: [],
  positions: [{ protocol: 'blend', user: 'GBORROWER', healthFactor: 0.93, collateralBase: '1000000000', liabilityBase: '1075268817' }],
  events: [],
  outstandingDraw: '0',
  recovery: null,
  executions: [
    {
      key: '0:GBORROWER',
      adapter: 'blend',
      label: 'GBORROWER',
      stage: 'planned',
      path: 'atomic',
      plannedAt: 150,
      targetLedger: 286,
      expiresAtLedger: 600,
      capital: '10000000000',
      priority: 4,
      history: [{ stage: 'planned', ledger: 150 }],
      progress: { ledger: 199, offset: 100, ratio: '5500000', minProfit: '10200000', leftPercent: 62.5 },
      note: null,
      result: null,
    },
  ],
  cycles: { count: 1, overruns: 0, lastStartedAt: null, lastDurationMs: null, lastError: null },
}

/** The view under a config store with these chain reads (none: no ledger clock). */
function renderView(reads?: Reads) {
  render(() => {
    const [loaded] = createResource(async () => ({ config, problems: [], patch: {} }))
    const store: ConfigStore = { loaded, reload: () => undefined, config: () => config, reads: () => reads }
    return (
      <ConfigContext.Provider value={store}>
        <AuctionsView />
      </ConfigContext.Provider>
    )
  })
}

describe('AuctionsView', () => {
  it('lists the borrowers and open auctions of the keepers’ /api/state and charts the selected auction', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(state), { status: 200, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetch)
    renderView()
    const row = await screen.findByTestId('borrower-row-GBORROWER')
    expect(row.textContent).toContain('0.9300')
    expect(fetch).toHaveBeenCalledWith('http://127.0.0.1:8080/api/state', expect.anything())
    expect(screen.getByTestId('auction-row-0:GBORROWER').textContent).toContain('demo-keeper-1: planned (atomic), ledger 286, 1,000.0000000')
    expect(screen.getByTestId('auction-row-0:GBORROWER').textContent).toContain('62.5 % of the lot left')
    expect(screen.getByTestId('auction-chart')).toBeTruthy()
    expect(screen.getByText(/first profitable block/).textContent).toContain('186')
  })

  it('shows addresses short with a copy button, tables in scroll regions and keeper times on the ledger clock', async () => {
    const borrower = 'GDFYZR' + 'A'.repeat(46) + '3WCX'
    const body = JSON.stringify(state).replaceAll('GBORROWER', borrower)
    vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })))
    // The ledger clock runs an hour ahead of the keeper's wall clock (an advanced sandbox clock).
    const reads = { latestLedger: async () => ({ sequence: 555, closeTime: Date.now() / 1000 + 3600 }) } as unknown as Reads
    renderView(reads)
    const row = await screen.findByTestId(`borrower-row-${borrower}`)
    expect(within(row).getByText('GDFYZR…3WCX').getAttribute('title')).toBe(borrower)
    expect(within(row).getByRole('button', { name: 'Copy address GDFYZR…3WCX' })).toBeTruthy()
    const auction = screen.getByTestId(`auction-row-0:${borrower}`)
    expect(auction.textContent).not.toContain(borrower)
    expect(auction.textContent).toMatch(/\d+\.\d % of the lot left/)
    expect(screen.getByRole('region', { name: 'Borrowers table' }).contains(row)).toBe(true)
    // the view is named, and has a place for what the vault has already booked
    expect(screen.getByRole('heading', { level: 2, name: 'Positions & auctions' })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'Liquidations booked' })).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Open auctions table' }).contains(auction)).toBe(true)
    await waitFor(() => expect(screen.getByTestId('auctions-clock').textContent).toMatch(/now \d\d:\d\d:\d\d · ledger 555/))
    // updatedAt 2025-01-01T00:00:00Z, an hour later on the ledger clock.
    await waitFor(() => expect(screen.getByText(/demo-keeper-1 \(/).textContent).toContain('updated 01:00:00'))
    expect(document.body.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/)
  })

  it('turns the blocks to the first profitable one into time at the network’s ledger time', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(state), { status: 200, headers: { 'content-type': 'application/json' } })))
    // The keeper reported block 100 as of ledger 199; ledger 210 is the latest: block 111 now, 75 to go at 2.5 s.
    const reads = {
      latestLedger: async () => ({ sequence: 210, closeTime: Date.now() / 1000 }),
      ledgerTime: async () => ({ ms: 2500, source: 'scp_timing' }),
    } as unknown as Reads
    renderView(reads)
    await waitFor(() => expect(screen.getByText(/first profitable block/).textContent).toContain('186 (in about 3 min 7 s at 2.5 s per ledger)'))
  })

  it('shows each keeper pool with its figures, and the pool of each borrower when there are several', async () => {
    const A = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'
    const B = 'CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC'
    const two = {
      ...state,
      positions: [
        { protocol: 'blend', pool: A, user: 'GBORROWER', healthFactor: 0.93, collateralBase: '1000000000', liabilityBase: '1075268817' },
        { protocol: 'blend', pool: B, user: 'GBORROWER', healthFactor: 1.2, collateralBase: '1000000000', liabilityBase: '833333333' },
      ],
      pools: [
        { pool: A, borrowers: 1, liquidatable: 1, lowestHealthFactor: 0.93, fills: 2, drew: '25000000000', proceeds: '25500000000', profit: '500000000' },
        { pool: B, borrowers: 1, liquidatable: 0, lowestHealthFactor: 1.2, fills: 0, drew: '0', proceeds: '0', profit: '0' },
      ],
    }
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(two), { status: 200, headers: { 'content-type': 'application/json' } })))
    renderView()
    const rowA = await screen.findByTestId(`pool-row-${A}`)
    expect(screen.getByRole('heading', { level: 2, name: 'Lending pools' })).toBeTruthy()
    expect([...rowA.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      expect.stringContaining('CA3D5K'),
      'demo-keeper-1',
      '1',
      '1',
      '0.9300',
      '2',
      '2,500.0000000',
      '50.0000000',
      'hidden (API token)',
    ])
    expect(screen.getByTestId(`pool-row-${B}`).textContent).toContain('1.2000')
    // the same borrower in both pools: two rows, each naming its pool
    expect(screen.getByTestId(`borrower-row-${A}-GBORROWER`).textContent).toContain('0.9300')
    expect(screen.getByTestId(`borrower-row-${B}-GBORROWER`).textContent).toContain('1.2000')
    // one Pool column in the pools table, one in the borrowers table
    expect(screen.getAllByRole('columnheader', { name: 'Pool' })).toHaveLength(2)
  })
})
