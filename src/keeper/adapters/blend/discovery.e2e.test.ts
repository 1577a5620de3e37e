/**
 * Borrower discovery when the borrow events are no longer in the main RPC's window, end to end on
 * two sandbox nodes of one chain with the real Blend v2 WASMs (src/world):
 *
 * - node A (the history node) runs the world: N borrowers borrow there; it keeps the default
 *   retention window (17 280 ledgers), so it holds every event. An earlier keeper run on A writes
 *   the BORROWER_HINTS_FILE.
 * - node B (the keeper's CONTRACT_RPC) starts from A's state (`--state`, test/sandbox/fork.ts)
 *   with a short `--retention-window`: it continues A's chain from A's latest ledger, with every
 *   position but none of A's events. One more borrower borrows on B and a second keeper run
 *   records it in the hints file; then B closes more ledgers than its window, so that borrow
 *   event leaves B's window too.
 *
 * A fresh keeper on B finds nobody from events alone; with WATCH_ADDRESSES, the hints file or
 * HISTORY_API_URL = A it finds the borrowers. DISCOVERY_E2E_BORROWERS sets N (default 12).
 */
import { Keypair } from '@stellar/stellar-sdk'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../../sandbox/ts/launch.js'
import { forkSandbox } from '../../../../test/sandbox/fork.js'
import { createChain, type Chain } from '../../../chain/index.js'
import { addTrustlines, mintAll } from '../../../world/assets.js'
import { REQUEST, blendRequest, deployWorld, keypairFor, poolSubmit, type World } from '../../../world/index.js'
import type { AdapterContext } from '../../sdk/index.js'
import { spawnKeeper, type KeeperProcess, type LogLine } from '../../../../test/keeper/keeperProcess.js'
import { worldKeeperEnv } from '../../../../test/keeper/worldKeeperEnv.js'
import { borrowerEventFilters } from './discovery.js'
import { parseHints } from './hints.js'
import { createLendingPoolAdapter, type LendingPoolAdapter } from './index.js'
import { fundAccount } from '../../../chain/index.js'

const UNIT = 10_000_000n
const N = Number(process.env.DISCOVERY_E2E_BORROWERS ?? 12)
/** B's retention window (ledgers). */
const WINDOW = 20

let nodeA: Sandbox
let nodeB: Sandbox
let chainB: Chain
let world: World
let forkLedger: number
let hintsFile: string
/** The borrower whose borrow happened on B, inside B's window at first. */
let late: Keypair
let lateBorrowLedger: number
const keepers: KeeperProcess[] = []

const worldBorrowers = () => world.borrowers.map((b) => b.address)

async function borrowEventsOn(node: Sandbox): Promise<number> {
  const { oldestLedger } = await node.server.getHealth()
  const res = await node.server.getEvents({ startLedger: oldestLedger, filters: borrowerEventFilters(world.blend.pool), limit: 1000 })
  return res.events.length
}

/** A keeper process against `rpcUrl`, stopped once `until` logged. */
async function keeperRun(rpcUrl: string, name: string, extra: Record<string, string>, until: (l: LogLine) => boolean): Promise<KeeperProcess> {
  const k = spawnKeeper(worldKeeperEnv(world, world.keepers[0]!, name, { CONTRACT_RPC: rpcUrl, REBALANCE_VAULT: '', ...extra }))
  keepers.push(k)
  await k.waitForLog(until, 90_000)
  return k
}

async function stopKeeper(k: KeeperProcess): Promise<void> {
  k.kill('SIGTERM')
  await k.exited
}

/** A fresh Blend adapter on node B built by the keeper's factory from these settings. */
async function freshAdapter(settings: Pick<AdapterContext, 'watchAddresses' | 'borrowerHintsFile' | 'historyApiUrl'>, warnings: string[] = []) {
  const logger = { info: () => {}, debug: () => {}, error: () => {}, warn: (_: object, msg?: string) => void warnings.push(msg ?? '') }
  const ctx: AdapterContext = {
    chain: chainB,
    keypair: world.keepers[0]!,
    logger,
    vaultContract: world.service!.vault,
    registryContract: world.service!.registry,
    usdcContract: world.usdc.contract,
    lendingPool: world.blend.pool,
    minProfit: 1.02,
    slippageBps: 300,
    primaryDexRouter: undefined,
    fallbackDexRouter: undefined,
    rebalanceVault: undefined,
    rebalanceDriftBps: 500,
    emit: () => {},
    ...settings,
  }
  const adapter = (await createLendingPoolAdapter(ctx)) as LendingPoolAdapter
  const started = performance.now()
  await adapter.getTasks(chainB)
  const scanMs = performance.now() - started
  const found = new Set(adapter.lastScan()!.borrowers.map((b) => b.user))
  return { adapter, found, scanMs, warnings }
}

