/**
 * `npm run audit` as a user runs it, against a sandbox world after deposits, a withdrawal, a real
 * liquidation (a keeper daemon fills the Blend auctions with vault capital) and a slash: the
 * process prints every invariant ✓ and exits 0; `--watch --metrics-port` serves one gauge per
 * invariant that drops to 0 when the books are broken and recovers when they are put back; an
 * unreachable RPC exits 2 naming the URL and the call.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { setTokenBalance, restore } from '../../../test/audit/ledgerEdits.js'
import { addr, i128, invoke } from '../../chain/index.js'
import { VaultContract } from '../../keeper/clients/vault.js'
import { parseConfig } from '../../keeper/config/index.js'
import { startDaemon } from '../../keeper/daemon.js'
import { worldKeeperEnv } from '../../../test/keeper/worldKeeperEnv.js'
import { deployExecutor, deployWorld, type World } from '../../world/index.js'
import { runCli } from './run.js'

const UNIT = 10_000_000n
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `node --import tsx src/audit/cli.ts ...`: a real process, as `npm run audit` starts it. */
function auditProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/audit/cli.ts', ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

async function until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(200)
  }
}

const gauge = (metrics: string, name: string, invariant?: number): number | undefined => {
  const label = invariant === undefined ? '' : `\\{invariant="${invariant}",name="[^"]*"\\}`
  const m = new RegExp(`^${name}${label} (\\S+)$`, 'm').exec(metrics)
  return m ? Number(m[1]) : undefined
}

