/**
 * User liquidations as staged work for the execution engine.
 *
 * plan: open the auction at the percent the pool accepts (unless one is open), value it on the
 * curve with fresh rates and oracle prices and, when the keeper knows the venues it sells on,
 * at what they pay for the lot (core `bestPartialFill`). Under PROFIT_BASIS=oracle (the default)
 * the fill goes at the first ledger where the lot at oracle prices clears MIN_PROFIT and its sale
 * clears the slippage floor and covers the bid, for the largest percent that does; under
 * `executable` MIN_PROFIT is asked of what the pools pay too, and the percent with the most
 * profit is taken. The atomic path sells across every venue (saleRoutes.ts: both routers, a path
 * through another reserve, Comet pools), split between two where that pays more; the two-step
 * path sells on the primary router's pair. Without a router: the first ledger the whole auction
 * clears MIN_PROFIT at oracle prices. Nothing is drawn. What a partial fill leaves stays open on
 * the same curve; the next scan plans it as new work.
 *
 * A fill that failed is not sent again unchanged (failureBudget.ts): the next plan waits 1, 2,
 * 4, ... ledgers, takes at most half the percent after a failure on the price (and waits before
 * selling into that pool again, for any auction), and after three failures the auction waits for
 * its free-lot phase, after three more it is left to others.
 *
 * fire (when the target ledger is near): re-read the auction, pools and prices (gone or another
 * auction: lost; smaller after someone's partial fill: valued as it is now; the profitable
 * ledger moved later: re-plan), then
 * - two-step: draw the bid's USDC (it lands in the ledger before the target), fill + repay +
 *   withdraw collateral in one submit at the target, swap the seized collateral to USDC, return;
 * - atomic (an executor contract is the registered keeper): all of it in one transaction.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { addr, invoke, type Chain } from '../../../chain/index.js'
import { AUCTION_RAMP_BLOCKS } from '../../../core/index.js'
import type { ExecutionPlan, FireContext, FireOutcome, PlanOutcome, PlanProgress, Result, Task } from '../../sdk/index.js'
import { executionFee, makeResult, returnWithFee, type ExecutionFee, type FillSubmitOptions } from '../../sdk/index.js'
import { tokenBalance } from '../../clients/token.js'
import { planFill, profitabilityAt, type FillPlan } from './auctionPlan.js'
import type { BlendContext } from './context.js'
import { ErrAlreadyFilled, ErrBadTask } from './errors.js'
import { chooseLiquidationPercent } from './liquidationPercent.js'
import { failedTransaction, type FailureReason } from './failureBudget.js'
import { fillFeeInput, fillSubmitOptions, oracleXlmPrice } from './fillFee.js'
import type { Reserve } from './loadPool.js'
import type { PriceData } from './oracle.js'
import { encodeRequests } from './requests.js'
import type { FillOrder, UserPlanData } from './plans.js'
import { sellCollateral } from './sellCollateral.js'
import { AuctionType, type AuctionData } from './storage.js'
import type { ScanResult } from './scan.js'

import { fillOrder, fillValuation } from './fillValuation.js'
import type { BlendTaskData } from './taskData.js'

export type { FillOrder, UserPlanData } from './plans.js'
export { fillOrder, FREE_LOT_DRAW, saleHeadroomBps } from './fillValuation.js'

/** Blocks into a Blend v2 auction after which its bid costs nothing (the free-lot phase): the end of the core's curve. */
export const FREE_LOT_BLOCKS = 2 * AUCTION_RAMP_BLOCKS

/** One auction of one user: a new auction of the same user (another start block) is other work. */
export const auctionId = (user: string, auction: AuctionData): string => `${user}:${auction.block}`

/** A plan's id in the sale reservations, which the adapters of every pool of the keeper share. */
const saleId = (ctx: Pick<BlendContext, 'pool'>, id: string): string => `${ctx.pool}:${id}`

export function sameAuction(a: AuctionData, b: AuctionData): boolean {
  if (a.block !== b.block || a.bid.size !== b.bid.size || a.lot.size !== b.lot.size) return false
  for (const [k, v] of a.bid) if (b.bid.get(k) !== v) return false
  for (const [k, v] of a.lot) if (b.lot.get(k) !== v) return false
  return true
}

const nothing = (note: string): Result => makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, note })

/** A race lost before anything was drawn: the result carries the typed error, not only its words. */
export const lostRace = (err: ErrAlreadyFilled): Result =>
  makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, note: err.message, lost: true, error: err })

