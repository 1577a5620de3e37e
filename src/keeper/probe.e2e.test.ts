/**
 * The keeper process against outages and draws on a real node: started while its RPC is down it
 * says which URL it cannot reach, and registers and sets up its channel accounts once the node is
 * up; a draw held on chain shows on /api/state and /metrics, aged in ledgers, until it is
 * returned.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { addr, channelKeypairs, i128, invoke, nativeBalance, u64, type LedgerReader } from '../chain/index.js'
import { RegistryContract } from './clients/index.js'
import { spawnKeeper, type KeeperProcess } from '../../test/keeper/keeperProcess.js'
import { deployVaultWorld, type VaultWorld } from '../../test/keeper/vaultWorld.js'

let sandbox: Sandbox | undefined
let world: VaultWorld
let port: number
const stateFile = join(mkdtempSync(join(tmpdir(), 'keeper-probe-')), 'sandbox-state.json')
const running: KeeperProcess[] = []

async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const p = (srv.address() as { port: number }).port
  await new Promise<void>((r) => srv.close(() => r()))
  return p
}

function start(keeper: Keypair, extra: Record<string, string> = {}): KeeperProcess {
  const k = spawnKeeper({
    KEEPER_SECRET: keeper.secret(),
    KEEPER_NAME: `probe-${keeper.publicKey().slice(0, 6)}`,
    REGISTRY_CONTRACT: world.registry,
    VAULT_CONTRACT: world.vault,
    CONTRACT_RPC: `http://127.0.0.1:${port}/rpc`,
    NETWORK_PASSPHRASE: world.chain.networkPassphrase,
    API_PORT: '0',
    API_HOST: '127.0.0.1',
    POLL_INTERVAL: '3',
    LEDGER_POLL_MS: '100',
    CHANNEL_ACCOUNTS: '0',
    ...extra,
  })
  running.push(k)
  return k
}

async function api(k: KeeperProcess, path: string): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${await k.port()}${path}`)
  expect(res.status).toBe(200)
  return path === '/metrics' ? res.text() : res.json()
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)
  if (!m) throw new Error(`no ${name} in /metrics`)
  return Number(m[1])
}

/** Polls `f` until it returns a value (not undefined), up to `ms`. */
async function until<T>(f: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 250))
  }
}

beforeAll(async () => {
  port = await freePort()
  sandbox = await startSandbox({ port, state: stateFile })
  world = await deployVaultWorld(sandbox)
}, 120_000)

// A test that stopped the node brings it back for the next, whatever happened.
afterEach(async () => {
  sandbox ??= await startSandbox({ port, state: stateFile })
}, 60_000)

afterAll(async () => {
  for (const k of running) if (k.proc.exitCode === null && k.proc.signalCode === null) k.kill('SIGKILL')
  await sandbox?.stop()
})

