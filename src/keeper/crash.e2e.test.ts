/**
 * Crash recovery end to end: a real keeper process (the daemon from source, as a child process)
 * kills itself with SIGKILL (FAULT_CRASH_AT) right after each step of a two-step Blend
 * liquidation — drawn, filled, swapped — on the sandbox with the real Blend v2 WASMs. A restart
 * within slash_timeout must finish the draw through stale-draw recovery (sell held collateral,
 * return_proceeds): depositors stay whole (total_usdc never below where it was, no capital left
 * out, shares untouched) and the keeper is neither slashed nor slashable.
 *
 * The cases run in sequence on one world; each pushes its own borrower under HF 1, but the checks
 * are on the vault's books and the keeper's balances, not on a particular auction: the keeper
 * plans every liquidatable borrower and crashes on the first execution that reaches the step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { ContractError, addr, invoke } from '../chain/index.js'
import { deployWorld, type World } from '../world/index.js'
import { RegistryContract, VaultContract, tokenBalance, type KeeperInfo, type VaultState } from './clients/index.js'
import { spawnKeeper, type KeeperProcess, type LogLine } from '../../test/keeper/keeperProcess.js'
import { worldKeeperEnv } from '../../test/keeper/worldKeeperEnv.js'
import { pushUnder } from '../../test/keeper/crashPrice.js'

const UNIT = 10_000_000n
/** Health factor (7 decimals) the case's borrower is pushed to: under 1, others on its asset stay above. */
const TARGET_HF = 9_850_000n
const IN_FLIGHT = new Set(['due', 'drawn', 'filled', 'swapped'])
const RECOVERY_DONE = /^stale draw (partly )?returned$|^outstanding draw but no USDC on hand/

let sandbox: Sandbox
let world: World
let vault: VaultContract
let registry: RegistryContract
let slashTimeout = 0
const running: KeeperProcess[] = []
const targeted = new Set<string>()

const fmt = (v: bigint) => `${v < 0n ? '-' : ''}${(v < 0n ? -v : v) / UNIT}.${((v < 0n ? -v : v) % UNIT).toString().padStart(7, '0')}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const keeper = () => world.keepers[0]!
const alive = (k: KeeperProcess) => k.proc.exitCode === null && k.proc.signalCode === null

/** Polls `f` until it returns a value (not undefined); fails after `timeoutMs` with `what`. */
async function until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await f().catch(() => undefined)
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

function withTimeout<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  return Promise.race([p, t]).finally(() => clearTimeout(timer))
}

// The planned executions on /api/state are for the holder of the API token only.
const API_TOKEN = 'crash-test-api-token-0123456789'

function start(extra: Record<string, string> = {}): KeeperProcess {
  const k = spawnKeeper(worldKeeperEnv(world, keeper(), 'crash-keeper', { API_TOKEN, ...extra }))
  running.push(k)
  return k
}

async function apiState(k: KeeperProcess): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${await k.port()}/api/state`, { headers: { authorization: `Bearer ${API_TOKEN}` } })
  if (res.status !== 200) throw new Error(`GET /api/state: ${res.status}`)
  return res.json()
}

/** The keeper's USDC and its holdings of every non-USDC pool reserve. */
async function holdings(): Promise<{ usdc: bigint; collateral: bigint[] }> {
  const me = keeper().publicKey()
  const [usdc, ...collateral] = await Promise.all([world.usdc, ...world.collaterals].map((a) => tokenBalance(world.chain, a.contract, me)))
  return { usdc: usdc!, collateral }
}

/**
 * Waits for the keeper's plans, then closes ledgers up to 4 before the earliest planned target
 * (never past target - 3: due at target - 2, draw in target - 1); the sandbox's own 0.5 s
 * ledgers carry it from there. Leftover auctions already past their target fire at once.
 */
async function fastForward(k: KeeperProcess): Promise<void> {
  const cycleOf = (s: any) => Number(s.cycles.count)
  const first = await until('a planned execution', async () => {
    if (!alive(k)) return null
    const s = await apiState(k)
    return s.executions.some((e: any) => e.stage !== 'abandoned') ? s : undefined
  }, 90_000)
  if (first === null) return
  // One more cycle: plans made alongside the first one are in the book too.
  const s = await until('one more cycle', async () => {
    if (!alive(k)) return null
    const st = await apiState(k)
    return cycleOf(st) > cycleOf(first) ? st : undefined
  }, 30_000)
  if (s === null) return
  const targets = s.executions.filter((e: any) => e.stage === 'planned').map((e: any) => Number(e.targetLedger))
  if (targets.length === 0) return
  const to = Math.min(...targets) - 4
  const latest = (await sandbox.server.getLatestLedger()).sequence
  if (to > latest) await sandbox.closeLedgers(to - latest)
  console.log(`[crash] planned targets ${targets.join(', ')}; latest ledger ${latest}, fast-forwarded to ${Math.max(latest, to)}`)
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.5 })
  // Seed 242: on each collateral asset the borrowers' health factors lie > 2 % apart, so each
  // drop to TARGET_HF puts only the case's own borrower under 1.
  world = await deployWorld(sandbox, { seed: 242, borrowers: 6, keepers: 2 })
  vault = new VaultContract(world.chain, world.service!.vault)
  registry = new RegistryContract(world.chain, world.service!.registry)
  slashTimeout = (await registry.getConfig()).slashTimeout
}, 240_000)

afterAll(async () => {
  for (const k of running) if (alive(k)) k.kill('SIGKILL')
  await sandbox?.stop()
})