const count = (found: Set<string>, users: string[]) => users.filter((u) => found.has(u)).length

beforeAll(async () => {
  nodeA = await startSandbox({ manual: true, instant: true })
  world = await deployWorld(nodeA, {
    seed: 61,
    borrowers: N,
    keepers: 1,
    depositors: 1,
    lenderSupply: BigInt(Math.max(2_000_000, N * 20_000)) * UNIT,
  })
  hintsFile = join(mkdtempSync(join(tmpdir(), 'discovery-e2e-')), 'borrowers.txt')
}, 300_000)

afterAll(async () => {
  for (const k of keepers) if (k.proc.exitCode === null && k.proc.signalCode === null) k.kill('SIGKILL')
  await nodeB?.stop()
  await nodeA?.stop()
})

describe('borrower discovery past the RPC retention window (two sandbox nodes of one chain, real Blend v2)', () => {
  it('an earlier keeper run on A writes every borrower it discovers to BORROWER_HINTS_FILE', async () => {
    expect(await borrowEventsOn(nodeA)).toBe(N)
    const k = await keeperRun(nodeA.rpcUrl, 'discovery-a', { BORROWER_HINTS_FILE: hintsFile }, (l) => l.msg === 'borrower hints appended')
    await k.waitForLog((l) => l.msg === 'cycle done')
    await stopKeeper(k)
    const parsed = parseHints(readFileSync(hintsFile, 'utf8'), hintsFile)
    expect(parsed.problems).toEqual([])
    expect(new Set(parsed.addresses)).toEqual(new Set(worldBorrowers()))
  })

  it('B starts from A\'s state with a short retention window: same chain and positions, none of A\'s events', async () => {
    const fork = await forkSandbox(nodeA, { manual: true, instant: true, extraArgs: ['--retention-window', String(WINDOW)] })
    nodeB = fork.node
    forkLedger = fork.forkLedger
    chainB = createChain({ rpcUrl: nodeB.rpcUrl, networkPassphrase: nodeB.networkPassphrase, friendbotUrl: nodeB.friendbotUrl })
    expect((await nodeB.server.getHealth()).ledgerRetentionWindow).toBe(WINDOW)
    expect(await borrowEventsOn(nodeB)).toBe(0)
    expect(await borrowEventsOn(nodeA)).toBe(N)
  })

  it('a borrower who borrows on B is recorded by a keeper run there; then its event leaves B\'s window', async () => {
    late = keypairFor(world.seed, 'late-borrower')
    const weth = world.asset('WETH')
    await fundAccount(chainB, late.publicKey())
    await addTrustlines(chainB, [late], [world.usdc, weth])
    await mintAll(chainB, world.issuer, [{ asset: weth, to: late.publicKey(), amount: 10n * UNIT }])
    await poolSubmit(chainB, late, world.blend.pool, [
      blendRequest(REQUEST.supplyCollateral, weth.contract, 10n * UNIT),
      blendRequest(REQUEST.borrow, world.usdc.contract, 5_000n * UNIT),
    ])
    lateBorrowLedger = (await nodeB.server.getLatestLedger()).sequence
    expect(await borrowEventsOn(nodeB)).toBe(1)

    // the second run reads the N borrowers back from the file and appends only the new one
    const k = await keeperRun(nodeB.rpcUrl, 'discovery-b', { BORROWER_HINTS_FILE: hintsFile }, (l) => l.msg === 'borrower hints appended')
    expect(k.lines.find((l) => l.msg === 'borrower hints appended')).toMatchObject({ appended: 1 })
    await stopKeeper(k)
    const lines = readFileSync(hintsFile, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(N + 1)
    expect(lines.at(-1)).toBe(late.publicKey())

    await nodeB.closeLedgers(WINDOW + 5)
    const health = await nodeB.server.getHealth()
    expect(health.oldestLedger).toBeGreaterThan(lateBorrowLedger)
    expect(await borrowEventsOn(nodeB)).toBe(0)
  })

  it('a fresh keeper on B finds nobody from events alone, and every borrower with WATCH_ADDRESSES, the hints file or HISTORY_API_URL', async () => {
    const everyone = [...worldBorrowers(), late.publicKey()]
    const eventsAlone = await freshAdapter({})
    expect(eventsAlone.found.size).toBe(0)

    // (a) the watch list; a lender without liabilities is skipped
    const watch = await freshAdapter({ watchAddresses: [...everyone, world.lender.publicKey()] })
    expect(watch.found).toEqual(new Set(everyone))

    // (b) the file the two earlier keeper runs wrote
    const hints = await freshAdapter({ borrowerHintsFile: hintsFile })
    expect(hints.found).toEqual(new Set(everyone))

    // (c) the history node A: every borrower whose borrow A recorded. The late borrower's event is
    // B's alone (A stopped at the fork ledger) and left B's window: read from neither, and said so.
    const history = await freshAdapter({ historyApiUrl: nodeA.rpcUrl })
    expect(history.found).toEqual(new Set(worldBorrowers()))
    const backfill = history.adapter.scanner.discovery.history!.last!
    expect(backfill.borrowers).toHaveLength(N)
    expect(backfill.toLedger).toBe(forkLedger)
    expect(history.warnings).toEqual([
      `history RPC ${nodeA.rpcUrl} ends at ledger ${forkLedger}, the main RPC's window begins at ${(await nodeB.server.getHealth()).oldestLedger}: ledgers in between are read from neither`,
    ])

    const health = await nodeB.server.getHealth()
    console.log(
      `discovery e2e: N=${N} world borrowers + 1 late borrower; main RPC (B) window ${health.oldestLedger}-${health.latestLedger} (${WINDOW} ledgers), ` +
        `history RPC (A) ledgers up to ${forkLedger}. Found: events alone ${count(eventsAlone.found, everyone)}/${N + 1}, ` +
        `WATCH_ADDRESSES ${count(watch.found, everyone)}/${N + 1}, BORROWER_HINTS_FILE ${count(hints.found, everyone)}/${N + 1}, ` +
        `HISTORY_API_URL ${count(history.found, everyone)}/${N + 1} (${count(history.found, worldBorrowers())}/${N} of A's). ` +
        `Backfill: ${backfill.borrowers.length} borrowers from ledgers ${backfill.fromLedger}-${backfill.toLedger} in ${backfill.pages} page(s), ` +
        `${backfill.ms.toFixed(1)} ms. First scan: events alone ${eventsAlone.scanMs.toFixed(0)} ms, watch list ${watch.scanMs.toFixed(0)} ms, ` +
        `hints file ${hints.scanMs.toFixed(0)} ms, history backfill ${history.scanMs.toFixed(0)} ms`,
    )
  })

  it('an unreachable history node is a warning naming it; the scan goes on with the other sources', async () => {
    const down = 'http://127.0.0.1:9/rpc'
    const r = await freshAdapter({ historyApiUrl: down, watchAddresses: [late.publicKey()] })
    expect(r.found).toEqual(new Set([late.publicKey()]))
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatch(/^history RPC http:\/\/127\.0\.0\.1:9\/rpc unreachable or failing \(.*\): borrower backfill retried next cycle/)
    expect(r.adapter.scanner.discovery.history!.pending).toBeDefined()
  })

  it('through the keeper\'s configuration: HISTORY_API_URL and WATCH_ADDRESSES give /api/state every borrower', async () => {
    const k = await keeperRun(nodeB.rpcUrl, 'discovery-c', { HISTORY_API_URL: nodeA.rpcUrl, WATCH_ADDRESSES: late.publicKey() }, (l) => l.msg === 'cycle done')
    expect(k.lines.find((l) => l.msg === 'history backfill done')).toMatchObject({ borrowers: N, toLedger: forkLedger })
    const port = await k.port()
    const state = (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as { positions: { protocol: string; user: string }[] }
    await stopKeeper(k)
    expect(new Set(state.positions.filter((p) => p.protocol === 'blend').map((p) => p.user))).toEqual(new Set([...worldBorrowers(), late.publicKey()]))
  })
})
