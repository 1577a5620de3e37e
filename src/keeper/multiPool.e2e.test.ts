/**
 * One keeper, two Blend pools (LENDING_POOLS), end to end on the sandbox with the real Blend v2
 * WASMs. The world opens two pools from the same protocol, oracle and reserves (they share WETH
 * and WBTC), one borrower in each, and one vault. Both collateral prices crash together and put
 * both borrowers under HF 1.
 *
 * - A shadow keeper (DRY_RUN=true, both pools; no USDC, no stake, not registered) reports the
 *   auctions it would open in each pool, and once a third party opened them, the fills it would
 *   make. Not one transaction from its accounts lands.
 * - A live keeper on the same pools then fills both auctions with the one vault's capital:
 *   /api/state shows a fill in each pool, /metrics the same with a `pool` label.
 * - The shadow keeper's would-fills match the live fills: same auction, same first planned
 *   ledger, same fill ledger, same percent, capital within 0.01 % (as in dryRun.e2e.test.ts).
 *
 * The third party opens the two auctions 12 ledgers apart: a live two-step keeper holds one draw
 * at a time (the vault's rule), so two fills in neighbouring ledgers would wait for each other,
 * which a dry run, drawing nothing, does not.
 */
import { Asset, Operation } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { channelKeypairs, submit } from '../chain/index.js'
import { deployWorld, type World } from '../world/index.js'
import { VaultContract } from './clients/index.js'
import { openAuction } from '../../test/keeper/auctionSetup.js'
import { pushUnder } from '../../test/keeper/crashPrice.js'
import { spawnKeeper, type KeeperProcess } from '../../test/keeper/keeperProcess.js'
import { worldKeeperEnv } from '../../test/keeper/worldKeeperEnv.js'
import { alive, allAtStage, apiGet, apiState, bookedAll, expectWouldFillMatches, keyOf } from '../../test/keeper/shadowCompare.js'
import { funded } from '../../test/sandbox/funded.js'
import { until } from '../../test/until.js'

const TARGET_HF = 9_850_000n
const API_TOKEN = 'multi-pool-test-api-token-0123456789'

let sandbox: Sandbox
let world: World
const running: KeeperProcess[] = []
const get = (k: KeeperProcess, path: string, token = true) => apiGet(k, path, token ? API_TOKEN : undefined)
const state = (k: KeeperProcess) => apiState(k, API_TOKEN)

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
  // Two borrowers: borrower 0 (WETH) in the first pool, borrower 1 (WBTC) in the second.
  world = await deployWorld(sandbox, { seed: 242, pools: 2, borrowers: 2, keepers: 1 })
}, 300_000)

afterAll(async () => {
  for (const k of running) if (alive(k)) k.kill('SIGKILL')
  await sandbox?.stop()
})

