import type { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { ContractError, addr, i128, invoke } from '../chain/index.js'
import { RegistryContract, VaultContract, tokenBalance } from './clients/index.js'
import pino from 'pino'
import { createRoundTripAdapter } from './adapters/example/index.js'
import { parseConfig } from './config/index.js'
import { REGISTRATION_SKIPPED, startDaemon } from './daemon.js'
import { spawnKeeper, type KeeperProcess } from '../../test/keeper/keeperProcess.js'
import { deployVaultWorld, vaultKeeperEnv, type VaultWorld } from '../../test/keeper/vaultWorld.js'


let sandbox: Sandbox
let world: VaultWorld
let keeper: Keypair
let depositor: Keypair
let vault: VaultContract
let registry: RegistryContract
const running: KeeperProcess[] = []

function env(extra: Record<string, string> = {}): Record<string, string> {
  return vaultKeeperEnv(world, sandbox, keeper, { KEEPER_NAME: 'e2e-keeper', KNOWN_DEPOSITORS: depositor.publicKey(), ...extra })
}

function start(extra: Record<string, string> = {}): KeeperProcess {
  const k = spawnKeeper(env(extra))
  running.push(k)
  return k
}

async function getJson(port: number, path: string): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  expect(res.status).toBe(200)
  return res.json()
}

async function cyclesTotal(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  const m = /^service_cycles_total (\d+)$/m.exec(text)
  return Number(m?.[1] ?? NaN)
}

beforeAll(async () => {
  sandbox = await startSandbox()
  world = await deployVaultWorld(sandbox)
  vault = new VaultContract(world.chain, world.vault)
  registry = new RegistryContract(world.chain, world.registry)
  depositor = await world.newAccount(1_000_0000000n)
  await vault.deposit(depositor, 1_000_0000000n)
  keeper = await world.newAccount(500_0000000n)
})

afterAll(async () => {
  for (const k of running) if (k.proc.exitCode === null && k.proc.signalCode === null) k.kill('SIGKILL')
  await sandbox?.stop()
})

