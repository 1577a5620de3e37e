import { cleanup, render, screen, waitFor } from '@solidjs/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Reads } from '../clients/chain.js'
import type { StreamHandlers } from '../clients/events.js'
import type { DashboardConfig } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'

const streams: StreamHandlers[] = []
vi.mock('../clients/events.js', () => ({
  openKeeperStream: (_url: string, handlers: StreamHandlers) => {
    streams.push(handlers)
    return () => undefined
  },
}))
const { LogView } = await import('./LogView.js')

const config = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'x' },
  contracts: { vault: 'CV', registry: 'CR', usdc: 'CU' },
  keeperApis: ['http://127.0.0.1:8080'],
} as DashboardConfig

afterEach(() => cleanup())

describe('LogView', () => {
  it('shows keeper events on the ledger clock with the ledger an event names, and says which clock it is', async () => {
    // The ledger clock runs an hour ahead of the keeper's wall clock (an advanced sandbox clock).
    const reads = { latestLedger: async () => ({ sequence: 555, closeTime: Date.now() / 1000 + 3600 }) } as unknown as Reads
    const store: ConfigStore = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => undefined, config: () => config, reads: () => reads }
    render(() => (
      <ConfigContext.Provider value={store}>
        <LogView />
      </ConfigContext.Provider>
    ))
    await waitFor(() => expect(screen.getByTestId('log-clock').textContent).toMatch(/ledger close times \(UTC\), now \d\d:\d\d:\d\d · ledger 555/))
    const ts = new Date(Date.UTC(2025, 0, 1, 10, 0, 0)).toISOString()
    const handlers = streams.at(-1)!
    handlers.onEvent({ id: 1, ts, kind: 'progress', message: 'blend: GA: block 100', data: { ledger: 199 } })
    handlers.onEvent({ id: 2, ts, kind: 'scan', message: 'blend: 3 task(s)' })
    const lines = await screen.findAllByTestId('log-line')
    // Within a second or so of 11:00:00 on the ledger clock (the read and the render are not the same instant).
    expect(lines[0]!.textContent).toMatch(/^1[01]:[05]\d:\d\d · ledger 199 127\.0\.0\.1:8080 progress blend: GA: block 100$/)
    expect(lines[1]!.textContent).toMatch(/^1[01]:[05]\d:\d\d 127\.0\.0\.1:8080 scan/)
    expect(lines[0]!.textContent).not.toContain('keeper clock')
    expect(document.body.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/)
  })
})
