/**
 * The execution engine end to end: one keeper daemon with its executor contract (atomic path) and
 * channel accounts, on a sandbox world with the real Blend v2 pool, after a price drop that puts
 * several borrowers under water at once. Every auction is opened within a few ledgers of the drop,
 * planned together, and filled in its first profitable ledger with draw and return in the same
 * transaction, while the poll loop keeps scanning.
 */
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { deployExecutor, deployWorld, type World } from '../../world/index.js'
import { RegistryContract } from '../clients/registry.js'
import { tokenBalance } from '../clients/token.js'
import { auctionKey, AuctionType } from '../adapters/blend/storage.js'
import type { ExecutionView } from './book.js'
import { VaultContract } from '../clients/vault.js'
import { parseConfig } from '../config/index.js'
import { startDaemon, type Daemon } from '../daemon.js'
import { worldKeeperEnv } from '../../../test/keeper/worldKeeperEnv.js'
import { until } from '../../../test/until.js'

describe('execution engine end to end (atomic path, several auctions at once)', () => {
  let sandbox: Sandbox
  let world: World
  let daemon: Daemon | undefined

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.5 })
    world = await deployWorld(sandbox, { seed: 31, borrowers: 6, keepers: 1, registerKeepers: false })
  }, 240_000)

  afterAll(async () => {
    await daemon?.stop()
    await sandbox?.stop()
  })

  it('opens, plans and fills every auction on time, drawing and returning in one transaction', async () => {
    const keeper = world.keepers[0]!
    const executor = await deployExecutor(world, keeper, { register: false })
    const vault = new VaultContract(world.chain, world.service!.vault)
    const registry = new RegistryContract(world.chain, world.service!.registry)
    daemon = await startDaemon(
      parseConfig(
        worldKeeperEnv(world, keeper, 'engine-e2e', {
          EXECUTOR_CONTRACT: executor.contractId,
          // The world's rebalance vault belongs to another test: leave it out.
          REBALANCE_VAULT: '',
        }),
      ),
      { logger: pino({ level: 'silent' }), stopGraceMs: 5_000 },
    )
    const d = daemon
    expect((await registry.getKeeper(executor.contractId)).name).toBe('engine-e2e')
    const before = await vault.getState()

    // Both collateral prices down 20 %: every borrower (opened at HF 1.04-1.10) goes under water.
    const dropLedger = (await sandbox.server.getLatestLedger()).sequence
    for (const c of world.collaterals) await world.setPrice(c.code, (world.price(c.code) * 80n) / 100n)
    const planned = await until(
      'every auction planned',
      () => {
        const p = d.state.executions.filter((e) => e.stage === 'planned')
        return p.length === world.borrowers.length ? p : undefined
      },
      60_000,
    )
    const cyclesAtPlan = d.state.cycles.count
    // Every auction opened (and planned) within a few ledgers of the drop: channel accounts carry
    // the auction openings in parallel.
    for (const e of planned) expect(e.plannedAt - dropLedger).toBeLessThanOrEqual(10)
    expect(planned.every((e) => e.path === 'atomic')).toBe(true)

    // Skip most of the ~180 ledgers of ripening; the last ledgers run at the sandbox's own pace.
    const firstTarget = Math.min(...planned.map((e) => e.targetLedger))
    const latest = (await sandbox.server.getLatestLedger()).sequence
    if (firstTarget - 5 > latest) await sandbox.closeLedgers(firstTarget - 5 - latest)

    // Done when no auction is left in the pool and the keeper's state (refreshed once a cycle)
    // shows every fill the registry counted, booked. An auction filled in parts gets its next part
    // planned after the earlier part lands, and the adapter reports its `returned` step before the
    // execution's result is booked.
    const auctionKeys = world.borrowers.map((b) => auctionKey(world.blend.pool, AuctionType.UserLiquidation, b.address))
    const booked = (e: ExecutionView) => (e.stage === 'returned' && e.result !== null) || e.stage === 'lost' || e.stage === 'abandoned'
    await until(
      'every auction filled and every execution booked',
      async () => {
        const open = (await sandbox.server.getLedgerEntries(...auctionKeys)).entries.length
        const all = d.state.executions
        const fills = (await registry.getKeeper(executor.contractId)).successfulFills
        return open === 0 && all.length >= planned.length && all.length === fills && all.every(booked) ? true : undefined
      },
      120_000,
    ).catch(async (err) => {
      const latestNow = (await sandbox.server.getLatestLedger()).sequence
      console.log(`latest ${latestNow}`, JSON.stringify(d.state.executions.map((e) => ({ l: e.label.slice(0, 6), s: e.stage, t: e.targetLedger, h: e.history, n: e.note })), null, 0))
      console.log(d.state.cycles, d.state.recovery)
      throw err
    })
    await d.stop()
    const sent = d.state.executions
    for (const e of sent) {
      expect(e.stage, `${e.label}: ${e.note}`).toBe('returned')
      const at = (s: string) => e.history.find((h) => h.stage === s)?.ledger
      // draw, fill, swap and return in one ledger (one transaction): nothing outstanding across ledgers
      expect(at('drawn')).toBeDefined()
      expect(new Set(['drawn', 'filled', 'swapped', 'returned'].map(at)).size).toBe(1)
      // in the first profitable ledger, or the one after
      expect(at('filled')! - e.targetLedger).toBeLessThanOrEqual(1)
    }
    const onTime = sent.filter((e) => e.history.find((h) => h.stage === 'filled')!.ledger === e.targetLedger).length
    console.log(`[engine e2e] ${sent.length} fills, ${onTime} filled in the planned ledger, planned ${planned.map((e) => e.plannedAt - dropLedger).join('/')} ledgers after the drop`)

    // The poll loop kept scanning while the auctions ripened, and never overran.
    expect(d.state.cycles.count).toBeGreaterThan(cyclesAtPlan)
    expect(d.state.cycles.overruns).toBe(0)

    // The books: profit booked (the gross less the keeper's fee on each flash draw), nothing
    // outstanding, the executor's record; the fees are the keeper's rewards, paid to the executor.
    const after = await vault.getState()
    const profit = sent.reduce((s, e) => s + (e.result ? BigInt(e.result.profit) : 0n), 0n)
    const rewards = sent.reduce((s, e) => s + (e.result?.reward ?? 0n), 0n)
    expect(profit).toBeGreaterThan(0n)
    expect(rewards).toBeGreaterThan(0n)
    expect(after.totalProfit - before.totalProfit).toBe(profit - rewards)
    expect(d.state.rewards).toEqual({ total: rewards, payments: sent.length })
    expect(await tokenBalance(world.chain, world.usdc.contract, executor.contractId)).toBe(rewards)
    expect(after.activeLiq).toBe(0n)
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(0n)
    const record = await registry.getKeeper(executor.contractId)
    expect(record.successfulFills).toBe(sent.length)
    expect(record.hasActiveDraw).toBe(false)
  }, 300_000)
})