describe('keeper daemon against the sandbox', () => {
  it('registers (stake pulled), serves the real vault state in monitor-only mode, counts cycles, exits 0 on SIGTERM', async () => {
    const before = await tokenBalance(world.chain, world.usdc, keeper.publicKey())
    const k = start()
    await k.waitForLog((l) => l.msg === 'registered with the keeper registry')
    const info = await registry.getKeeper(keeper.publicKey())
    expect(info).toMatchObject({ operator: keeper.publicKey(), name: 'e2e-keeper', stake: world.minStake, hasActiveDraw: false })
    expect(await tokenBalance(world.chain, world.usdc, keeper.publicKey())).toBe(before - world.minStake)

    const port = await k.port()
    await k.waitForLog((l) => l.msg === 'cycle done' && l.cycle === 2)
    const state = await getJson(port, '/api/state')
    const chainState = await vault.getState()
    expect(state.mode).toBe('monitor-only')
    expect(state.vault).toMatchObject({
      totalUsdc: chainState.totalUsdc.toString(),
      totalShares: chainState.totalShares.toString(),
      totalProfit: '0',
      activeLiq: '0',
      sharePrice: '10000000',
    })
    expect(chainState.totalUsdc).toBe(1_000_0000000n)
    expect(state.keepers.map((x: { operator: string }) => x.operator)).toContain(keeper.publicKey())
    const perf = await getJson(port, '/api/performance')
    expect(perf.depositors).toEqual([
      { address: depositor.publicKey(), balance: (await vault.balance(depositor.publicKey())).toString(), shares: '9999999000', costBasis: '10000000000' },
    ])
    expect(perf.keeper).toMatchObject({ operator: keeper.publicKey(), stake: world.minStake.toString() })

    const c1 = await cyclesTotal(port)
    expect(c1).toBeGreaterThanOrEqual(2)
    await k.waitForLog((l) => l.msg === 'cycle done' && l.cycle === c1 + 1)
    expect(await cyclesTotal(port)).toBeGreaterThan(c1)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)

    // An open event stream is closed by the shutdown, which still exits 0.
    const stream = await fetch(`http://127.0.0.1:${port}/api/events`)
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/)
    const reader = stream.body!.getReader()
    let received = ''
    const drained = (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        received += Buffer.from(value).toString('utf8')
      }
    })()
    await k.waitForLog((l) => l.msg === 'cycle done' && l.cycle === c1 + 2)
    k.kill('SIGTERM')
    expect(await k.exited).toBe(0)
    await drained
    expect(received).toContain('retry: 3000')
    expect(k.lines.some((l) => l.msg === 'keeper stopped')).toBe(true)
    expect(k.lines.every((l) => !l.nonJson)).toBe(true)
  }, 120_000)

  it('logs the skipped-registration warning on a second start and pulls no second stake', async () => {
    const before = await tokenBalance(world.chain, world.usdc, keeper.publicKey())
    const k = start()
    const line = await k.waitForLog((l) => l.msg === REGISTRATION_SKIPPED)
    expect(line.level).toBe(40)
    await k.port()
    expect(await tokenBalance(world.chain, world.usdc, keeper.publicKey())).toBe(before)
    k.kill('SIGTERM')
    expect(await k.exited).toBe(0)
  }, 120_000)

  it('keeps running when registration fails (wrong passphrase): error logged, API up, clean exit', async () => {
    // A fresh operator: an already registered one would get AlreadyRegistered from simulation,
    // which needs no signature.
    const fresh = await world.newAccount(500_0000000n)
    const k = start({ KEEPER_SECRET: fresh.secret(), NETWORK_PASSPHRASE: 'Not This Network ; 2026' })
    const mismatch = await k.waitForLog((l) => String(l.msg).startsWith('NETWORK_PASSPHRASE does not match'))
    expect(mismatch.level).toBe(50)
    const failed = await k.waitForLog((l) => l.msg === 'registration failed (continuing unregistered)')
    expect(failed.level).toBe(40)
    const port = await k.port()
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
    await expect(registry.getKeeper(fresh.publicKey())).rejects.toMatchObject({ code: 202 })
    k.kill('SIGTERM')
    expect(await k.exited).toBe(0)
  }, 120_000)

  it('isolates a failing lending-pool adapter: errors logged and counted, cycles go on', async () => {
    // LENDING_POOL names a contract that is not a pool: every scan fails.
    const k = start({ LENDING_POOL: world.registry })
    await k.waitForLog((l) => l.msg === 'adapter ready')
    const failed = await k.waitForLog((l) => l.msg === 'getTasks failed')
    expect(failed.level).toBe(50)
    await k.waitForLog((l) => l.msg === 'cycle done' && l.cycle === 2)
    const port = await k.port()
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    expect(Number(/^service_adapter_errors_total\{[^}]*stage="get_tasks"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2)
    const state = await getJson(port, '/api/state')
    expect(state.mode).toBe('liquidating')
    expect(state.vault).not.toBeNull()
    expect(state.events.some((e: { kind: string }) => e.kind === 'error')).toBe(true)
    k.kill('SIGTERM')
    expect(await k.exited).toBe(0)
  }, 120_000)

  it('lets two keepers share one vault: both register and each lists the other', async () => {
    // Funded concurrently from one account: the pipeline queues its payments.
    const [a, b] = (await Promise.all([world.newAccount(200_0000000n), world.newAccount(200_0000000n)])) as [Keypair, Keypair]
    const ka = start({ KEEPER_SECRET: a.secret(), KEEPER_NAME: 'shared-a' })
    const kb = start({ KEEPER_SECRET: b.secret(), KEEPER_NAME: 'shared-b' })
    await Promise.all([ka, kb].map((k) => k.waitForLog((l) => l.msg === 'registered with the keeper registry')))
    // After both registered, the next cycle of each sees both.
    const lists = await Promise.all(
      [ka, kb].map(async (k) => {
        const seen = k.lines.filter((l) => l.msg === 'cycle done').length
        await k.waitForLog((l) => l.msg === 'cycle done' && Number(l.cycle) > seen)
        const state = await getJson(await k.port(), '/api/state')
        return state.keepers.map((x: { name: string }) => x.name) as string[]
      }),
    )
    for (const names of lists) expect(names).toEqual(expect.arrayContaining(['shared-a', 'shared-b']))
    ka.kill('SIGTERM')
    kb.kill('SIGTERM')
    expect(await Promise.all([ka.exited, kb.exited])).toEqual([0, 0])
  }, 120_000)

  it('returns a draw left outstanding by a killed keeper on restart, before slash_timeout', async () => {
    // A keeper that drew capital and died before returning it: the draw happens while it runs
    // (as its adapter would), then it is killed without any chance to clean up.
    const first = start({ POLL_INTERVAL: '300' })
    await first.waitForLog((l) => l.msg === 'cycle done' && l.cycle === 1)
    // As much as the registry lets the keeper hold two-step: its bond limit (draw_limit).
    const drawn = (await registry.getKeeper(keeper.publicKey())).drawLimit
    expect(drawn).toBe((world.minStake * 9n) / 10n)
    await invoke(world.chain, keeper, world.vault, 'draw', [addr(keeper.publicKey()), i128(drawn)])
    first.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(drawn)
    expect((await registry.getKeeper(keeper.publicKey())).hasActiveDraw).toBe(true)
    const stateBefore = await vault.getState()
    expect(stateBefore.activeLiq).toBe(drawn)
    const drawnAt = (await registry.getKeeper(keeper.publicKey())).drawTimestamp

    const second = start()
    const rec = await second.waitForLog((l) => l.msg === 'stale draw returned')
    expect(rec.returned).toBe(drawn.toString())
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
    const info = await registry.getKeeper(keeper.publicKey())
    expect(info.hasActiveDraw).toBe(false)
    expect(info.slashed).toBe(false)
    const stateAfter = await vault.getState()
    expect(stateAfter.activeLiq).toBe(0n)
    expect(stateAfter.totalUsdc).toBe(stateBefore.totalUsdc)
    // Well inside the slash window, and nothing is left to slash.
    const latest = await sandbox.server.getLatestLedger()
    expect(Number(latest.closeTime ?? 0) - drawnAt).toBeLessThan(world.slashTimeout)
    const slash = await invoke(world.chain, depositor, world.registry, 'slash', [addr(keeper.publicKey())]).catch((e: unknown) => e)
    expect(slash).toBeInstanceOf(ContractError)
    expect((slash as ContractError).code).toBe(207)

    const port = await second.port()
    const state = await getJson(port, '/api/state')
    expect(state.events.some((e: { kind: string }) => e.kind === 'recovery')).toBe(true)
    second.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 120_000)

  it('drives an adapter through the vault: draw, return_proceeds, fill booked on chain and in the API', async () => {
    // In process, so the example adapter can be plugged in; the same daemon code as the binary.
    const operator = await world.newAccount(300_0000000n)
    const config = parseConfig({
      ...env({ KEEPER_SECRET: operator.secret(), KEEPER_NAME: 'round-trip', POLL_INTERVAL: '3' }),
    })
    let offered = 0
    // The operator stakes the 100 USDC minimum: its bond backs two-step draws of up to 90 USDC.
    const adapter = createRoundTripAdapter({
      jobs: () =>
        offered++ === 0
          ? [
              { priority: 4, amount: 80_0000000n, label: 'one round trip' },
              { priority: 1, amount: 120_0000000n, label: 'above the bond' },
            ]
          : [],
    })
    const daemon = await startDaemon(config, { logger: pino({ level: 'silent' }), extraAdapters: [adapter] })
    try {
      const deadline = Date.now() + 60_000
      while (daemon.state.history.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      expect(daemon.state.history).toHaveLength(1)
      expect(daemon.state.history[0]).toMatchObject({ adapter: 'round-trip', drew: 80_0000000n, proceeds: 80_0000000n, profit: 0n, success: true })
      // the draw the bond does not back is never sent: the engine skips it, saying why
      const abandoned = () => daemon.state.executions.find((e) => e.label === 'above the bond' && e.stage === 'abandoned')
      while (abandoned() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      const skipped = abandoned()
      expect(skipped, JSON.stringify(daemon.state.executions.map((e) => [e.label, e.stage, e.note]))).toBeDefined()
      expect(skipped!.note).toBe(
        "needs a two-step draw of 1200000000 USDC stroops, above the registry's bond limit for this keeper (draw_limit 900000000): skipped; add bond to raise it",
      )
      const info = await registry.getKeeper(operator.publicKey())
      expect(info).toMatchObject({ totalExecutions: 1, hasActiveDraw: false, drawAmount: 0n })
      expect(await vault.getKeeperDraw(operator.publicKey())).toBe(0n)
      const metrics = await (await fetch(`http://127.0.0.1:${daemon.port}/metrics`)).text()
      expect(metrics).toMatch(/^service_liquidations_total 1$/m)
      // The next cycle's refresh picks the registry's record up for /api/performance.
      const cycles = daemon.state.cycles.count
      while (daemon.state.cycles.count <= cycles && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      const perf = (await (await fetch(`http://127.0.0.1:${daemon.port}/api/performance`)).json()) as {
        liquidations: { source: string; executions: number; recent: unknown[] }
      }
      expect(perf.liquidations).toMatchObject({ source: 'registry', executions: 1 })
      expect(perf.liquidations.recent).toHaveLength(1)
    } finally {
      await daemon.stop()
    }
  }, 120_000)
})