describe('a keeper killed at each step of a liquidation, restarted within slash_timeout', () => {
  const cases = [
    { boundary: 'drawn', asset: 0 },
    { boundary: 'filled', asset: 1 },
    { boundary: 'swapped', asset: 0 },
  ] as const

  for (const { boundary, asset } of cases) {
    it(`crash at ${boundary}: recovery returns the draw, depositors whole, no slash`, async () => {
      const me = keeper().publicKey()
      const borrower = await pushUnder(world, world.collaterals[asset]!, targeted, TARGET_HF)

      // 1. the books before
      const before: VaultState = await vault.getState()
      const recordBefore: KeeperInfo = await registry.getKeeper(me)
      const held0 = await holdings()
      expect(await vault.getKeeperDraw(me)).toBe(0n)

      // 2. a keeper that dies right after `boundary`
      const crashing = start({ FAULT_CRASH_AT: boundary })
      await fastForward(crashing)
      // 3. killed by its own SIGKILL, with the draw outstanding
      expect(await withTimeout(`the keeper to crash at ${boundary}`, crashing.exited, 120_000)).toBe('SIGKILL')
      const crashLine = crashing.lines.find((l: LogLine) => l.msg === 'fault injection: crashing at this step')
      expect(crashLine?.step).toBe(boundary)
      const draw = await vault.getKeeperDraw(me)
      expect(draw).toBeGreaterThan(0n)
      const drawnRecord = await registry.getKeeper(me)
      expect(drawnRecord).toMatchObject({ hasActiveDraw: true, drawAmount: draw, slashed: false })
      expect((await vault.getState()).activeLiq).toBe(before.activeLiq + draw)
      const held = await holdings()
      if (boundary === 'drawn') {
        expect(held.usdc).toBe(held0.usdc + draw)
        expect(held.collateral).toEqual(held0.collateral)
      } else if (boundary === 'filled') {
        // the bid (at most the draw) went to the pool, the lot came to the keeper
        expect(held.usdc).toBeGreaterThanOrEqual(held0.usdc)
        expect(held.collateral.some((c, i) => c > held0.collateral[i]!)).toBe(true)
      } else {
        // the lot was sold: no collateral left, the swap's USDC covers the draw
        expect(held.collateral).toEqual(held0.collateral)
        expect(held.usdc - held0.usdc).toBeGreaterThanOrEqual(draw)
      }
      // Nobody can slash yet: the draw is younger than slash_timeout.
      const early = await invoke(world.chain, world.depositors[0]!, registry.contractId, 'slash', [addr(me)]).catch((e: unknown) => e)
      expect(early).toBeInstanceOf(ContractError)
      expect((early as ContractError).code).toBe(208)

      // 4. restart without the fault: stale-draw recovery settles the draw
      const restarted = start()
      const rec = await restarted.waitForLog((l) => typeof l.msg === 'string' && RECOVERY_DONE.test(l.msg), 90_000)
      expect(rec.msg).toBe('stale draw returned')
      expect(rec.draw).toBe(draw.toString())
      expect(rec.returned).toBe(draw.toString())
      expect(rec.shortfall).toBe('0')
      await until('the draw to be returned', async () => ((await vault.getKeeperDraw(me)) === 0n ? true : undefined), 60_000)
      // Let the restarted keeper finish what it fires meanwhile (an auction left open by a crash
      // at `drawn` is filled now): two more cycles (scan, plan), then nothing in flight.
      const cyclesAtRecovery = Number((await apiState(restarted)).cycles.count)
      await until('the restarted keeper to be idle', async () => {
        const s = await apiState(restarted)
        return Number(s.cycles.count) >= cyclesAtRecovery + 2 && !s.executions.some((e: any) => IN_FLIGHT.has(e.stage)) ? true : undefined
      }, 90_000)
      const recovery = (await apiState(restarted)).recovery
      expect(recovery).toMatchObject({ draw: draw.toString(), returned: draw.toString(), shortfall: '0' })
      restarted.kill('SIGTERM')
      expect(await withTimeout('the restarted keeper to stop', restarted.exited, 60_000)).toBe(0)

      // 5. the books after
      const after = await vault.getState()
      const record = await registry.getKeeper(me)
      const latest = await sandbox.server.getLatestLedger()
      console.log(
        `[crash ${boundary}] borrower ${borrower.address.slice(0, 6)}…: draw ${fmt(draw)}, returned by recovery ${fmt(BigInt(rec.returned as string))}, ` +
          `held at crash: USDC ${fmt(held.usdc - held0.usdc)} more, collateral ${held.collateral.map((c, i) => fmt(c - held0.collateral[i]!)).join(' / ')} more; ` +
          `total_usdc ${fmt(before.totalUsdc)} -> ${fmt(after.totalUsdc)} (${fmt(after.totalUsdc - before.totalUsdc)}), active_liq ${fmt(after.activeLiq)}, ` +
          `draw age ${Number(latest.closeTime ?? 0) - drawnRecord.drawTimestamp} s of slash_timeout ${slashTimeout} s`,
      )
      expect(await vault.getKeeperDraw(me)).toBe(0n)
      expect(after.activeLiq).toBe(before.activeLiq)
      expect(after.totalUsdc).toBeGreaterThanOrEqual(before.totalUsdc)
      expect(after.totalShares).toBe(before.totalShares)
      expect(record).toMatchObject({ hasActiveDraw: false, drawAmount: 0n, slashed: false, slashCount: recordBefore.slashCount, stake: recordBefore.stake })
      expect(Number(latest.closeTime ?? 0) - drawnRecord.drawTimestamp).toBeLessThan(slashTimeout)
      const slash = await invoke(world.chain, world.depositors[0]!, registry.contractId, 'slash', [addr(me)]).catch((e: unknown) => e)
      expect(slash).toBeInstanceOf(ContractError)
      expect((slash as ContractError).code).toBe(207)
    }, 240_000)
  }
})
