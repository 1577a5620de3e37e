/**
 * End to end on the sandbox with the real Blend v2 WASMs: a thin DEX (pools of 20k USD a side)
 * where no keeper could sell a whole lot within its slippage floor. The first keeper fills the
 * percent the pool can absorb, the rest stays open on the same curve; an arbitrageur buys the
 * pool back to the oracle price, and a second keeper fills that rest later, in as many parts as
 * the pool allows, until a fill of 100 % ends the auction.
 * Every part is checked against the core's `scaleAuction`, and the vault books every profit.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundAccount } from '../../../chain/index.js'
import { addTrustlines } from '../../../world/assets.js'
import { routerDepth } from '../../dex/routerDepth.js'
import { routerVenue } from '../../dex/routerVenue.js'
import { startSandbox, type Sandbox } from '../../../../sandbox/ts/launch.js'
import { serialFastForward } from '../../../../test/sandbox/fastForward.js'
import { scaleAuction } from '../../../core/index.js'
import { VaultContract } from '../../clients/vault.js'
import { deployWorld, type World } from '../../../world/index.js'
import { toCoreAuction } from './auctionPlan.js'
import { lendingPoolAdapter } from './index.js'
import { loadAuction } from './loadPool.js'
import { AuctionType, type AuctionData } from './storage.js'

const UNIT = 10_000_000n

describe('a partial fill on a thin DEX, the rest later by another keeper (sandbox, real Blend v2)', () => {
  let sandbox: Sandbox
  let world: World

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
    world = await deployWorld(sandbox, {
      seed: 41,
      borrowers: 2,
      keepers: 2,
      collaterals: [
        { code: 'WETH', price: 2_000n * UNIT, dexDepthUsd: 20_000n * UNIT },
        { code: 'WBTC', price: 60_000n * UNIT, dexDepthUsd: 20_000n * UNIT },
      ],
    })
  })

  afterAll(async () => {
    await sandbox?.stop()
  })

  // Several keepers may fast-forward at once: one at a time, each only as far as still needed.
  const fastForward = serialFastForward(() => sandbox)

  it('fills the percent the pool can absorb, leaves the rest on the curve, and a second keeper fills that rest', { timeout: 300_000 }, async () => {
    const borrower = world.borrowers[0]!
    const asset = borrower.collateralAsset
    await world.setPrice(asset.contract, (world.price(asset.contract) * 85n) / 100n)
    const vault = new VaultContract(world.chain, world.service!.vault)
    const fills: { keeper: string; fillLedger: number; percent: number | undefined }[] = []
    const adapterFor = (keeper: string) =>
      lendingPoolAdapter({
        pool: world.blend.pool,
        usdc: world.usdc.contract,
        vaultContract: world.service!.vault,
        minProfit: 1.02,
        slippageBps: 500,
        primaryDexRouter: world.dex.primaryRouter,
        reader: sandbox.server,
        fastForward,
        onFill: (f) => fills.push({ keeper, fillLedger: f.fillLedger, percent: f.percent }),
      })
    const current = () => loadAuction(sandbox.server, world.blend.pool, AuctionType.UserLiquidation, borrower.address)
    const profitBefore = (await vault.getState()).totalProfit
    let booked = 0n

    // The arbitrageur: buys the collateral with USDC until the pool's price is the oracle's again.
    const arb = Keypair.random()
    await fundAccount(world.chain, arb.publicKey())
    await addTrustlines(world.chain, [arb], [world.usdc, asset])
    await world.mint('USDC', arb.publicKey(), 1_000_000n * UNIT)
    const depth = routerDepth(world.dex.primaryRouter)
    const buyBack = async () => {
      const pool = (await depth(world.chain, world.usdc.contract, asset.contract))!
      const k = Number(pool.reserveIn) * Number(pool.reserveOut)
      const target = Math.sqrt((k * Number(world.price(asset.contract))) / 1e7)
      const amountIn = BigInt(Math.floor((target - Number(pool.reserveIn)) / 0.997))
      if (amountIn > 0n) await routerVenue({ chain: world.chain, keypair: arb, router: world.dex.primaryRouter }).swap(amountIn, 0n, [world.usdc.contract, asset.contract])
    }

    // One fill by `name`, checked against the core: what is left is scaleAuction's remainder.
    async function fillOnce(name: string, index: number): Promise<AuctionData | undefined> {
      const keeper = world.keepers[index]!
      const a = adapterFor(name)
      const task = (await a.getTasks(world.chain)).find((t) => t.data.user === borrower.address)
      expect(task, `${name} sees the auction`).toBeDefined()
      const before = await current()
      const result = await a.execute(world.chain, keeper, task!, vault.bind(keeper))
      expect(result.success, result.note).toBe(true)
      expect(result.profit).toBeGreaterThan(0n)
      // the vault books the gross profit less the keeper's fee (its reward)
      expect(result.reward).toBeGreaterThan(0n)
      booked += result.profit - result.reward!
      const fill = fills.at(-1)!
      expect(fill.keeper).toBe(name)
      const after = await current()
      if (before !== undefined) {
        const { remaining } = scaleAuction({ auction: toCoreAuction(before), block: fill.fillLedger, percent: fill.percent! })
        expect(after === undefined ? null : toCoreAuction(after)).toEqual(remaining)
      }
      expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
      return after
    }

    // The first keeper opens the auction and fills part of it: the pool cannot take the whole lot.
    const left = await fillOnce('first', 0)
    expect(fills[0]!.percent).toBeGreaterThanOrEqual(1)
    expect(fills[0]!.percent).toBeLessThan(100)
    expect(left).toBeDefined()

    // The second keeper fills the rest later, in parts as the pool allows, to the last of it.
    let rest: AuctionData | undefined = left
    for (let i = 0; i < 25 && rest !== undefined; i++) {
      await buyBack()
      rest = await fillOnce('second', 1)
    }
    expect(rest).toBeUndefined()
    const second = fills.filter((f) => f.keeper === 'second')
    expect(second.length).toBeGreaterThan(0)
    expect(second[0]!.fillLedger).toBeGreaterThan(fills[0]!.fillLedger)
    expect(second.at(-1)!.percent).toBe(100)
    expect((await vault.getState()).totalProfit - profitBefore).toBe(booked)
  })
})