describe('keeper probes on the sandbox', () => {
  it('started while the RPC is down: names the URL it cannot reach, retries registration each cycle and the channel accounts in the background, both succeed once the node is up', async () => {
    const keeper = await world.newAccount(500_0000000n)
    await sandbox!.stop() // the state file keeps the world
    sandbox = undefined

    const k = start(keeper, { CHANNEL_ACCOUNTS: '2' })
    const url = `http://127.0.0.1:${port}/rpc`
    const failed = await k.waitForLog((l) => l.msg === 'registration failed (continuing unregistered)')
    await k.waitForLog((l) => l.msg === 'cycle done' && Number(l.cycle) >= 2)
    const down = await api(k, '/api/state')
    expect(down.registration).toBe('failed')
    expect(down.cycles.lastError).toMatch(new RegExp(`^registration: cannot reach the RPC at ${url} \\(ECONNREFUSED\\)`))
    expect(down.cycles.lastErrorAt).not.toBeNull()
    const metrics = await api(k, '/metrics')
    expect(metric(metrics, 'service_poll_interval_seconds')).toBe(3)
    expect(metric(metrics, 'service_last_cycle_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 30)
    // Never read: unknown, so that no alert on them fires.
    for (const name of ['service_keeper_registered', 'service_keeper_slashed', 'service_operator_xlm_balance']) expect(metric(metrics, name), name).toBeNaN()
    expect(down.operatorXlm).toBeNull()
    expect(k.lines.find((l) => l.msg === 'channel accounts unavailable: sending everything from the operator')).toMatchObject({ retryInMs: 5000 })

    // The node comes up on the same port with the same chain.
    sandbox = await startSandbox({ port, state: stateFile })
    const registered = await k.waitForLog((l) => l.msg === 'registered with the keeper registry', 30_000)
    // What the first attempt said: the URL it could not reach, not a missing account.
    expect(failed.err).toBe(`cannot reach the RPC at ${url} (ECONNREFUSED)`)
    expect(JSON.stringify(k.lines)).not.toContain('Account not found')
    expect(Number(registered.attempt)).toBeGreaterThan(1)
    const info = await new RegistryContract(world.chain, world.registry).getKeeper(keeper.publicKey())
    expect(info).toMatchObject({ operator: keeper.publicKey(), stake: world.minStake, slashed: false })

    // The channel accounts, retried after 5, 10, 20, 40 s, are created and join the lanes.
    const ready = await k.waitForLog((l) => l.msg === 'channel accounts ready', 90_000)
    expect(ready).toMatchObject({ channels: 2, created: 2, lanes: 3 })
    expect(Number(ready.attempt)).toBeGreaterThan(1)
    const reader = world.chain.server as unknown as LedgerReader
    for (const c of channelKeypairs(keeper, 2)) expect(await nativeBalance(reader, c.publicKey())).toBe(5_0000000n)

    // The next clean cycle clears lastError; when the last error happened stays.
    const seen = k.lines.filter((l) => l.msg === 'cycle done').length
    await k.waitForLog((l) => l.msg === 'cycle done' && Number(l.cycle) > seen + 1)
    const up = await api(k, '/api/state')
    expect(up.registration).toBe('registered')
    expect(up.cycles.lastError).toBeNull()
    expect(up.cycles.lastErrorAt >= down.cycles.lastErrorAt).toBe(true)
    expect(up.events.some((e: { kind: string; message: string }) => e.kind === 'register' && e.message.startsWith('registered'))).toBe(true)
    expect(up.events.some((e: { kind: string; message: string }) => e.kind === 'lifecycle' && e.message === 'channel accounts ready: 3 submission lanes')).toBe(true)
    const upMetrics = await api(k, '/metrics')
    expect(metric(upMetrics, 'service_keeper_registered')).toBe(1)
    expect(metric(upMetrics, 'service_keeper_slashed')).toBe(0)
    // The operator's balance as the last cycle read it: what the chain says now (nothing sent since).
    const xlm = (await nativeBalance(reader, keeper.publicKey()))!
    expect(metric(upMetrics, 'service_operator_xlm_balance')).toBe(Number(xlm) / 1e7)
    expect(up.operatorXlm).toBe(xlm.toString())
    k.kill('SIGTERM')
    expect(await k.exited).toBe(0)
  }, 180_000)

  it('shows a draw held on chain on /api/state and /metrics, aged in ledgers, until it is returned', async () => {
    const keeper = await world.newAccount(800_0000000n)
    const depositor = await world.newAccount(1_000_0000000n)
    await invoke(world.chain, depositor, world.vault, 'deposit', [addr(depositor.publicKey()), i128(1_000_0000000n)])
    // No USDC_CONTRACT: stale-draw recovery is off, so the draw stays out until the test returns it.
    const k = start(keeper)
    await k.waitForLog((l) => l.msg === 'registered with the keeper registry')
    await k.waitForLog((l) => l.msg === 'cycle done')

    // 120 USDC is above what the 100 USDC stake backs (draw_limit 90): bond 50 USDC more first.
    const drawn = 120_0000000n
    await new RegistryContract(world.chain, world.registry).addBond(keeper, 50_0000000n)
    const { ledger: drawLedger } = await invoke(world.chain, keeper, world.vault, 'draw', [addr(keeper.publicKey()), i128(drawn)])
    const seen = await until(async () => {
      const s = await api(k, '/api/state')
      return s.outstandingDraw === drawn.toString() ? s : undefined
    })
    expect(seen.outstandingDrawLedgers).toBeGreaterThanOrEqual(0)
    const latest = async () => (await sandbox!.server.getLatestLedger()).sequence
    // Aged from the ledger of the draw: it grows ledger by ledger and never exceeds latest - drawLedger.
    const aged = await until(async () => {
      const text = await api(k, '/metrics')
      const ledgers = metric(text, 'service_draw_outstanding_ledgers')
      return ledgers >= 3 ? { text, ledgers } : undefined
    })
    expect(metric(aged.text, 'service_draws_outstanding')).toBe(120)
    // Counted from the draw's own ledger: between the ledgers closed before and after the scrape
    // (less one for the keeper's ledger clock, which polls every 100 ms).
    const before = await latest()
    const now = metric(await api(k, '/metrics'), 'service_draw_outstanding_ledgers')
    const after = await latest()
    expect(now).toBeGreaterThanOrEqual(before - drawLedger - 1)
    expect(now).toBeLessThanOrEqual(after - drawLedger)
    expect(now).toBeGreaterThan(aged.ledgers - 1)

    await invoke(world.chain, keeper, world.vault, 'return_proceeds', [addr(keeper.publicKey()), i128(drawn), u64(0)])
    const cleared = await until(async () => {
      const text = await api(k, '/metrics')
      return metric(text, 'service_draws_outstanding') === 0 ? text : undefined
    })
    expect(metric(cleared, 'service_draw_outstanding_ledgers')).toBe(0)
    expect((await api(k, '/api/state')).outstandingDraw).toBe('0')
    k.kill('SIGTERM')
    expect(await k.exited).toBe(0)
  }, 180_000)
})