describe('npm run audit on a world after a liquidation and a slash', () => {
  let sandbox: Sandbox
  let world: World
  let dir: string
  let file: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-cli-'))
    file = join(dir, 'addresses.json')
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.3 })
    world = await deployWorld(sandbox, { seed: 41, borrowers: 2, keepers: 2, depositors: 3, addressesFile: file })

    const vault = new VaultContract(world.chain, world.service!.vault)
    const [d0, d1] = world.depositors
    await world.mint('USDC', d0!.publicKey(), 10_000n * UNIT)
    await vault.deposit(d0!, 10_000n * UNIT)
    const shares = (await vault.getDepositor(d1!.publicKey())).shares
    await invoke(world.chain, d1!, world.service!.vault, 'withdraw', [addr(d1!.publicKey()), i128(shares / 4n)])

    // A liquidation: the keeper daemon (atomic path) fills both borrowers' auctions after a 20 % drop.
    const keeper = world.keepers[0]!
    const executor = await deployExecutor(world, keeper, { register: false })
    const before = await vault.getState()
    const daemon = await startDaemon(parseConfig(worldKeeperEnv(world, keeper, 'audit-e2e', { EXECUTOR_CONTRACT: executor.contractId, REBALANCE_VAULT: '' })), {
      logger: pino({ level: 'silent' }),
      stopGraceMs: 5_000,
    })
    try {
      for (const c of world.collaterals) await world.setPrice(c.code, (world.price(c.code) * 80n) / 100n)
      const planned = await until('auctions planned', async () => (daemon.state.executions.length > 0 ? daemon.state.executions : undefined), 60_000)
      const target = Math.min(...planned.map((e) => e.targetLedger))
      const latest = (await sandbox.server.getLatestLedger()).sequence
      if (target - 3 > latest) await sandbox.closeLedgers(target - 3 - latest)
      await until(
        'the liquidation booked',
        async () => {
          const s = await vault.getState()
          return s.totalProfit > before.totalProfit && s.activeLiq === 0n && daemon.state.executions.every((e) => ['returned', 'lost', 'abandoned'].includes(e.stage)) ? s : undefined
        },
        120_000,
      )
    } finally {
      await daemon.stop()
    }

    // A slash: the second keeper keeps a draw past slash_timeout.
    const late = world.keepers[1]!
    await vault.draw(late, 300n * UNIT)
    await sandbox.advanceTime(3_700)
    await sandbox.closeLedgers(1)
    await invoke(world.chain, world.admin, world.service!.registry, 'slash', [addr(late.publicKey())])
  }, 400_000)

  afterAll(async () => {
    await sandbox?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('prints every invariant ✓ with its figures and exits 0', async () => {
    const { code, stdout, stderr } = await auditProcess(['--addresses', file])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const rows = stdout.split('\n').filter((l) => /^│ [✓✗⚠] │/.test(l))
    expect(rows.map((l) => l.slice(2, 3))).toEqual(Array(12).fill('✓'))
    expect(stdout).toMatch(/✓ all 12 invariants hold at ledger \d+\n$/)
    expect(stdout).toContain(world.service!.vault)
    // The liquidation's profit and the slash's write-off are in the figures compared.
    expect(stdout).toMatch(/bookedInEvents +[1-9]\d*\.\d{7}/)
    expect(stdout).toMatch(/writeOff1 +ledger \d+: keeper/)
  })

  it('--watch --metrics-port: one gauge per invariant, 0 while the vault is short of USDC, back to 1 when it is not', async () => {
    const controller = new AbortController()
    let out = ''
    let metricsUrl: string | undefined
    const running = runCli(['--addresses', file, '--watch', '--interval-ledgers', '1', '--metrics-port', '0', '--metrics-host', '127.0.0.1', '--json'], {
      out: (t) => (out += t),
      err: () => {},
      signal: controller.signal,
      pollMs: 100,
      onMetrics: (url) => (metricsUrl = url),
    })
    const scrape = async () => (metricsUrl ? (await fetch(metricsUrl)).text() : undefined)
    try {
      let m = await until('a first audit', async () => {
        const t = await scrape()
        return t !== undefined && gauge(t, 'audit_holds') === 1 ? t : undefined
      }, 30_000)
      for (let id = 1; id <= 12; id++) expect(gauge(m, 'audit_invariant_holds', id), `invariant ${id}`).toBe(1)
      expect(gauge(m, 'audit_chain_readable')).toBe(1)
      expect((await fetch(metricsUrl!.replace('/metrics', '/healthz'))).status).toBe(200)

      const held = await world.balance('USDC', world.service!.vault)
      const saved = await setTokenBalance(sandbox, world.usdc.contract, world.service!.vault, held - 50n * UNIT)
      m = await until('invariant 1 reported broken', async () => {
        const t = await scrape()
        return t !== undefined && gauge(t, 'audit_invariant_holds', 1) === 0 ? t : undefined
      }, 30_000)
      expect(gauge(m, 'audit_holds')).toBe(0)
      expect(gauge(m, 'audit_invariant_offenders', 1)).toBe(1)
      for (const id of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) expect(gauge(m, 'audit_invariant_holds', id), `invariant ${id}`).toBe(1)

      await restore(sandbox, saved)
      await until('invariant 1 holding again', async () => {
        const t = await scrape()
        return t !== undefined && gauge(t, 'audit_invariant_holds', 1) === 1 ? t : undefined
      }, 30_000)
    } finally {
      controller.abort()
    }
    expect(await running).toBe(0)
    // --json with --watch: one document per line, every audit.
    const docs = out.trim().split('\n').map((l) => JSON.parse(l) as { holds: boolean; ledger: number; exitCode: number })
    expect(docs.some((d) => !d.holds && d.exitCode === 1)).toBe(true)
    expect(docs.at(-1)!.holds).toBe(true)
    const ledgers = docs.map((d) => d.ledger)
    expect([...ledgers].sort((a, b) => a - b)).toEqual(ledgers)
  })

  it('exits 2 naming the URL and the failing call when the RPC cannot be reached', async () => {
    const { code, stdout, stderr } = await auditProcess(['--rpc-url', 'http://127.0.0.1:9/rpc', '--vault', world.service!.vault, '--registry', world.service!.registry])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^audit: could not read the chain at http:\/\/127\.0\.0\.1:9\/rpc: reading getNetwork failed: fetch failed\n$/)
  })

  it('exits 2 with one line for bad input, reading nothing', async () => {
    const { code, stderr } = await auditProcess(['--addresses', join(dir, 'missing.json')])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^audit: --addresses .*missing\.json: cannot read the file \(ENOENT\)\n/)
  })
})
