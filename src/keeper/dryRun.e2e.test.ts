/**
 * Shadow mode end to end (DRY_RUN=true) on the sandbox with the real Blend v2 WASMs: a crash puts
 * one borrower per collateral asset under HF 1. A shadow keeper — a new account with XLM and the
 * trustlines a two-step keeper holds its USDC and seized collateral in, but no USDC, no stake, not
 * registered — reports the auctions it would open, then, once a third party
 * has opened them, plans their fills and books what it would have filled when they come due;
 * not one transaction from its accounts lands. A live keeper on the same world, running beside
 * it, then fills the same auctions.
 *
 * What "match" means here, per auction: the shadow keeper's would-fill names the auction the
 * third party opened (borrower and start ledger); the ledger it first planned the fill for is the
 * ledger the live keeper first planned it for; the ledger its would-fill was valued for is the
 * ledger the live keeper's fill landed in; both take the same percent of the auction; and the
 * capital differs by at most 0.01 % (the two valuations accrue interest to close times a few
 * seconds apart).
 */
import { Asset, Operation } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { channelKeypairs, submit } from '../chain/index.js'
import { deployWorld, type World } from '../world/index.js'
import { RegistryContract, VaultContract } from './clients/index.js'
import { openAuction } from '../../test/keeper/auctionSetup.js'
import { pushUnder } from '../../test/keeper/crashPrice.js'
import { spawnKeeper, type KeeperProcess } from '../../test/keeper/keeperProcess.js'
import { worldKeeperEnv } from '../../test/keeper/worldKeeperEnv.js'
import { alive, allAtStage, apiGet, bookedAll, expectWouldFillMatches, keyOf } from '../../test/keeper/shadowCompare.js'
import { funded } from '../../test/sandbox/funded.js'
import { until } from '../../test/until.js'

/** Each case's borrower is pushed to this health factor: under 1, the others on its asset stay above. */
const TARGET_HF = 9_850_000n
const API_TOKEN = 'dry-run-test-api-token-0123456789'

let sandbox: Sandbox
let world: World
const running: KeeperProcess[] = []
const get = (k: KeeperProcess, path: string) => apiGet(k, path, API_TOKEN)

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
  // Seed 242: on each collateral asset the borrowers' health factors lie > 2 % apart, so each
  // drop to TARGET_HF puts only its own borrower under 1 (as in crash.e2e.test.ts).
  world = await deployWorld(sandbox, { seed: 242, borrowers: 6, keepers: 1 })
}, 240_000)

afterAll(async () => {
  for (const k of running) if (alive(k)) k.kill('SIGKILL')
  await sandbox?.stop()
})

