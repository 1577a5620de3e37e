/**
 * End to end on the sandbox with the real Blend v2 WASMs (src/world): liquidations through the
 * lending-pool adapter, the DEX client against the project's routers, and the rebalancing
 * adapter. Tests run in order on one world; each liquidation uses its own borrower.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../../sandbox/ts/launch.js'
import { serialFastForward } from '../../../../test/sandbox/fastForward.js'
import { sharePrice } from '../../../core/index.js'
import { VaultContract, type VaultState } from '../../clients/vault.js'
import { RegistryContract } from '../../clients/registry.js'
import { tokenBalance } from '../../clients/token.js'
import { routerVenue } from '../../dex/routerVenue.js'
import { swapToUsdc } from '../../dex/swapToUsdc.js'
import { ErrNoRoute, ErrSlippageExceeded } from '../../dex/errors.js'
import { fundAccount } from '../../../chain/index.js'
import { addTrustlines } from '../../../world/assets.js'
import { REQUEST, blendRequest, deployWorld, poolSubmit, type World } from '../../../world/index.js'
import { rebalanceAdapter } from '../rebalance/index.js'
import type { Result } from '../../sdk/index.js'
import { lendingPoolAdapter, type LendingPoolAdapterParameters } from './index.js'

const UNIT = 10_000_000n

describe('liquidations end to end (sandbox, real Blend v2)', () => {
  let sandbox: Sandbox
  let world: World
  let vault: VaultContract

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
    world = await deployWorld(sandbox, { seed: 23, borrowers: 6, keepers: 3 })
    vault = new VaultContract(world.chain, world.service!.vault)
  })

  afterAll(async () => {
    await sandbox?.stop()
  })

  // Several keepers may fast-forward at once: one at a time, each only as far as still needed.
  const fastForward = serialFastForward(() => sandbox)

  function adapter(extra: Partial<LendingPoolAdapterParameters> = {}) {
    return lendingPoolAdapter({
      pool: world.blend.pool,
      usdc: world.usdc.contract,
      vaultContract: world.service!.vault,
      minProfit: 1.02,
      slippageBps: 300,
      primaryDexRouter: world.dex.primaryRouter,
      fallbackDexRouter: world.dex.fallbackRouter,
      reader: sandbox.server,
      fastForward,
      ...extra,
    })
  }

  const price = (s: VaultState) => sharePrice({ totalUsdc: s.totalUsdc, totalShares: s.totalShares })

  /**
   * What a closing return booked for the depositors: the gross profit (`result.profit`) less
   * the keeper's fee the vault paid it (`result.reward`, keeper_fee_bps of the gross, floor).
   */
  async function booked(r: Result): Promise<bigint> {
    const bps = BigInt((await vault.getConfig()).keeperFeeBps)
    expect(bps).toBeGreaterThan(0n)
    expect(r.reward ?? 0n).toBe((r.profit * bps) / 10_000n)
    return r.profit - (r.reward ?? 0n)
  }

  it('rebalances the external vault on drift, without touching the service vault', async () => {
    const before = await vault.getState()
    const reb = rebalanceAdapter({ vault: world.rebalanceVault, driftBps: 500, slippageBps: 300 })
    expect(await reb.getTasks(world.chain)).toEqual([])
    // 60k extra USDC: USDC goes far over its weight
    await world.mint('USDC', world.rebalanceVault, 60_000n * UNIT)
    const tasks = await reb.getTasks(world.chain)
    expect(tasks).toHaveLength(1)
    expect(tasks[0]!.data.maxDriftBps).toBeGreaterThan(500)
    expect(reb.estimateCapital(tasks[0]!)).toBe(0n)
    const rebalancer = world.keepers[0]!
    const res = await reb.execute(world.chain, rebalancer, tasks[0]!, {
      draw: async () => {
        throw new Error('the rebalancing adapter must not draw')
      },
      returnProceeds: async () => {
        throw new Error('the rebalancing adapter must not return proceeds')
      },
    })
    expect(res.drew).toBe(0n)
    expect(await reb.getTasks(world.chain)).toEqual([])
    expect(await vault.getState()).toEqual(before)
  })

  it('one full liquidation: price drop -> HF < 1 -> auction -> fill at the first profitable ledger -> swap -> return_proceeds', async () => {
    const borrower = world.borrowers[0]!
    const asset = borrower.collateralAsset
    await world.setPrice(asset.contract, (world.price(asset.contract) * 90n) / 100n)
    const keeper = world.keepers[0]!
    const fills: { plannedLedger: number; fillLedger: number }[] = []
    const a = adapter({ onFill: (f) => fills.push(f) })
    const tasks = await a.getTasks(world.chain)
    const task = tasks.find((t) => t.data.user === borrower.address)
    expect(task).toBeDefined()
    expect(task!.health).toBeLessThan(1)
    expect(task!.data.percent).toBeDefined()

    const before = await vault.getState()
    const usdcBefore = await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())
    const result = await a.execute(world.chain, keeper, task!, vault.bind(keeper))
    expect(result.success).toBe(true)
    expect(result.profit).toBeGreaterThan(0n)
    expect(result.profit).toBe(result.proceeds - result.drew)
    expect(fills).toHaveLength(1)
    expect(fills[0]!.fillLedger).toBe(fills[0]!.plannedLedger)

    const after = await vault.getState()
    const forDepositors = await booked(result)
    expect(result.reward).toBeGreaterThan(0n)
    expect(after.totalProfit - before.totalProfit).toBe(forDepositors)
    expect(after.totalUsdc - before.totalUsdc).toBe(forDepositors)
    expect(after.totalShares).toBe(before.totalShares)
    expect(price(after)).toBe(sharePrice({ totalUsdc: before.totalUsdc + forDepositors, totalShares: before.totalShares }))
    expect(price(after)).toBeGreaterThan(price(before))
    // the keeper's own USDC is untouched but for its fee; nothing is left outstanding
    expect(await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())).toBe(usdcBefore + result.reward!)
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
    const positions = await world.positions(borrower.address)
    expect(positions.liabilities.get(0) ?? 0n).toBeLessThan(borrower.borrowed)
  })

  it('three keepers race one auction: exactly one fill, the others return their draws unchanged, no slash', async () => {
    const borrower = world.borrowers[2]!
    expect(borrower.collateralAsset.contract).toBe(world.borrowers[0]!.collateralAsset.contract)
    const adapters = world.keepers.map(() => adapter())
    const taskLists = await Promise.all(adapters.map((a) => a.getTasks(world.chain)))
    const tasks = taskLists.map((ts) => ts.find((t) => t.data.user === borrower.address)!)
    for (const t of tasks) expect(t).toBeDefined()

    const registry = new RegistryContract(world.chain, world.service!.registry)
    const before = await vault.getState()
    const countersBefore = await Promise.all(world.keepers.map((k) => registry.getKeeper(k.publicKey())))
    const results = await Promise.all(
      adapters.map((a, i) => a.execute(world.chain, world.keepers[i]!, tasks[i]!, vault.bind(world.keepers[i]!))),
    )
    const winners = results.filter((r) => r.success)
    const losers = results.filter((r) => !r.success)
    expect(winners, JSON.stringify(results.map((r) => r.note))).toHaveLength(1)
    expect(losers).toHaveLength(2)
    for (const l of losers) {
      // every keeper drew before the fill ledger: the losers really had capital out
      expect(l.drew).toBeGreaterThan(0n)
      expect(l.profit).toBe(0n)
      // a loser that drew gave back exactly what it drew
      expect(l.proceeds).toBe(l.drew)
      expect(l.note ?? '').toMatch(/already filled|no open auction/)
    }
    const after = await vault.getState()
    const forDepositors = await booked(winners[0]!)
    for (const l of losers) expect(l.reward ?? 0n).toBe(0n)
    expect(after.totalProfit - before.totalProfit).toBe(forDepositors)
    expect(after.totalUsdc - before.totalUsdc).toBe(forDepositors)
    for (const [i, k] of world.keepers.entries()) {
      expect(await vault.getKeeperDraw(k.publicKey())).toBe(0n)
      const info = await registry.getKeeper(k.publicKey())
      expect(info.slashCount ?? 0).toBe(0)
      // every keeper executed; only the winner's return counts as a successful fill
      const was = countersBefore[i]!
      expect(info.totalExecutions - was.totalExecutions).toBe(1)
      expect(info.successfulFills - was.successfulFills).toBe(results[i]!.success ? 1 : 0)
    }
  })

  it('without a DEX client non-USDC collateral is held (paid for by the keeper), not booked as profit', async () => {
    const borrower = world.borrowers[1]!
    const asset = borrower.collateralAsset
    await world.setPrice(asset.contract, (world.price(asset.contract) * 90n) / 100n)
    const keeper = world.keepers[1]!
    const a = lendingPoolAdapter({
      pool: world.blend.pool,
      usdc: world.usdc.contract,
      minProfit: 1.02,
      slippageBps: 300,
      reader: sandbox.server,
      fastForward,
    })
    const task = (await a.getTasks(world.chain)).find((t) => t.data.user === borrower.address)!
    expect(task).toBeDefined()
    const heldBefore = await tokenBalance(world.chain, asset.contract, keeper.publicKey())
    const usdcBefore = await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())
    const before = await vault.getState()
    const result = await a.execute(world.chain, keeper, task, vault.bind(keeper))
    expect(result.success).toBe(true)
    expect(result.note).toMatch(/collateral held/)
    expect(result.profit).toBe(0n)
    expect(result.proceeds).toBe(result.drew)
    expect(await tokenBalance(world.chain, asset.contract, keeper.publicKey())).toBeGreaterThan(heldBefore)
    // the keeper paid for the collateral it holds; the vault got its principal back
    expect(await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())).toBeLessThan(usdcBefore)
    const after = await vault.getState()
    expect(after.totalProfit).toBe(before.totalProfit)
    expect(after.totalUsdc).toBe(before.totalUsdc)
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
  })

  describe('SwapToUSDC against the routers', () => {
    let seller: Keypair
    const amount = 1n * UNIT / 2n // half a unit of the first collateral

    beforeAll(async () => {
      seller = world.keepers[2]!
      await world.mint(world.collaterals[0]!.contract, seller.publicKey(), 10n * UNIT)
    })

    const params = (refValue: bigint) => ({
      tokenIn: world.collaterals[0]!.contract,
      usdc: world.usdc.contract,
      amountIn: amount,
      refValue,
      slippageBps: 100,
      usdcBalance: () => tokenBalance(world.chain, world.usdc.contract, seller.publicKey()),
      venues: [
        routerVenue({ chain: world.chain, keypair: seller, router: world.dex.primaryRouter, name: 'primary' }),
        routerVenue({ chain: world.chain, keypair: seller, router: world.dex.fallbackRouter, name: 'fallback' }),
      ],
    })

    async function quote(router: string): Promise<bigint> {
      return routerVenue({ chain: world.chain, keypair: seller, router }).quote(amount, [world.collaterals[0]!.contract, world.usdc.contract])
    }

    it('rejects a quote below the slippage floor and does not try the fallback', async () => {
      const q = await quote(world.dex.primaryRouter)
      const before = await tokenBalance(world.chain, world.collaterals[0]!.contract, seller.publicKey())
      // oracle says the lot is worth 10 % more than the venue pays
      await expect(swapToUsdc(params((q * 110n) / 100n))).rejects.toBeInstanceOf(ErrSlippageExceeded)
      expect(await tokenBalance(world.chain, world.collaterals[0]!.contract, seller.publicKey())).toBe(before)
    })

    it('falls back when the primary router fails, proceeds = measured USDC delta', async () => {
      await world.setRouterPaused('primary', true)
      try {
        const q = await quote(world.dex.fallbackRouter)
        const usdcBefore = await tokenBalance(world.chain, world.usdc.contract, seller.publicKey())
        const r = await swapToUsdc(params(q))
        expect(r.venue).toBe('fallback')
        expect(r.failures.map((f) => f.venue)).toEqual(['primary'])
        expect(r.proceeds).toBe((await tokenBalance(world.chain, world.usdc.contract, seller.publicKey())) - usdcBefore)
        expect(r.proceeds).toBeGreaterThanOrEqual(r.amountOutMin)
      } finally {
        await world.setRouterPaused('primary', false)
      }
    })

    it('no route when every venue fails; nothing is swapped', async () => {
      const q = await quote(world.dex.primaryRouter)
      await world.setRouterPaused('primary', true)
      await world.setRouterPaused('fallback', true)
      try {
        const before = await tokenBalance(world.chain, world.collaterals[0]!.contract, seller.publicKey())
        const err = await swapToUsdc(params(q)).catch((e: unknown) => e)
        expect(err).toBeInstanceOf(ErrNoRoute)
        expect((err as ErrNoRoute).failures).toHaveLength(2)
        expect(await tokenBalance(world.chain, world.collaterals[0]!.contract, seller.publicKey())).toBe(before)
      } finally {
        await world.setRouterPaused('primary', false)
        await world.setRouterPaused('fallback', false)
      }
    })
  })
  it('a USDC lot without a DEX client is returned and booked; non-USDC dust is held', async () => {
    // A borrower with 1,000 USDC and ~100 USD of the second collateral, borrowing USDC at HF 1.02;
    // then that collateral loses 99 %: only a full liquidation is valid and the lot is ~all USDC.
    const other = world.collaterals[1]!
    const b = Keypair.random()
    await fundAccount(world.chain, b.publicKey())
    await addTrustlines(world.chain, [b], [world.usdc, other])
    const usdcColl = 1_000n * UNIT
    const otherColl = (100n * UNIT * UNIT) / world.price(other.contract)
    await world.mint('USDC', b.publicKey(), usdcColl)
    await world.mint(other.contract, b.publicKey(), otherColl)
    const effective = (usdcColl * 95n) / 100n + (((otherColl * world.price(other.contract)) / UNIT) * 75n) / 100n
    const debt = (effective * 95n * 100n) / (100n * 102n)
    await poolSubmit(world.chain, b, world.blend.pool, [
      blendRequest(REQUEST.supplyCollateral, world.usdc.contract, usdcColl),
      blendRequest(REQUEST.supplyCollateral, other.contract, otherColl),
      blendRequest(REQUEST.borrow, world.usdc.contract, debt),
    ])
    await world.setPrice(other.contract, world.price(other.contract) / 100n)

    const keeper = world.keepers[2]!
    const a = lendingPoolAdapter({
      pool: world.blend.pool,
      usdc: world.usdc.contract,
      minProfit: 1.02,
      slippageBps: 300,
      reader: sandbox.server,
      fastForward,
    })
    const task = (await a.getTasks(world.chain)).find((t) => t.data.user === b.publicKey())!
    expect(task).toBeDefined()
    expect(task.data.percent).toBe(100)
    const usdcBefore = await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())
    const dustBefore = await tokenBalance(world.chain, other.contract, keeper.publicKey())
    const before = await vault.getState()
    const result = await a.execute(world.chain, keeper, task, vault.bind(keeper))
    expect(result.success).toBe(true)
    expect(result.profit).toBeGreaterThan(0n)
    expect(result.note).toMatch(/collateral held/)
    const after = await vault.getState()
    const forDepositors = await booked(result)
    expect(after.totalProfit - before.totalProfit).toBe(forDepositors)
    expect(after.totalUsdc - before.totalUsdc).toBe(forDepositors)
    // the keeper's own USDC is untouched but for its fee: all of the profit came from the USDC lot
    expect(await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())).toBe(usdcBefore + (result.reward ?? 0n))
    expect(await tokenBalance(world.chain, other.contract, keeper.publicKey())).toBeGreaterThan(dustBefore)
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
    const positions = await world.positions(b.publicKey())
    expect(positions.liabilities.get(0) ?? 0n).toBe(0n)
  })
  it('bad debt: a late fill leaves debt on the backstop; its bad-debt auction is filled and the LP lot exited to USDC at a profit', async () => {
    // The second collateral lost 99 % above: its untouched borrower is far underwater. A full
    // liquidation clears MIN_PROFIT only late in the bid phase, so most of the debt is left with
    // no collateral and moves to the backstop.
    const borrower = world.borrowers[3]!
    expect(borrower.collateralAsset.contract).toBe(world.collaterals[1]!.contract)
    const keeper = world.keepers[0]!
    const a = adapter()
    const userTask = (await a.getTasks(world.chain)).find((t) => t.data.user === borrower.address)!
    expect(userTask.data.percent).toBe(100)
    const liq = await a.execute(world.chain, keeper, userTask, vault.bind(keeper))
    expect(liq.success).toBe(true)

    const tasks = await a.getTasks(world.chain)
    const badDebt = tasks.find((t) => t.data.kind === 'bad_debt')
    expect(badDebt, JSON.stringify(tasks.map((t) => t.label))).toBeDefined()
    expect(badDebt!.data.estCapital).toBeGreaterThan(0n)

    const before = await vault.getState()
    const result = await a.execute(world.chain, keeper, badDebt!, vault.bind(keeper))
    expect(result.success, result.note).toBe(true)
    expect(result.profit).toBeGreaterThan(0n)
    const after = await vault.getState()
    expect(after.totalProfit - before.totalProfit).toBe(await booked(result))
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
    const backstopDebt = await world.positions(world.blend.backstop)
    expect([...backstopDebt.liabilities.values()].reduce((s, v) => s + v, 0n)).toBe(0n)
  })
  it('interest auction: backstop interest is auctioned for LP tokens minted with USDC and filled at a profit', async () => {
    // A whale borrows 1.5M USDC (utilization ~75 %), 60 days pass: the backstop's 10 % of the
    // interest is well above the pool's 200 USDC minimum for an interest auction.
    const weth = world.collaterals[0]!
    const whale = Keypair.random()
    await fundAccount(world.chain, whale.publicKey())
    await addTrustlines(world.chain, [whale], [world.usdc, weth])
    await world.mint(weth.contract, whale.publicKey(), 2_000n * UNIT)
    await poolSubmit(world.chain, whale, world.blend.pool, [
      blendRequest(REQUEST.supplyCollateral, weth.contract, 2_000n * UNIT),
      blendRequest(REQUEST.borrow, world.usdc.contract, 1_500_000n * UNIT),
    ])
    await sandbox.advanceTime(60 * 86_400)
    await sandbox.closeLedgers(1)
    // No pool action since: the stored reserve data is 60 days stale, and the keeper accrues it
    // to the ledger's close time itself.

    const keeper = world.keepers[1]!
    const a = adapter()
    const tasks = await a.getTasks(world.chain)
    const interest = tasks.find((t) => t.data.kind === 'interest')
    expect(interest, JSON.stringify(tasks.map((t) => t.label))).toBeDefined()
    const usdcBefore = await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())
    const before = await vault.getState()
    const result = await a.execute(world.chain, keeper, interest!, vault.bind(keeper))
    expect(result.success, result.note).toBe(true)
    expect(result.drew).toBeGreaterThan(0n)
    expect(result.profit).toBeGreaterThan(0n)
    const after = await vault.getState()
    expect(after.totalProfit - before.totalProfit).toBe(await booked(result))
    expect(await tokenBalance(world.chain, world.usdc.contract, keeper.publicKey())).toBe(usdcBefore + (result.reward ?? 0n))
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
  })
})
