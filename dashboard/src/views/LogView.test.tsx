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
    // routine scans are hidden until asked for
    expect(await screen.findAllByTestId('log-line')).toHaveLength(1)
    expect(screen.getByTestId('log-count').textContent).toContain('1 routine scan line(s) hidden')
    screen.getByTestId('log-routine').click()
    const lines = await screen.findAllByTestId('log-line')
    expect(lines).toHaveLength(2)
    // Within a second or so of 11:00:00 on the ledger clock (the read and the render are not the same instant).
    expect(lines[0]!.textContent).toMatch(/^1[01]:[05]\d:\d\d · ledger 199 127\.0\.0\.1:8080 progress blend: GA: block 100$/)
    expect(lines[1]!.textContent).toMatch(/^1[01]:[05]\d:\d\d 127\.0\.0\.1:8080 scan/)
    expect(lines[0]!.textContent).not.toContain('keeper clock')
    expect(document.body.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/)
  })

  it('opens with the keepers’ recent events, fills before scans, and shows a line sent again only once', async () => {
    const reads = { latestLedger: async () => ({ sequence: 9, closeTime: Date.now() / 1000 }) } as unknown as Reads
    const store: ConfigStore = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => undefined, config: () => config, reads: () => reads }
    render(() => (
      <ConfigContext.Provider value={store}>
        <LogView />
      </ConfigContext.Provider>
    ))
    const handlers = streams.at(-1)!
    const ts = new Date(Date.now() - 600_000).toISOString()
    handlers.onEvent({ id: 1, ts, kind: 'scan', message: 'blend: 0 task(s)' })
    expect((await screen.findByTestId('log-quiet')).textContent).toBe('Only routine scans so far: no fill, draw or error among the 1 line(s).')
    // the backlog again after a reconnection, with a fill among the scans
    for (const e of [
      { id: 1, ts, kind: 'scan', message: 'blend: 0 task(s)' },
      { id: 2, ts, kind: 'fill', message: 'blend: GA: filled' },
      { id: 3, ts, kind: 'scan', message: 'blend: 0 task(s)' },
    ])
      handlers.onEvent(e)
    const lines = await screen.findAllByTestId('log-line')
    expect(lines.map((l) => l.dataset['kind'])).toEqual(['fill'])
    expect(screen.getByTestId('log-count').textContent).toMatch(/^3 line\(s\), .*; 2 routine scan line\(s\) hidden/)
  })
})
