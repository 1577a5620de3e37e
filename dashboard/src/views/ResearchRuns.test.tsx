/**
 * Research with a runs folder: the list from GET /api/runs (newest first, in words when empty), a
 * run opened as its report, a sweep as its heatmap and interval table, and a deep link.
 */
import { cleanup, fireEvent, render, screen, within } from '@solidjs/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { aggregateOf } from '../../../test/sim/aggregatePage.js'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { formatInterval } from '../../../sim/src/sweep/riskFormat.js'
import type { RunsListing } from '../logic/runsApi.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { ResearchView } from './ResearchView.js'

const RUNS = 'http://127.0.0.1:5173/api/runs'
const sweep = aggregateOf(['keepers.count=1,2,4', 'keepers.minProfit=1.01,1.05'])

const listing: RunsListing = {
  dir: '/repo/runs',
  exists: true,
  entries: [
    { kind: 'sweep', id: 'sweeps/keepers', name: 'keepers', seed: null, seeds: { base: 1, count: 2 }, when: '2026-01-03T00:00:00.000Z', figures: '6 grid points × 2 seeds' },
    { kind: 'run', id: 'cascade-seed42', name: 'cascade', seed: 42, seeds: null, when: '2026-01-02T00:00:00.000Z', figures: 'LP 0.12% cumulative · 2 of 4 auctions filled' },
  ],
}

function serve(files: Record<string, unknown>) {
  const fetchMock = vi.fn(async (url: string) => {
    const body = files[url]
    if (body === undefined) return new Response(JSON.stringify({ message: `no route ${url}` }), { status: 404 })
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

function withRuns() {
  const loaded = Object.assign(() => ({ config: undefined, problems: [], patch: { runsUrl: RUNS } }), { loading: false, state: 'ready' })
  const store = { loaded, reload: () => {}, config: () => undefined, reads: () => undefined } as unknown as ConfigStore
  return render(() => (
    <ConfigContext.Provider value={store}>
      <ResearchView />
    </ConfigContext.Provider>
  ))
}

beforeEach(() => history.replaceState(null, '', '#/research'))
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('Research: runs and sweeps from the server', () => {
  it('lists them, with kind, name, seeds and figures', async () => {
    serve({ [RUNS]: listing })
    withRuns()
    const rows = await screen.findAllByTestId('research-run-row')
    expect(rows.map((r) => r.dataset['kind'])).toEqual(['sweep', 'run'])
    expect(rows[0]!.textContent).toContain('1–2')
    expect(rows[1]!.textContent).toContain('LP 0.12% cumulative · 2 of 4 auctions filled')
    expect(screen.getByTestId('research-runs').textContent).not.toContain(listing.dir)
    expect(screen.getAllByTestId('research-open').map((b) => b.textContent)).toEqual(['Open sweep', 'Open report'])
  })

  it('says how to make a run when there are none, without the server’s folder', async () => {
    serve({ [RUNS]: { dir: '/srv/secret/place/runs', exists: false, entries: [] } })
    withRuns()
    const empty = await screen.findByTestId('research-runs')
    expect(empty.textContent).toMatch(/^No sim runs or sweeps yet\./)
    expect(screen.getByTestId('research-run-command').textContent).toBe('npm run sim -- run crash-30 --seed 7')
    expect(empty.textContent).not.toContain('/srv/secret')
  })

  it('opens a run as its report, and names it in the hash', async () => {
    serve({ [RUNS]: listing, [`${RUNS}/cascade-seed42/report.json`]: reportFixture() })
    withRuns()
    const open = await screen.findAllByTestId('research-open')
    fireEvent.click(open[1]!)
    expect(await screen.findAllByTestId('research-chart')).toHaveLength(8)
    expect(screen.getByTestId('report-auctions')).toBeTruthy()
    expect(location.hash).toBe('#/research?run=cascade-seed42')
  })

  it('opens a sweep as its heatmap and interval table', async () => {
    serve({ [RUNS]: listing, [`${RUNS}/sweeps/keepers/aggregate.json`]: sweep })
    withRuns()
    fireEvent.click((await screen.findAllByTestId('research-open'))[0]!)
    const table = await screen.findByTestId('sweep-ci-table', {}, { timeout: 5000 })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(1 + sweep.points.length)
    const r = sweep.points[5]!.risk['badDebt.var95']!
    expect(rows[6]!.textContent).toContain(`501.95 ${formatInterval(r, 'usd')} n=2`)
    expect(screen.getByTestId('sweep-heatmap').getAttribute('aria-label')).toBe('Heatmap of badDebt.var95 over keepers.count and keepers.minProfit')
    expect(screen.getByText(/^Intervals rest on 2 seeds per grid point/)).toBeTruthy()
    expect(location.hash).toBe('#/research?sweep=sweeps%2Fkeepers')
  })

  it('opens the sweep of a deep link', async () => {
    history.replaceState(null, '', '#/research?sweep=sweeps%2Fkeepers')
    const fetchMock = serve({ [RUNS]: listing, [`${RUNS}/sweeps/keepers/aggregate.json`]: sweep })
    withRuns()
    await screen.findByTestId('sweep-ci-table', {}, { timeout: 5000 })
    expect(fetchMock).toHaveBeenCalledWith(`${RUNS}/sweeps/keepers/aggregate.json`)
  })

  it('says in words why a sweep cannot be opened', async () => {
    serve({ [RUNS]: listing })
    withRuns()
    fireEvent.click((await screen.findAllByTestId('research-open'))[0]!)
    const error = await screen.findByTestId('research-error')
    expect(error.textContent).toBe(`Could not fetch ${RUNS}/sweeps/keepers/aggregate.json: the server answered HTTP 404 (no route ${RUNS}/sweeps/keepers/aggregate.json).`)
  })
})