describe('LENDING_POOLS: one keeper, two pools that crash together', () => {
  it('fills both pools with one vault; a dry run on the same pools sends nothing and reports the same fills', async () => {
    const pools = world.blend.pools
    expect(pools).toHaveLength(2)
    expect(world.addresses.env.LENDING_POOLS).toBe(pools.join(','))
    const env = { API_TOKEN, REBALANCE_VAULT: '', LENDING_POOLS: pools.join(','), LENDING_POOL: '' }

    const [shadowKp] = await funded(sandbox, 1)
    const shadowAddr = shadowKp!.publicKey()
    const start = (kp: typeof shadowKp, name: string, extra: Record<string, string> = {}) => {
      const k = spawnKeeper(worldKeeperEnv(world, kp!, name, { ...env, ...extra }))
      running.push(k)
      return k
    }
    await submit(
      world.chain,
      shadowKp!,
      [world.usdc, ...world.collaterals].map((a) => Operation.changeTrust({ asset: new Asset(a.code, a.issuer) })),
    )
    const seqBefore = (await sandbox.server.getAccount(shadowAddr)).sequenceNumber()
    const vault = new VaultContract(world.chain, world.service!.vault)
    const profitBefore = (await vault.getState()).totalProfit

    // 1. the crash: both collaterals fall, one borrower in each pool goes under
    const targeted = new Set<string>()
    const borrowers = [await pushUnder(world, world.collaterals[0]!, targeted, TARGET_HF), await pushUnder(world, world.collaterals[1]!, targeted, TARGET_HF)]
    expect(borrowers.map((b) => b.pool).sort()).toEqual([...pools].sort())

    // 2. the shadow keeper: it would open an auction in each pool (simulated, not sent)
    const shadow = start(shadowKp, 'shadow-keeper', { DRY_RUN: 'true' })
    for (const b of borrowers) {
      await shadow.waitForLog((l) => l.msg === 'nothing to plan' && l.key === keyOf(b) && /would send C[A-Z0-9]{55}:new_auction/.test(String(l.reason)), 120_000)
    }

    // 3. a third party opens both auctions, 12 ledgers apart, each in its own pool
    const auctions = new Map<string, number>()
    for (const [i, b] of borrowers.entries()) {
      if (i > 0) await sandbox.closeLedgers(12)
      auctions.set(b.address, (await openAuction(sandbox.server, world, world.depositors[0]!, b.address, b.pool)).block)
    }

    // 4. both keepers plan both fills
    const planned = (k: KeeperProcess) => allAtStage(k, API_TOKEN, borrowers, 'planned')
    const shadowPlans = await until('the shadow keeper to plan both fills', () => planned(shadow), 120_000)
    const live = start(world.keepers[0]!, 'live-keeper')
    const livePlans = await until('the live keeper to plan both fills', () => planned(live), 120_000)
    expect(livePlans.map((p: any) => p.pool)).toEqual(borrowers.map((b) => b.pool))
    const to = Math.min(...livePlans.map((p: any) => Number(p.targetLedger))) - 6
    const latest = (await sandbox.server.getLatestLedger()).sequence
    if (to > latest) await sandbox.closeLedgers(to - latest)

    // 5. the live keeper fills in both pools from the one vault
    const liveFills = await until('the live keeper to fill both auctions', () => allAtStage(live, API_TOKEN, borrowers, 'returned'), 300_000)
    for (const f of liveFills) expect(BigInt(f.result.drew)).toBeGreaterThan(0n)
    expect((await vault.getState()).totalProfit).toBeGreaterThan(profitBefore)

    const liveState = await until('the live keeper to refresh its pool figures', async () => {
      const s = await state(live)
      return s.pools.every((p: any) => p.fills === 1) ? s : undefined
    }, 60_000)
    expect(liveState.pools.map((p: any) => p.pool)).toEqual(pools)
    for (const [i, p] of liveState.pools.entries()) {
      const fill = liveFills[borrowers.findIndex((b) => b.pool === p.pool)]
      expect(p, `pool ${i}`).toMatchObject({ fills: 1, drew: fill.result.drew, activeExecutions: 0 })
      expect(p.borrowers).toBe(1)
    }
    // Without the token: the figures, not the executions in flight.
    const open = await (await get(live, '/api/state', false)).json()
    expect(open.pools.map((p: any) => p.fills)).toEqual([1, 1])
    expect(open.pools[0]).not.toHaveProperty('activeExecutions')
    const metrics = await (await get(live, '/metrics')).text()
    for (const pool of pools) {
      expect(metrics).toMatch(new RegExp(`^service_pool_fills_total\\{pool="${pool}"\\} 1$`, 'm'))
      expect(metrics).toMatch(new RegExp(`^service_pool_borrowers\\{pool="${pool}"\\} 1$`, 'm'))
    }

    // 6. the shadow keeper's would-fills are the live fills
    const shadowState = await until('the shadow keeper to book both would-fills', () => bookedAll(shadow, API_TOKEN, borrowers), 90_000)
    for (const [i, b] of borrowers.entries()) {
      const line = expectWouldFillMatches({ borrower: b, auctionBlock: auctions.get(b.address)!, shadowPlan: shadowPlans[i], shadowState, live, liveFill: liveFills[i] })
      console.log(`[two pools] ${line}`)
    }

    // 7. nothing from the shadow keeper's accounts
    expect((await sandbox.server.getAccount(shadowAddr)).sequenceNumber()).toBe(seqBefore)
    for (const ch of channelKeypairs(shadowKp!, 4)) {
      expect(await sandbox.server.getAccount(ch.publicKey()).then(() => 'exists', () => null), ch.publicKey()).toBeNull()
    }
    expect(await vault.getKeeperDraw(shadowAddr)).toBe(0n)

    for (const k of [shadow, live]) k.kill('SIGTERM')
    expect(await live.exited).toBe(0)
  }, 900_000)
})