describe('DRY_RUN=true on a crash', () => {
  it('sends no transaction, and reports the fills a live keeper then makes', async () => {
    const [shadowKp] = await funded(sandbox, 1)
    const shadowAddr = shadowKp!.publicKey()
    const start = (kp: typeof shadowKp, name: string, extra: Record<string, string> = {}) => {
      // No rebalancing: liquidations only, on both keepers.
      const k = spawnKeeper(worldKeeperEnv(world, kp!, name, { API_TOKEN, REBALANCE_VAULT: '', ...extra }))
      running.push(k)
      return k
    }
    // The trustlines an operator adds before the first start (the guide's prerequisites); the
    // last transaction of this account.
    const trust = [world.usdc, ...world.collaterals].map((a) => Operation.changeTrust({ asset: new Asset(a.code, a.issuer) }))
    await submit(world.chain, shadowKp!, trust)
    const seqBefore = (await sandbox.server.getAccount(shadowAddr)).sequenceNumber()

    // 1. the crash
    const targeted = new Set<string>()
    const borrowers = [await pushUnder(world, world.collaterals[0]!, targeted, TARGET_HF), await pushUnder(world, world.collaterals[1]!, targeted, TARGET_HF)]

    // 2. the shadow keeper alone: no auction is open; it would open them (simulated, not sent)
    const shadow = start(shadowKp, 'shadow-keeper', { DRY_RUN: 'true' })
    const starting = await shadow.waitForLog((l) => l.msg === 'keeper starting', 60_000)
    expect(starting.dryRun).toMatch(/^DRY_RUN=true: shadow mode, nothing is sent/)
    for (const b of borrowers) {
      await shadow.waitForLog(
        (l) => l.msg === 'nothing to plan' && l.key === keyOf(b) && /^dry run: would send C[A-Z0-9]{55}:new_auction \(simulation passed; not sent\)$/.test(String(l.reason)),
        90_000,
      )
    }

    // 3. a third party opens the auctions, 12 ledgers apart: a live two-step keeper holds one
    // draw at a time (the vault's rule), so fills in neighbouring ledgers would wait for each
    // other's return, which a dry run, drawing nothing, does not (src/keeper/README.md, Shadow mode)
    const auctions = new Map<string, number>()
    for (const [i, b] of borrowers.entries()) {
      if (i > 0) await sandbox.closeLedgers(12)
      auctions.set(b.address, (await openAuction(sandbox.server, world, world.depositors[0]!, b.address)).block)
    }

    // 4. the shadow keeper plans their fills; the live keeper starts beside it and plans them too
    const planned = (k: KeeperProcess) => allAtStage(k, API_TOKEN, borrowers, 'planned')
    const shadowPlans = await until('the shadow keeper to plan both fills', () => planned(shadow), 90_000)
    const live = start(world.keepers[0]!, 'live-keeper')
    const livePlans = await until('the live keeper to plan both fills', () => planned(live), 90_000)
    // Up to a few ledgers before the earliest fill; the node's own 1 s ledgers carry it from there.
    const to = Math.min(...livePlans.map((p: any) => Number(p.targetLedger))) - 6
    const latest = (await sandbox.server.getLatestLedger()).sequence
    if (to > latest) await sandbox.closeLedgers(to - latest)

    // 5. the live keeper fills; the shadow keeper books its would-fills
    const liveFills = await until('the live keeper to fill both auctions', () => allAtStage(live, API_TOKEN, borrowers, 'returned'), 240_000)
    const shadowState = await until('the shadow keeper to book both would-fills', () => bookedAll(shadow, API_TOKEN, borrowers), 60_000)

    for (const [i, b] of borrowers.entries()) {
      const line = expectWouldFillMatches({ borrower: b, auctionBlock: auctions.get(b.address)!, shadowPlan: shadowPlans[i], shadowState, live, liveFill: liveFills[i] })
      console.log(`[dry run] ${line}`)
      const would = shadowState.shadow.fills.find((f: any) => f.key === keyOf(b))
      // Not registered, so the vault refuses its draw in simulation: said, and nothing sent.
      expect(would.simulation).toBe('refused')
      expect(would.reason).toMatch(/^refused in simulation: contract error #\d+$/)
      expect(would.expectedProfit).not.toBeNull()
    }
    expect(shadowState.registration).toBe('not attempted')
    expect(shadowState.shadow.totals.fills).toBeGreaterThanOrEqual(borrowers.length)
    const metrics = await (await get(shadow, '/metrics')).text()
    expect(metrics).toMatch(/^service_shadow_fills_total\{adapter="blend",simulation="refused"\} [1-9]/m)
    expect(metrics).toMatch(/^service_shadow_drawn_usdc_total [1-9]/m)

    // 6. not one transaction from the shadow keeper's accounts: its sequence number is where it
    // was, none of its channel accounts exists, the registry does not know it, the vault lent it nothing
    expect((await sandbox.server.getAccount(shadowAddr)).sequenceNumber()).toBe(seqBefore)
    for (const ch of channelKeypairs(shadowKp!, 4)) {
      expect(await sandbox.server.getAccount(ch.publicKey()).then(() => 'exists', () => null), ch.publicKey()).toBeNull()
    }
    const registry = new RegistryContract(world.chain, world.service!.registry)
    expect((await registry.getKeepers()).map((k) => k.operator)).not.toContain(shadowAddr)
    expect(await new VaultContract(world.chain, world.service!.vault).getKeeperDraw(shadowAddr)).toBe(0n)
    expect(shadow.lines.some((l) => l.msg === 'registered with the keeper registry' || l.msg === 'channel accounts ready')).toBe(false)

    for (const k of [shadow, live]) k.kill('SIGTERM')
    expect(await shadow.exited).toBe(0)
  }, 600_000)
})
