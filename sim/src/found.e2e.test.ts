/**
 * Scenarios on a world we did not deploy. An upstream sandbox holds a world deployed under
 * another seed (its own oracle, pool and borrowers, no vault). Its state is (a) dumped to a
 * LedgerSnapshot file and (b) forked through its RPC; on each, a crash of WETH by 25 % must
 * liquidate exactly the borrowers src/core predicts from the upstream's own positions and prices,
 * fill every auction with 0 replay mismatches, and leave the upstream as it was. Two runs from
 * the snapshot with one seed write the same bytes.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { createChain } from '../../src/chain/index.js'
import { isLiquidatable, positionData } from '../../src/keeper/adapters/blend/positionData.js'
import { instanceKey, positionsKey, resDataKey } from '../../src/keeper/adapters/blend/storage.js'
import { deployWorld, type World } from '../../src/world/index.js'
import { scanPool } from '../../src/world/found/index.js'
import { compareRunFiles } from './determinism/outputs.js'
import type { Report } from './report/types.js'
import { runScenario } from './run.js'
import { loadScenario, type Override } from './scenario/load.js'

const CRASH = 0.75
let dir: string
let upstream: Sandbox
let world: World
let predicted: string[]
let survivors: string[]
let startHealth: Map<string, number>
let upstreamLatest: { sequence: number; id: string }
let keys: xdr.LedgerKey[]
let upstreamEntries: unknown

const rawEntries = (node: Sandbox) => node.call('getLedgerEntries', { keys: keys.map((k) => k.toXdr('base64')) })

function scenarioFile(): string {
  const file = join(dir, 'found-crash.yaml')
  writeFileSync(
    file,
    [
      'description: WETH −25 % on a pool found in a snapshot or a fork',
      'run: { ledgers: 300 }',
      'world:',
      `  from: { snapshot: upstream.json, pool: ${world.blend.pool}, dexDepthUsd: { WETH: 1000000, WBTC: 2000000 } }`,
      '  depositors: { count: 2 }',
      'market:',
      '  prices:',
      `    WETH: { model: scripted, moves: [{ at: 1m, change: ${CRASH - 1} }] }`,
      'keepers: { count: 2, latency: { model: constant, ms: 200 } }',
      '',
    ].join('\n'),
  )
  return file
}

async function runFound(out: string, overrides: Override[] = []): Promise<Report> {
  return runScenario({ loaded: loadScenario(scenarioFile(), overrides), seed: 3, outDir: join(dir, out) })
}

const liquidated = (r: Report) => [...new Set(r.auctions.filter((a) => a.kind === 'liquidation').map((a) => a.user))].sort()

async function expectUpstreamUnchanged(): Promise<void> {
  const now = await upstream.server.getLatestLedger()
  expect({ sequence: now.sequence, id: now.id }).toEqual(upstreamLatest)
  expect(await rawEntries(upstream)).toEqual(upstreamEntries)
}

function expectCrashOutcome(r: Report): void {
  expect(liquidated(r)).toEqual(predicted)
  expect(r.summary.auctions.filled).toBe(r.summary.auctions.created)
  expect(r.summary.replayMismatches).toBe(0)
  expect(r.summary.auditHolds).toBe(true)
  // The report's start figures are the upstream's positions valued by the same core.
  const start = r.source!.start
  expect(start.borrowers.map((b) => b.address).sort()).toEqual([...startHealth.keys()].sort())
  for (const b of start.borrowers) expect(b.healthFactor).toBeCloseTo(startHealth.get(b.address)!, 4)
  expect(start.reserves.map((x) => x.code)).toEqual(['USDC', 'WETH', 'WBTC'])
  expect(start.reserves[0]!.utilisation).toBeGreaterThan(0)
}

describe('a scenario on a pool found in a snapshot or a fork', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-found-e2e-'))
    upstream = await startSandbox({ manual: true, instant: true, seed: 77 })
    world = await deployWorld(upstream, { seed: 77, serial: true, borrowers: 8, keepers: 1, service: false, txTimeoutSeconds: 0 })
    await upstream.call('sandbox_dumpSnapshot', { path: join(dir, 'upstream.json') })

    // The prediction: the upstream's own positions and prices, WETH's price × 0.75, src/core's health factor.
    const latest = await upstream.server.getLatestLedger()
    upstreamLatest = { sequence: latest.sequence, id: latest.id }
    const chain = createChain({ rpcUrl: upstream.rpcUrl, networkPassphrase: upstream.networkPassphrase })
    const users = world.borrowers.map((b) => b.address)
    const scan = await scanPool(chain, world.blend.pool, users, Number(latest.closeTime) * 1000)
    const weth = world.asset('WETH').contract
    const prices = new Map(scan.valuation.prices)
    const p = prices.get(weth)!
    prices.set(weth, { ...p, price: (p.price * BigInt(CRASH * 100)) / 100n })
    const crashed = { ...scan.valuation, prices }
    predicted = scan.borrowers.filter((b) => isLiquidatable(positionData(crashed, b.positions))).map((b) => b.user).sort()
    survivors = users.filter((u) => !predicted.includes(u))
    startHealth = new Map(scan.borrowers.map((b) => [b.user, b.healthFactor]))

    keys = [instanceKey(world.oracle), ...world.blend.reserves.map((r) => resDataKey(world.blend.pool, r)), ...users.map((u) => positionsKey(world.blend.pool, u))]
    upstreamEntries = await rawEntries(upstream)
  })

  afterAll(async () => {
    await upstream?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('the crash splits the upstream borrowers: some go under, some stay above', () => {
    expect(predicted.length).toBeGreaterThan(0)
    expect(survivors.length).toBeGreaterThan(0)
  })

  it('(a) from the snapshot: liquidates exactly the predicted borrowers, names the file; the same seed gives the same bytes', async () => {
    const r = await runFound('snapshot-1')
    expectCrashOutcome(r)
    expect(r.source).toMatchObject({
      kind: 'snapshot',
      file: 'upstream.json',
      sha256: createHash('sha256').update(readFileSync(join(dir, 'upstream.json'))).digest('hex'),
      ledger: upstreamLatest.sequence,
      pool: world.blend.pool,
      oracle: world.oracle,
      borrowerSources: { snapshot: world.borrowers.length + 1 },
    })
    const again = await runFound('snapshot-2')
    expect(liquidated(again)).toEqual(predicted)
    expect(await compareRunFiles(join(dir, 'snapshot-1'), join(dir, 'snapshot-2'))).toEqual([])
    await expectUpstreamUnchanged()
  })

  it('(b) forking the upstream node: the same borrowers, found in its events; the upstream is unchanged', async () => {
    const r = await runFound('fork', [
      { path: 'world.from.snapshot', value: undefined },
      { path: 'world.from.fork', value: upstream.rpcUrl },
      { path: 'world.from.ledger', value: upstreamLatest.sequence },
    ])
    expectCrashOutcome(r)
    expect(r.source).toMatchObject({ kind: 'fork', url: upstream.rpcUrl, ledger: upstreamLatest.sequence, pool: world.blend.pool })
    expect(r.source!.borrowerSources['events']).toBeGreaterThanOrEqual(world.borrowers.length)
    await expectUpstreamUnchanged()
  })

  it('a fork pinned to a ledger the upstream is not at is refused in words', async () => {
    await expect(
      runFound('fork-pinned', [
        { path: 'world.from.snapshot', value: undefined },
        { path: 'world.from.fork', value: upstream.rpcUrl },
        { path: 'world.from.ledger', value: upstreamLatest.sequence - 1 },
      ]),
    ).rejects.toThrow(`world.from.ledger is ${upstreamLatest.sequence - 1} but ${upstream.rpcUrl} is at ledger ${upstreamLatest.sequence}`)
  })
})
