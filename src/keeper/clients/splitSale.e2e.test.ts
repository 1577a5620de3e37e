/**
 * Split sales, Comet pools and routes through an intermediate asset, end to end on the sandbox
 * with the real contracts: the real Blend v2 pool, the service vault and registry, the
 * project's routers and the published Comet wasm, and an executor the registry deployed. The
 * world has a Comet WETH:USDC pool (`cometDepthUsd`) and a WBTC:WETH pair on the primary router
 * (`via`), both among the registry's venues / routes.
 *
 * 1. A WETH borrower's auction filled atomically (vault.flash_draw -> executor.on_flash) with the
 *    lot split between the primary and the fallback router by core `bestSplit` over the two
 *    pairs' reserves read from chain, an exact amount on the primary and the remainder on the
 *    fallback. The same fill with the whole lot on the best single venue is simulated on the
 *    same ledger state: the split pays the vault more, and the landed fill pays exactly what its
 *    simulation said.
 * 2. Another WETH borrower's lot sold into the Comet pool.
 * 3. A WBTC borrower's lot sold along [WBTC, WETH, USDC] on the primary router.
 *
 * The node closes a ledger only when asked or when a transaction arrives (manual + instant), so
 * two simulations in a row see one state, and a transaction lands in the ledger they simulated;
 * its clock is virtual (seeded), so that ledger closes at the time they simulated too (on the wall
 * clock a second could pass between them, and the pool's interest with it).
 */
