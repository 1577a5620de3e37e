/**
 * Snapshots of real networks start sims. (a) Blend's own mainnet LedgerSnapshot (ledger
 * 55,261,759, a Blend v1 pool; sandbox/fixtures/blend-mainnet-55261759) starts on mainnet's
 * passphrase, taken from the file's network_id, and the pool is refused in one line naming it a
 * Blend v1 pool. (b) A Blend v2 world deployed on a sandbox running mainnet's passphrase and
 * dumped to a snapshot runs to the end on that passphrase, the keepers included.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Networks } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { deployWorld, type World } from '../../src/world/index.js'
import { FoundWorldError } from './found.js'
import type { Report } from './report/types.js'
import { runScenario } from './run.js'
import { loadScenario, type Override } from './scenario/load.js'

const MAINNET_FIXTURE = join(REPO_ROOT, 'sandbox', 'fixtures', 'blend-mainnet-55261759', 'snapshot.json')
/** Blend v1's "Fixed XLM-USDC" pool in that file. */
const V1_POOL = 'CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'

let dir: string
let upstream: Sandbox | undefined
let world: World

function scenario(name: string, from: string, lines: string[] = [], ledgers = 10): string {
  const file = join(dir, `${name}.yaml`)
  writeFileSync(file, [`description: ${name}`, `run: { ledgers: ${ledgers} }`, 'world:', `  from: ${from}`, ...lines, ''].join('\n'))
  return file
}

const run = (file: string, out: string, overrides: Override[] = []): Promise<Report> => runScenario({ loaded: loadScenario(file, overrides), seed: 5, outDir: join(dir, out) })

describe('a sim from a real network snapshot', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-real-snapshot-'))
  })

  afterAll(async () => {
    await upstream?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it("(a) Blend's mainnet snapshot starts on mainnet's passphrase and its v1 pool is refused in one line", async () => {
    const logs: string[] = []
    const file = scenario('mainnet-v1', `{ snapshot: ${MAINNET_FIXTURE}, pool: ${V1_POOL} }`)
    const err = await runScenario({ loaded: loadScenario(file), seed: 5, log: (l) => logs.push(l) }).catch((e: unknown) => e)
    expect(logs).toContain(`starting from ${MAINNET_FIXTURE} on "${Networks.PUBLIC}"`)
    expect(err).toBeInstanceOf(FoundWorldError)
    const message = (err as Error).message
    expect(message).toBe(
      `world.from.pool ${V1_POOL}: a Blend v1 pool (its PoolConfig has no min_collateral, which Blend v2 pools have, and its instance keeps v1's "IsInit"), not Blend v2 — the sim runs Blend v2 pools only`,
    )
    expect(message).not.toContain('\n')
  })

  it('(a) a passphrase given that is not the file\'s network is refused before the node starts', async () => {
    const file = scenario('mainnet-testnet', `{ snapshot: ${MAINNET_FIXTURE}, pool: ${V1_POOL}, networkPassphrase: "${Networks.TESTNET}" }`)
    await expect(run(file, 'mainnet-testnet')).rejects.toThrow(
      `world.from.networkPassphrase "${Networks.TESTNET}" is not the network of ${MAINNET_FIXTURE}: its network_id 7ac33997544e3175d266bd022439b22cdb16508c01163f26e5cb2a3e1045a979 is not the SHA-256 of that passphrase, but mainnet's`,
    )
  })

  it('(b) a Blend v2 world dumped from a mainnet-passphrase sandbox runs to the end, keepers included', async () => {
    upstream = await startSandbox({ manual: true, instant: true, seed: 41, networkPassphrase: Networks.PUBLIC })
    world = await deployWorld(upstream, { seed: 41, serial: true, borrowers: 4, keepers: 1, service: false, txTimeoutSeconds: 0 })
    const snapshotFile = join(dir, 'mainnet-v2.json')
    await upstream.call('sandbox_dumpSnapshot', { path: snapshotFile })
    await upstream.stop()
    upstream = undefined
    expect((JSON.parse(readFileSync(snapshotFile, 'utf8')) as { network_id: string }).network_id).toBe('7ac33997544e3175d266bd022439b22cdb16508c01163f26e5cb2a3e1045a979')

    const file = scenario('mainnet-v2', `{ snapshot: mainnet-v2.json, pool: ${world.blend.pool} }`, [
      'market:',
      '  prices:',
      '    WETH: { model: scripted, moves: [{ at: 30s, change: -0.25 }] }',
      'keepers: { count: 1, latency: { model: constant, ms: 200 } }',
    ], 300)
    const r = await run(file, 'mainnet-v2-run')
    expect(r.source).toMatchObject({ kind: 'snapshot', file: 'mainnet-v2.json', pool: world.blend.pool, networkPassphrase: Networks.PUBLIC })
    expect(r.summary.auditHolds).toBe(true)
    expect(r.summary.replayMismatches).toBe(0)
    // The keeper signed on mainnet's passphrase: the crash's auctions were all filled by it.
    expect(r.summary.auctions.created).toBeGreaterThan(0)
    expect(r.summary.auctions.filled).toBe(r.summary.auctions.created)
    expect(r.keepers).toHaveLength(1)
    expect(r.keepers[0]!.wins).toBe(r.summary.auctions.filled)
  })
})