const scannedAuctions = new WeakMap<ScanResult, Map<string, AuctionData>>()

/** The user's auction as the scan read it (undefined when it read none). */
function scannedAuction(scan: ScanResult, user: string): AuctionData | undefined {
  let byUser = scannedAuctions.get(scan)
  if (byUser === undefined) {
    byUser = new Map()
    for (const b of scan.borrowers) if (b.auction !== undefined) byUser.set(b.user, b.auction)
    scannedAuctions.set(scan, byUser)
  }
  return byUser.get(user)
}

/** The engine-facing half of the Blend adapter for user liquidations. */
export function userLiquidations(ctx: BlendContext) {
  const { valueFill, fitBondLimit, venueKey } = fillValuation(ctx)
  async function plan(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>): Promise<PlanOutcome<UserPlanData>> {
    const reader = ctx.reader(chain)
    const user = task.data.user
    const scan = await ctx.scan(chain)
    if (!task.data.hasAuction) {
      const borrower = scan.borrowers.find((b) => b.user === user)
      if (borrower === undefined) throw new ErrBadTask(`unknown borrower ${user}`)
      const percent = task.data.percent ?? chooseLiquidationPercent(scan.valuation, borrower.positions)
      if (percent === undefined) return { skip: 'no valid liquidation percent' }
      const opened = await ctx.openUserAuction(chain, keypair, user, percent, scan)
      if (opened !== 'open') return { skip: opened }
    }
    const { reserves, prices, latest } = await ctx.freshValuation(chain, scan)
    // The scan read the open auctions; at the same ledger its entry is this ledger's, no read needed.
    const scanned = task.data.hasAuction && scan.snapshot.latestLedger === latest.sequence ? scannedAuction(scan, user) : undefined
    const auction = scanned ?? (await ctx.loadAuction(reader, AuctionType.UserLiquidation, user))
    if (auction === undefined) {
      const error = new ErrAlreadyFilled(user, 'no open auction')
      return { skip: error.message, error }
    }
    const path = ctx.executor === undefined ? 'two-step' : 'atomic'
    const id = auctionId(user, auction)
    ctx.origins.left(id, auction)
    const limits = ctx.failures.limits(id)
    if (limits.spent) return { skip: `left to others after ${limits.failures} failed fills` }
    const usdc = await ctx.usdc(chain)
    // Two-step: the draw needs a ledger of its own before the fill.
    const fromBlock = Math.max(latest.sequence + (path === 'two-step' ? 2 : 1), limits.notBefore, ctx.failures.poolsFrom(auction.lot.keys()))
    const inputs = { auction, reserves, prices: prices.prices, fromBlock, seen: latest.sequence, usdc, maxPercent: limits.maxPercent }
    // A plan made again (its inputs changed) that finds nothing no longer waits for a share.
    const none = (skip: string) => {
      ctx.sales.settled(saleId(ctx, id))
      return { skip }
    }
    const valued = await valueFill(chain, inputs)
    if (valued === null) return none('auction never clears MIN_PROFIT at what the DEX pays')
    // Two-step: a draw within the registry's bond limit (a smaller part of the auction, or none).
    const fitted = path === 'two-step' ? await fitBondLimit(chain, user, inputs, valued) : { fill: valued }
    if ('skip' in fitted) return none(fitted.skip)
    const fill = fitted.fill
    const order = fillOrder(user, fill, reserves, usdc)
    if ('refuse' in order) return none(order.refuse)
    const venues = await venueKey(chain, order.lotAssets, usdc, [...reserves.keys()], latest.sequence)
    // An auction's first fill shares the pools with this keeper's other first fills planned for
    // the same ledger or the two after it (SaleReservations.sharing).
    if (ctx.origins.left(id, auction) === 100) ctx.sales.intend(fill.block, saleId(ctx, id), order.lotAssets)
    return {
      key: `${AuctionType.UserLiquidation}:${user}`,
      targetLedger: fill.block,
      // A Blend auction can be deleted once 500 blocks old; past FREE_LOT_BLOCKS its bid is free.
      expiresAtLedger: auction.block + 500,
      capital: order.drew,
      priority: task.priority,
      ...(fill.proceeds === undefined ? {} : { expectedProfit: fill.proceeds - order.drew }),
      label: user,
      path,
      data: { kind: 'user_liquidation', user, auction, reserves, prices: prices.prices, fill, venues, seen: latest.sequence },
    }
  }

  /**
   * The first ledger from `from` on at which the auction clears MIN_PROFIT at the oracle, with
   * these prices and the plan's reserves. MIN_PROFIT less 0.01 %: a part of the auction can round
   * a little above the whole's ratio. The lot's oracle value over the bid's only rises with the
   * block (the lot ramps up, then the bid decays), so from a later ledger on the first is the
   * later of the two: worked out once per plan for its own prices.
   */
  const atOracle = (d: UserPlanData, prices: ReadonlyMap<string, PriceData>, from: number): number | null =>
    planFill({ auction: d.auction, reserves: d.reserves, prices, minProfit: ctx.minProfit - ctx.minProfit / 10_000n, fromBlock: from })?.block ?? null
  const oracleFirsts = new WeakMap<UserPlanData, number | null>()
  function oracleFirst(d: UserPlanData): number | null {
    let first = oracleFirsts.get(d)
    if (first === undefined) {
      first = atOracle(d, d.prices, d.seen + 1)
      oracleFirsts.set(d, first)
    }
    return first
  }

  /**
   * Whether a held plan must be made again (the engine does it) to stand where a plan made from
   * scratch now would. Its auction changed (another keeper's part fill, a new auction, none):
   * yes. Otherwise no plan can come before the first ledger the lot clears MIN_PROFIT at the
   * oracle at today's prices; while that is not before the held target, planning again could
   * only move it later, which `fire` finds and does anyway when the plan comes due. When it is
   * before: yes if a price of the auction's assets moved or, when the sale is what holds the
   * fill back, the venues its lot sells on did (read once a ledger). The reserves' accrual is
   * left out: it moves every ledger, by parts in a million, and `fire` values the fill with it
   * before anything is sent.
   */
  async function stale(chain: Chain, plan: ExecutionPlan<UserPlanData>): Promise<boolean> {
    const scan = await ctx.scan(chain)
    const d = plan.data
    const now = scannedAuction(scan, d.user)
    if (now === undefined || !sameAuction(now, d.auction)) return true
    const seen = scan.snapshot.latestLedger
    const prices = scan.prices.prices
    const moved = [...d.auction.bid.keys(), ...d.auction.lot.keys()].some((a) => prices.get(a)?.price !== d.prices.get(a)?.price)
    const first = moved ? atOracle(d, prices, seen + 1) : oracleFirst(d)
    // It no longer pays at any ledger: a plan made now finds nothing.
    if (first === null) return moved
    if (Math.max(first, seen + 1) >= plan.targetLedger) return false
    if (moved) return true
    if (d.venues === '' || seen === d.seen) return false
    const usdc = await ctx.usdc(chain)
    const lotAssets = Object.keys(d.fill.lot).filter((a) => a !== usdc)
    return (await venueKey(chain, lotAssets, usdc, [...d.reserves.keys()], seen)) !== d.venues
  }

  function progress(plan: ExecutionPlan<UserPlanData>, ledger: number): PlanProgress {
    const { auction, reserves, prices } = plan.data
    const block = ledger + 1
    const p = profitabilityAt({ auction, reserves, prices, block })
    const leftPercent = ctx.origins.left(auctionId(plan.data.user, auction), auction)
    return { offset: block - auction.block, ratio: p.ratio, minProfit: ctx.minProfit, leftPercent }
  }

  async function fire(chain: Chain, keypair: Keypair, plan: ExecutionPlan<UserPlanData>, fc: FireContext): Promise<FireOutcome> {
    const reader = ctx.reader(chain)
    const { user } = plan.data
    const usdc = await ctx.usdc(chain)

    // Re-check right before spending anything: the auction may be gone (or be another one), or
    // smaller after someone's partial fill, or prices and pools may have moved.
    const auction = await ctx.loadAuction(reader, AuctionType.UserLiquidation, user)
    if (auction === undefined || auction.block !== plan.data.auction.block) return lostRace(new ErrAlreadyFilled(user))
    const id = auctionId(user, auction)
    const scan = await ctx.scan(chain)
    const { reserves, prices, latest } = await ctx.freshValuation(chain, scan)
    const limits = ctx.failures.limits(id)
    if (limits.spent) return nothing(`left to others after ${limits.failures} failed fills`)
    // Two-step: the draw needs a ledger of its own before the fill.
    const earliest = Math.max(
      plan.targetLedger,
      latest.sequence + (plan.path === 'two-step' ? 2 : 1),
      limits.notBefore,
      ctx.failures.poolsFrom(auction.lot.keys()),
    )
    // Valued and reserved one fill at a time: a fill sent for the same ledger sees this one's sale.
    let bondSkip: string | undefined
    const lotAssets = [...auction.lot.keys()].filter((a) => a !== usdc)
    const fill = await ctx.sales.exclusive(async () => {
      const inputs = { auction, reserves, prices: prices.prices, fromBlock: earliest, seen: latest.sequence, usdc, maxPercent: limits.maxPercent }
      let f = await valueFill(chain, inputs)
      // The first fills of other auctions this keeper planned for this ledger or the two after it
      // sell into the same pools. Where the pools are deep enough that this fill still pays whole
      // after the n − 1 others each sold as much, it goes whole: fewer, larger transactions, so
      // more auctions fit in a ledger. Otherwise it takes its share (1/n of its largest part), so
      // each of them still lands in the first ledger it pays, rather than one whole and the rest
      // a ledger on. Later parts are not shared: in thin pools more, smaller sales would only meet
      // each other (and other keepers') there.
      const first = ctx.origins.left(id, auction) === 100
      const sharing = f !== null && f.block === earliest && first ? ctx.sales.sharing(earliest, saleId(ctx, id), lotAssets) : 1
      if (f !== null && sharing > 1) {
        const whole = f
        const deep = await ctx.sales.assuming(earliest, whole, sharing - 1, () => valueFill(chain, inputs))
        if (deep === null || deep.block !== earliest || deep.percent < whole.percent) {
          const share = await valueFill(chain, { ...inputs, maxPercent: Math.min(inputs.maxPercent, Math.ceil(whole.percent / sharing)) })
          if (share !== null && share.block === earliest) f = share
        }
      }
      if (f !== null && plan.path === 'two-step') {
        const fitted = await fitBondLimit(chain, user, inputs, f)
        if ('skip' in fitted) {
          bondSkip = fitted.skip
          return null
        }
        f = fitted.fill
      }
      if (f !== null && f.block === earliest && f.swaps !== undefined) ctx.sales.reserveFlows(earliest, f.swaps.flatMap((s) => s.flows))
      else if (f !== null && f.block === earliest && f.sales !== undefined) ctx.sales.reserve(earliest, f.sales)
      ctx.sales.settled(saleId(ctx, id))
      return f
    })
    if (bondSkip !== undefined) return nothing(bondSkip)
    if (fill === null) return nothing('auction no longer clears MIN_PROFIT at what the DEX pays')
    if (fill.block > earliest) {
      if (ctx.origins.left(id, auction) === 100) ctx.sales.intend(fill.block, saleId(ctx, id), lotAssets)
      return { replan: fill.block }
    }
    const order = fillOrder(user, fill, reserves, usdc)
    if ('refuse' in order) return nothing(order.refuse)

    // A landed fill clears the auction's failures; a failed one counts against its budget and
    // shapes the next plan. A race lost to another keeper's part-fill counts too: the rest of
    // the auction is contested, and sending at the same ledger as the winner again would fail
    // the same way.
    const book = (result: Result): Result => {
      const failed = result.failedTransaction?.reason as FailureReason | undefined
      const sold = Object.keys(fill.sales ?? {})
      if (result.success !== false) {
        ctx.failures.clear(id)
        for (const asset of sold) ctx.failures.sold(asset)
      } else if (failed !== undefined) {
        ctx.failures.record(id, latest.sequence, failed, fill.percent, auction.block + FREE_LOT_BLOCKS)
        if (failed === 'slippage') for (const asset of sold) ctx.failures.contested(asset, latest.sequence)
      }
      return result
    }
    // The fill bids by the keeper's fee strategy, from its expected profit.
    const valuation = { fill, drew: order.drew, reserves, prices: prices.prices, usdc, networkPassphrase: chain.networkPassphrase }
    const fee = await fillSubmitOptions(ctx.fillFee, { ...valuation, readXlmPrice: () => oracleXlmPrice(chain, scan.snapshot.config.oracle) })
    // A dry run books this as what the keeper would have filled; what follows is simulated, never sent.
    fc.wouldFill?.({ ledger: fill.block, drew: order.drew, percent: fill.percent, target: auctionId(user, auction), expectedProfit: fillFeeInput(valuation).expectedProfit })
    if (plan.path === 'atomic') {
      return book(await ctx.executor!.liquidateAtomic({ chain, keypair, plan, auction, fill, order, reserves, prices: prices.prices, fc, fee }))
    }
    return book(await twoStep(chain, keypair, plan, { auction, fill, order, reserves, prices: prices.prices, usdc, fee }, fc))
  }

  async function twoStep(
    chain: Chain,
    keypair: Keypair,
    plan: ExecutionPlan<UserPlanData>,
    f: {
      auction: AuctionData
      fill: FillPlan
      order: FillOrder
      reserves: ReadonlyMap<string, Reserve>
      prices: ReadonlyMap<string, PriceData>
      usdc: string
      fee: FillSubmitOptions
    },
    fc: FireContext,
  ): Promise<Result> {
    const reader = ctx.reader(chain)
    const me = keypair.publicKey()
    const { user } = plan.data
    const { auction, fill, order, reserves, prices, usdc } = f

    const usdcBefore = await tokenBalance(chain, usdc, me)
    const lotBefore = await Promise.all(order.lotAssets.map((a) => tokenBalance(chain, a, me)))
    await fc.vault.draw(order.drew)
    await fc.step('drawn')
    ctx.emit?.('draw', `drew ${order.drew} for ${user}; filling at ledger ${fill.block}`)

    let fillLedger: number
    let fillHash: string
    let fillFee: ExecutionFee
    try {
      await fc.waitUntilSendable(fill.block)
      const res = await invoke(chain, keypair, ctx.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(order.requests)], f.fee)
      fillHash = res.hash
      fillLedger = res.ledger
      fillFee = executionFee(res)
    } catch (err) {
      // Lost the race (auction gone or changed) or any other failure: the draw goes back as is.
      const now = await ctx.loadAuction(reader, AuctionType.UserLiquidation, user).catch(() => auction)
      const lost = now === undefined || !sameAuction(now, auction)
      await fc.vault.returnProceeds(order.drew, 0)
      await fc.step('returned')
      const error = lost ? new ErrAlreadyFilled(user) : err instanceof Error ? err : undefined
      const note = lost ? error!.message : `fill failed: ${err instanceof Error ? err.message : String(err)}`
      ctx.emit?.('fill_lost', note)
      return makeResult({
        drew: order.drew,
        proceeds: order.drew,
        responseTimeMs: 0,
        success: false,
        note,
        failedTransaction: failedTransaction(err, lost),
        ...(lost ? { lost } : {}),
        ...(error ? { error } : {}),
      })
    }
    await fc.step('filled', { ledger: fillLedger, txHash: fillHash })

    let held: string[] = []
    let toReturn = 0n
    let reward = 0n
    let returned = false
    const responseTimeMs = await fc.responseTimeMs(fillLedger)
    try {
      const seized = await Promise.all(order.lotAssets.map(async (a, i) => ({ asset: a, amount: (await tokenBalance(chain, a, me)) - lotBefore[i]! })))
      held = await sellCollateral({ chain, keypair, venues: ctx.venues(chain, keypair), usdc, seized, reserves, prices, slippageBps: ctx.slippageBps, emit: ctx.emit })
      await fc.step('swapped')
      const usdcAfter = await tokenBalance(chain, usdc, me)
      const measured = usdcAfter - usdcBefore
      ctx.onFill?.({ user, plannedLedger: plan.targetLedger, fillLedger, drew: order.drew, proceeds: measured, percent: fill.percent })
      // The keeper covers its own shortfall (collateral it holds, a loss on the swap) so the draw
      // closes: the vault gets its principal back and books no profit. Only when the keeper's own
      // USDC cannot cover it does part of the draw stay outstanding.
      toReturn = measured >= order.drew ? measured : minBig(order.drew, usdcAfter)
      // A closing return with gross profit pays the keeper its fee: the execution's reward.
      if (toReturn > 0n) reward = (await returnWithFee(fc.vault, toReturn, responseTimeMs)).fee
      returned = true
      await fc.step('returned')
    } finally {
      // Never leave the draw outstanding because a read failed after the fill: hand back what
      // USDC is on hand (capped at the draw); stale-draw recovery does the rest.
      if (!returned) {
        const onHand = await tokenBalance(chain, usdc, me).catch(() => 0n)
        const back = minBig(order.drew, onHand)
        if (back > 0n) await fc.vault.returnProceeds(back, responseTimeMs).catch(() => undefined)
      }
    }
    ctx.emit?.('fill', `filled ${user} at ledger ${fillLedger}: drew ${order.drew}, returned ${toReturn}`)
    return makeResult({
      drew: order.drew,
      proceeds: toReturn,
      responseTimeMs,
      success: true,
      txHash: fillHash,
      note: held.length > 0 ? `collateral held: ${held.join(', ')}` : `filled ${fill.percent} % at ledger ${fillLedger} (planned ${plan.targetLedger})`,
      fee: fillFee,
      reward,
    })
  }

  return { plan, fire, progress, stale }
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}
