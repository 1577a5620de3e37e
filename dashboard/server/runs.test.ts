/**
 * GET /api/runs and the files of the runs it lists, on a temporary runs folder: a run, a sweep
 * (whose own runs stay inside it), folders that are skipped (node_modules, too deep, a symbolic
 * link out of the folder), and requests that try to leave the folder.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aggregateOf } from '../../test/sim/aggregatePage.js'
import { reportFixture } from '../../test/sim/reportFixture.js'
import type { RunsListing } from '../src/logic/runsApi.js'
import { buildDashboardApp } from './app.js'
import { parseRunPath } from './runs.js'
import { scanRuns } from './runsScan.js'

let base: string
let runs: string
let app: FastifyInstance

function put(path: string, json: unknown, when?: Date) {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, JSON.stringify(json))
  if (when) utimesSync(path, when, when)
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'dashboard-runs-'))
  runs = join(base, 'runs')
  const root = join(base, 'app')
  mkdirSync(root)
  writeFileSync(join(root, 'index.html'), '<div id="root"></div>')
  put(join(runs, 'cascade-seed42', 'report.json'), reportFixture(), new Date('2026-01-02T00:00:00Z'))
  put(join(runs, 'sweeps', 'keepers', 'aggregate.json'), aggregateOf(['keepers.count=1,2', 'keepers.minProfit=1.01,1.05']), new Date('2026-01-03T00:00:00Z'))
  put(join(runs, 'sweeps', 'keepers', 'runs', 'p0-seed1', 'report.json'), reportFixture())
  put(join(runs, 'node_modules', 'x', 'report.json'), reportFixture())
  put(join(runs, 'a', 'b', 'c', 'd', 'e', 'report.json'), reportFixture())
  put(join(runs, 'broken', 'report.json'), 'not json')
  put(join(base, 'outside', 'report.json'), reportFixture())
  symlinkSync(join(base, 'outside'), join(runs, 'linked'))
  app = await buildDashboardApp({ root, runsDir: runs, keeperApis: [] })
})

afterAll(async () => {
  await app?.close()
  if (base) rmSync(base, { recursive: true, force: true })
})

describe('the runs scanner', () => {
  it('lists runs and sweeps newest first, a sweep’s own runs inside it, skipping node_modules, links and deep folders', async () => {
    const listing = await scanRuns(runs)
    expect(listing.exists).toBe(true)
    expect(listing.entries.map((e) => [e.kind, e.id])).toEqual([
      ['run', 'broken'],
      ['sweep', 'sweeps/keepers'],
      ['run', 'cascade-seed42'],
    ])
    const [broken, sweep, run] = listing.entries
    expect(run).toEqual({
      kind: 'run',
      id: 'cascade-seed42',
      name: 'cascade <small>',
      seed: 42,
      seeds: null,
      when: '2026-01-02T00:00:00.000Z',
      figures: 'LP 0.12% cumulative · 2 of 4 auctions filled',
    })
    expect(sweep).toMatchObject({ kind: 'sweep', name: 'sweep </script> <b>', seed: null, seeds: { base: 1, count: 2 } })
    expect(sweep!.figures).toBe('4 grid points × 2 seeds, 8 runs finished, over keepers.count, keepers.minProfit')
    expect(broken).toMatchObject({ name: 'broken', seed: null })
    expect(broken!.figures).toMatch(/^report\.json could not be read \(/)
  })

  it('says a missing folder does not exist and lists nothing', async () => {
    expect(await scanRuns(join(base, 'no-such-folder'))).toEqual({ dir: join(base, 'no-such-folder'), exists: false, entries: [] })
  })
})

describe('GET /api/runs', () => {
  it('lists the folder and says where the runs URL is in config.json', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/runs' })
    expect(res.statusCode).toBe(200)
    const listing = res.json<RunsListing>()
    expect(listing.dir).toBe(runs)
    expect(listing.entries).toHaveLength(3)
    const config = await app.inject({ method: 'GET', url: '/config.json', headers: { host: 'h:5173' } })
    expect(config.json()).toEqual({ runsUrl: 'http://h:5173/api/runs' })
  })

  it('serves a listed run’s report.json and a listed sweep’s aggregate.json', async () => {
    const report = await app.inject({ method: 'GET', url: '/api/runs/cascade-seed42/report.json' })
    expect(report.statusCode).toBe(200)
    expect(report.headers['content-type']).toMatch(/application\/json/)
    expect(report.json()).toEqual(reportFixture())
    const aggregate = await app.inject({ method: 'GET', url: '/api/runs/sweeps/keepers/aggregate.json' })
    expect(aggregate.statusCode).toBe(200)
    expect(aggregate.json().points).toHaveLength(4)
    expect((await app.inject({ method: 'GET', url: '/api/runs/sweeps%2Fkeepers/aggregate.json' })).statusCode).toBe(400)
  })

  it('refuses what is not listed, in words', async () => {
    const get = (url: string) => app.inject({ method: 'GET', url })
    const notListed = await get('/api/runs/sweeps/keepers/runs/p0-seed1/report.json')
    expect(notListed.statusCode).toBe(404)
    expect(notListed.json().message).toBe(`no run "sweeps/keepers/runs/p0-seed1" under ${runs}`)
    expect((await get('/api/runs/cascade-seed42/aggregate.json')).statusCode).toBe(404)
    expect((await get('/api/runs/linked/report.json')).statusCode).toBe(404)
    expect((await get('/api/runs/node_modules/x/report.json')).statusCode).toBe(404)
    expect((await get('/api/runs/cascade-seed42/report.html')).json().message).toBe('only report.json (a run) and aggregate.json (a sweep) are served, not "report.html"')
  })

  it('refuses paths that try to leave the folder (400)', async () => {
    for (const url of ['/api/runs/..%2Foutside/report.json', '/api/runs//etc/report.json', '/api/runs/a%5C..%5Cb/report.json', '/api/runs/report.json']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(400)
      expect(res.json().message, url).toMatch(/^(the path may not hold|give \/api\/runs)/)
    }
    // a client resolves a literal `..` (or `%2e%2e`) in the URL before sending: what is left is not listed
    expect((await app.inject({ method: 'GET', url: '/api/runs/%2e%2e/outside/report.json' })).statusCode).toBe(404)
    expect(parseRunPath('%2e%2e/report.json')).toEqual({ problem: 'the path may not hold "..": ids are folders inside the runs folder' })
    expect(parseRunPath('a/b/report.json')).toEqual({ id: 'a/b', file: 'report.json' })
  })
})