import { TransactionBuilder, rpc, scValToNative, type Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { addr, read } from '../../chain/index.js'
import { SCALAR_12, bestSplit, constantProductOut, mulDiv, weightedPoolOut, type ConstantProductPool } from '../../core/index.js'
import { deployExecutor, deployWorld, type World } from '../../world/index.js'
import { minProfitScaled, planFill, type FillPlan } from '../adapters/blend/auctionPlan.js'
import { loadAuction, type Reserve } from '../adapters/blend/loadPool.js'
import { RequestType, fillRequests, type Request } from '../adapters/blend/requests.js'
import { AuctionType } from '../adapters/blend/storage.js'
import { ExecutorContract, type ExecutorLiquidation, type ExecutorSwap } from './executor.js'
import { RegistryContract } from './registry.js'
import { tokenBalance } from './token.js'
import { VaultContract } from './vault.js'
import { openAuction as openAuctionOf, valuation as valuationOf } from '../../../test/keeper/auctionSetup.js'

const UNIT = 10_000_000n
const COMET_DEPTH = 1_000_000n * UNIT
const VIA_DEPTH = 500_000n * UNIT

describe('split sales, Comet pools and intermediate routes (sandbox, real contracts)', () => {
  let sandbox: Sandbox
  let world: World
  let vault: VaultContract
  let keeper: Keypair
  let executor: ExecutorContract
  let feeBps: bigint

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, manual: true, instant: true, seed: 47 })
    world = await deployWorld(sandbox, {
      seed: 47,
      borrowers: 4,
      keepers: 1,
      collaterals: [
        // shallow router pairs (100k USD a side on the primary, 50k on the fallback): a split matters
        { code: 'WETH', price: 2_000n * UNIT, dexDepthUsd: 100_000n * UNIT, cometDepthUsd: COMET_DEPTH },
        { code: 'WBTC', price: 60_000n * UNIT, via: { asset: 'WETH', depthUsd: VIA_DEPTH } },
      ],
    })
    vault = new VaultContract(world.chain, world.service!.vault)
    keeper = world.keepers[0]!
    executor = await deployExecutor(world, keeper, { name: 'split-keeper' })
    feeBps = BigInt((await vault.getConfig()).keeperFeeBps)
    // WETH and WBTC lose 12 %: every borrower (opened at HF 1.04-1.10) falls below 1.
    await world.setPrice('WETH', (world.price('WETH') * 88n) / 100n)
    await world.setPrice('WBTC', (world.price('WBTC') * 88n) / 100n)
  }, 300_000)

  afterAll(async () => {
    await sandbox?.stop()
  })

  const weth = () => world.asset('WETH').contract
  const wbtc = () => world.asset('WBTC').contract
  const usdc = () => world.usdc.contract
  const comet = () => world.dex.comets[0]!.pool

  /**
   * The vault's booked profit for sale proceeds `out` when the pool took `repaid` of the draw:
   * the gross less the keeper's fee. (The fill's repay request asks a little over the debt;
   * Blend pulls only the debt, and the rest of the draw comes back with the proceeds.)
   */
  const profitOf = (out: bigint, repaid: bigint) => out - repaid - ((out - repaid) * feeBps) / 10_000n

  /** USDC held by the vault, the executor (its fees) and the Blend pool. */
  async function usdcHeld(): Promise<{ vault: bigint; executor: bigint; pool: bigint }> {
    const [v, e, p] = await Promise.all([world.service!.vault, executor.contractId, world.blend.pool].map((h) => tokenBalance(world.chain, usdc(), h)))
    return { vault: v!, executor: e!, pool: p! }
  }

  /**
   * Where the USDC of a landed fill went, from the balances before and after: the pool's repay,
   * the vault's profit and the executor's fee add up to the sale's proceeds; the pool took at
   * most the draw. Returns the repay.
   */
  function accountFor(before: Awaited<ReturnType<typeof usdcHeld>>, after: Awaited<ReturnType<typeof usdcHeld>>, sent: { profit: bigint; fee: bigint }, proceeds: bigint, draw: bigint): bigint {
    const repaid = after.pool - before.pool
    expect(repaid).toBeGreaterThan(0n)
    expect(repaid).toBeLessThanOrEqual(draw)
    expect(after.vault - before.vault).toBe(sent.profit)
    expect(after.executor - before.executor).toBe(sent.fee)
    expect(repaid + sent.profit + sent.fee).toBe(proceeds)
    expect(sent.fee).toBe(((sent.profit + sent.fee) * feeBps) / 10_000n)
    return repaid
  }

  /** A router's pair of `a`/`b` as the seller of `a` sees it. */
  async function pairOf(router: string, a: string, b: string): Promise<ConstantProductPool> {
    const [reserveIn, reserveOut] = await read<[bigint, bigint]>(world.chain, router, 'get_reserves', [addr(a), addr(b)])
    return { reserveIn, reserveOut }
  }

  async function cometBalances(): Promise<{ weth: bigint; usdc: bigint }> {
    const [w, u] = await Promise.all([weth(), usdc()].map((t) => read<bigint>(world.chain, comet(), 'get_balance', [addr(t)])))
    return { weth: w!, usdc: u! }
  }

  const valuation = (users: string[]) => valuationOf(sandbox.server, world, users)
  const openAuction = (user: string) => openAuctionOf(sandbox.server, world, keeper, user)

  /**
   * Opens the borrower's auction, closes ledgers up to just before its first profitable one
   * (MIN_PROFIT 1.02) and plans a full fill for the next ledger: the requests, the draw (the
   * USDC repay) and the lot asset's underlying amount the fill withdraws.
   */
  async function planAt(user: string, lotAsset: string): Promise<{ fill: FillPlan; draw: bigint; requests: Request[]; seized: bigint }> {
    const auction = await openAuction(user)
    const plan = async () => {
      const { reserves, prices, latest } = await valuation([])
      const fill = planFill({ auction, reserves, prices: prices.prices, minProfit: minProfitScaled(1.02), fromBlock: latest + 1 })
      expect(fill).not.toBeNull()
      return { fill: fill!, reserves }
    }
    const first = (await plan()).fill.block
    const latest = (await sandbox.server.getLatestLedger()).sequence
    if (latest < first - 1) await sandbox.closeLedgers(first - 1 - latest)
    const { fill, reserves } = await plan()
    expect(fill.block).toBe(first)
    const rates = (k: 'b_rate' | 'd_rate') => Object.fromEntries([...reserves].map(([a, r]: [string, Reserve]) => [a, r.data[k]]))
    const requests = fillRequests({
      auctionType: AuctionType.UserLiquidation,
      user,
      percent: 100,
      bid: fill.bid,
      lot: fill.lot,
      dRates: rates('d_rate'),
      bRates: rates('b_rate'),
    })
    const repay = requests.filter((r) => r.request_type === RequestType.Repay)
    expect(repay.map((r) => r.address)).toEqual([usdc()])
    expect(Object.keys(fill.lot)).toEqual([lotAsset])
    const seized = mulDiv(fill.lot[lotAsset]!, reserves.get(lotAsset)!.data.b_rate, SCALAR_12, 'floor')
    expect(seized).toBeGreaterThan(0n)
    return { fill, draw: repay[0]!.amount, requests, seized }
  }

  /** The flash draw simulated on the current state: the profit the vault would book, and the ledger simulated on. */
  async function simulateProfit(l: ExecutorLiquidation): Promise<{ profit: bigint; latest: number }> {
    const account = await sandbox.server.getAccount(keeper.publicKey())
    const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: world.chain.networkPassphrase })
      .addOperation(executor.liquidateOperation(l))
      .setTimeout(60)
      .build()
    const sim = await sandbox.server.simulateTransaction(tx, undefined, 'record_allow_nonroot')
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`simulation failed: ${JSON.stringify(sim)}`)
    return { profit: BigInt(scValToNative(sim.result!.retval) as bigint), latest: sim.latestLedger }
  }

  const liquidation = (p: { draw: bigint; requests: Request[] }, swaps: ExecutorSwap[]): ExecutorLiquidation => ({
    pool: world.blend.pool,
    draw: p.draw,
    requests: p.requests,
    swaps,
    minProceeds: p.draw,
    responseTimeMs: 4_000,
  })

  it('the world has the Comet pool and the intermediate pair, seeded as asked, and lists the Comet pool as a venue and in COMET_POOLS', async () => {
    expect(world.dex.comets).toEqual([{ asset: weth(), pool: expect.stringMatching(/^C/) }])
    expect(world.addresses.dex.comets).toEqual(world.dex.comets)
    expect(world.addresses.env.COMET_POOLS).toBe(comet())
    expect(await new RegistryContract(world.chain, world.service!.registry).getVenues()).toEqual([
      world.blend.pool,
      world.dex.primaryRouter,
      world.dex.fallbackRouter,
      comet(),
    ])
    // 1M USD a side at 2,000 (seeded before the price drop)
    expect(await cometBalances()).toEqual({ weth: (COMET_DEPTH * UNIT) / (2_000n * UNIT), usdc: COMET_DEPTH })
    expect(await read<bigint>(world.chain, comet(), 'get_normalized_weight', [addr(weth())])).toBe(5_000_000n)
    expect(await read<bigint>(world.chain, comet(), 'get_swap_fee')).toBe(30_000n)
    // WBTC:WETH on the primary router, 500k USD a side at 60,000 and 2,000
    const via = world.dex.pairs.filter((p) => p.tokenA === wbtc() && p.tokenB === weth())
    expect(via.map((p) => p.router)).toEqual([world.dex.primaryRouter])
    expect(await pairOf(world.dex.primaryRouter, wbtc(), weth())).toEqual({
      reserveIn: (VIA_DEPTH * UNIT) / (60_000n * UNIT),
      reserveOut: (VIA_DEPTH * UNIT) / (2_000n * UNIT),
    })
    expect(world.dex.pairs.filter((p) => p.tokenB !== weth() || p.tokenA !== wbtc()).every((p) => p.tokenA === usdc())).toBe(true)
  })

  it('a lot split between the primary and the fallback router by bestSplit pays the vault more than the whole lot on the best single venue', async () => {
    const borrower = world.borrowers[0]!
    expect(borrower.collateralAsset.contract).toBe(weth())
    const p = await planAt(borrower.address, weth())

    // the two venues' WETH:USDC pairs, from chain
    const primary = await pairOf(world.dex.primaryRouter, weth(), usdc())
    const fallback = await pairOf(world.dex.fallbackRouter, weth(), usdc())
    const split = bestSplit(p.seized, primary, fallback)
    expect(split.first).toBeGreaterThan(0n)
    expect(split.second).toBeGreaterThan(0n)
    const singles = [
      { router: world.dex.primaryRouter, out: constantProductOut(p.seized, primary) },
      { router: world.dex.fallbackRouter, out: constantProductOut(p.seized, fallback) },
    ].sort((a, b) => (b.out > a.out ? 1 : -1))
    const best = singles[0]!
    expect(best.router).toBe(world.dex.primaryRouter)
    expect(split.out).toBeGreaterThan(best.out)

    const floor = (out: bigint) => (out * 99n) / 100n
    const firstOut = constantProductOut(split.first, primary)
    const secondOut = constantProductOut(split.second, fallback)
    expect(firstOut + secondOut).toBe(split.out)
    const splitSale = liquidation(p, [
      { venue: { kind: 'router', router: world.dex.primaryRouter }, path: [weth(), usdc()], amountIn: split.first, minOut: floor(firstOut) },
      // the remainder: whatever the fill paid beyond the exact part
      { venue: { kind: 'router', router: world.dex.fallbackRouter }, path: [weth(), usdc()], amountIn: 0n, minOut: floor(secondOut) },
    ])
    const singleSale = liquidation(p, [{ venue: { kind: 'router', router: best.router }, path: [weth(), usdc()], amountIn: 0n, minOut: floor(best.out) }])

    // both simulated on the same state
    const single = await simulateProfit(singleSale)
    const simulated = await simulateProfit(splitSale)
    expect(simulated.latest).toBe(single.latest)
    expect(simulated.profit).toBeGreaterThan(single.profit)

    // the split lands in the ledger simulated and pays what it simulated
    const before = await usdcHeld()
    const sent = await executor.liquidate(splitSale, keeper)
    expect(sent.ledger).toBe(p.fill.block)
    expect(sent.profit).toBe(simulated.profit)
    const repaid = accountFor(before, await usdcHeld(), sent, split.out, p.draw)
    // the whole lot on the primary would have sold for exactly its quote with the same repay
    expect(simulated.profit).toBe(profitOf(split.out, repaid))
    expect(single.profit).toBe(profitOf(best.out, repaid))
    console.log(
      `[split] lot ${p.seized} WETH: primary ${split.first} + fallback ${split.second} -> ${split.out} USDC; ` +
        `whole lot on the primary -> ${best.out}; vault profit ${simulated.profit} vs ${single.profit} (+${simulated.profit - single.profit})`,
    )
    // each pair got its part; the executor keeps no WETH and only its fee in USDC
    const primaryAfter = await pairOf(world.dex.primaryRouter, weth(), usdc())
    const fallbackAfter = await pairOf(world.dex.fallbackRouter, weth(), usdc())
    expect([primaryAfter.reserveIn - primary.reserveIn, fallbackAfter.reserveIn - fallback.reserveIn]).toEqual([split.first, split.second])
    expect([primary.reserveOut - primaryAfter.reserveOut, fallback.reserveOut - fallbackAfter.reserveOut]).toEqual([firstOut, secondOut])
    expect(await tokenBalance(world.chain, weth(), executor.contractId)).toBe(0n)
    expect(await tokenBalance(world.chain, usdc(), executor.contractId)).toBe(sent.fee)
    expect(await loadAuction(sandbox.server, world.blend.pool, AuctionType.UserLiquidation, borrower.address)).toBeUndefined()
  })

  it('a lot sold into the Comet pool: Comet takes exactly the lot and pays at least the core weighted-pool quote', async () => {
    const borrower = world.borrowers[2]!
    expect(borrower.collateralAsset.contract).toBe(weth())
    const p = await planAt(borrower.address, weth())
    const before = await cometBalances()
    const pool = { balanceIn: before.weth, weightIn: 5_000_000n, balanceOut: before.usdc, weightOut: 5_000_000n, fee: 30_000n }
    const quote = weightedPoolOut(p.seized, pool)
    expect(quote).toBeGreaterThan(p.draw)
    const sale = liquidation(p, [{ venue: { kind: 'comet', pool: comet() }, path: [weth(), usdc()], amountIn: 0n, minOut: (quote * 99n) / 100n }])
    const simulated = await simulateProfit(sale)
    const held = await usdcHeld()

    const sent = await executor.liquidate(sale, keeper)
    expect(sent.profit).toBe(simulated.profit)
    const after = await cometBalances()
    const paid = before.usdc - after.usdc
    expect(after.weth - before.weth).toBe(p.seized)
    expect(await tokenBalance(world.chain, weth(), comet())).toBe(after.weth)
    // Comet's fixed point against core's quote, which stays at most 0.001 % under the formula
    expect(paid).toBeGreaterThanOrEqual(quote)
    expect(paid - quote).toBeLessThanOrEqual(quote / 50_000n)
    // everything Comet paid went to the pool's repay, the vault and the keeper's fee
    const repaid = accountFor(held, await usdcHeld(), sent, paid, p.draw)
    expect(sent.profit).toBe(profitOf(paid, repaid))
    expect(await tokenBalance(world.chain, weth(), executor.contractId)).toBe(0n)
    // the approval Comet took for the pull is used up
    expect(await read<bigint>(world.chain, weth(), 'allowance', [addr(executor.contractId), addr(comet())])).toBe(0n)
    console.log(`[comet] lot ${p.seized} WETH -> ${paid} USDC (core quote ${quote}); vault profit ${sent.profit}`)
  })

  it('a WBTC lot routed through WETH on the primary router pays what the two pairs quote', async () => {
    const borrower = world.borrowers[1]!
    expect(borrower.collateralAsset.contract).toBe(wbtc())
    const p = await planAt(borrower.address, wbtc())
    const via = await pairOf(world.dex.primaryRouter, wbtc(), weth())
    const direct = await pairOf(world.dex.primaryRouter, weth(), usdc())
    const hop = constantProductOut(p.seized, via)
    const out = constantProductOut(hop, direct)
    expect(out).toBeGreaterThan(p.draw)
    const sale = liquidation(p, [{ venue: { kind: 'router', router: world.dex.primaryRouter }, path: [wbtc(), weth(), usdc()], amountIn: 0n, minOut: (out * 99n) / 100n }])
    const held = await usdcHeld()
    const sent = await executor.liquidate(sale, keeper)
    accountFor(held, await usdcHeld(), sent, out, p.draw)
    // the WETH went pair to pair inside the router
    const viaAfter = await pairOf(world.dex.primaryRouter, wbtc(), weth())
    const directAfter = await pairOf(world.dex.primaryRouter, weth(), usdc())
    expect([viaAfter.reserveIn - via.reserveIn, via.reserveOut - viaAfter.reserveOut]).toEqual([p.seized, hop])
    expect([directAfter.reserveIn - direct.reserveIn, direct.reserveOut - directAfter.reserveOut]).toEqual([hop, out])
    expect(await tokenBalance(world.chain, wbtc(), executor.contractId)).toBe(0n)
    expect(await tokenBalance(world.chain, weth(), executor.contractId)).toBe(0n)
  })
})
