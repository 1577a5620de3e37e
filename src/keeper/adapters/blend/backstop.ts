/**
 * The backstop's auctions as staged work: bad debt (the backstop's liabilities, for its LP
 * tokens) and interest (its share of pool interest, for LP tokens). `prepare` opens the auction if
 * none is open and values it; the returned `run` draws, fills at the planned ledger, converts to
 * USDC and returns, reporting each step to the engine.
 */
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, i128, invoke, u32, type Chain } from '../../../chain/index.js'
import { mulDiv, slippageFloor } from '../../../core/index.js'
import { tokenBalance } from '../../clients/token.js'
import type { ExecutionFee, FireContext, Result, Task } from '../../sdk/index.js'
import { executionFee, makeResult, returnWithFee } from '../../sdk/index.js'
import { planFill } from './auctionPlan.js'
import { backstopTokenOf, cometExitUsdc, cometJoinUsdc, exitablePercent, exitToUsdc, joinWithUsdc, readComet } from './backstopToken.js'
import type { BlendContext } from './context.js'
import { fillSubmitOptions, oracleXlmPrice } from './fillFee.js'
import { ErrAlreadyFilled } from './errors.js'
import { fillRequests, encodeRequests, repayAmount } from './requests.js'
import { AuctionType } from './storage.js'
import type { BlendTaskData } from './taskData.js'
import { minBig, sameAuction } from './userLiquidation.js'

/** A valued backstop auction, ready to fire at `targetLedger`. */
export interface PreparedBackstop {
  targetLedger: number
  expiresAtLedger: number
  capital: bigint
  run(chain: Chain, keypair: Keypair, fc: FireContext): Promise<Result>
}

/** A race lost before anything was drawn: the result carries the typed error, not only its words. */
const lostRace = (err: ErrAlreadyFilled): Result =>
  makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, note: err.message, lost: true, error: err })

/** Nothing to plan because the auction is gone: the reason and its typed error. */
function gone(backstop: string, details: string): { skip: string; error: ErrAlreadyFilled } {
  const error = new ErrAlreadyFilled(backstop, details)
  return { skip: error.message, error }
}

/** A fill that failed after drawing: lost (typed) or the error itself. */
function failed(lost: boolean, backstop: string, err: unknown, what: string): { note: string; lost?: boolean; error?: Error } {
  if (lost) {
    const error = new ErrAlreadyFilled(backstop)
    return { note: error.message, lost: true, error }
  }
  return { note: `${what} fill failed: ${err instanceof Error ? err.message : String(err)}`, ...(err instanceof Error ? { error: err } : {}) }
}

export function backstopAuctions(ctx: BlendContext) {
  let backstopToken: string | undefined

  async function base(chain: Chain, task: Task<BlendTaskData>) {
    const backstop = task.data.user
    const scan = await ctx.scan(chain)
    backstopToken ??= await backstopTokenOf(chain, backstop)
    return { reader: ctx.reader(chain), backstop, usdc: await ctx.usdc(chain), scan, comet: backstopToken }
  }

  /** Creates a backstop auction (100 %); a failure is fine when another keeper's auction is open. */
  async function open(chain: Chain, keypair: Keypair, type: AuctionType, backstop: string, bid: string[], lot: string[], label: string): Promise<void> {
    try {
      await invoke(chain, keypair, ctx.pool, 'new_auction', [u32(type), addr(backstop), xdr.ScVal.scvVec(bid.map(addr)), xdr.ScVal.scvVec(lot.map(addr)), u32(100)])
      ctx.emit?.('auction', `created ${label} auction for ${type === AuctionType.BadDebt ? bid.length : lot.length} asset(s)`)
    } catch (err) {
      if ((await ctx.loadAuction(ctx.reader(chain), type, backstop)) === undefined) throw err
    }
  }

  /** Gone or changed since it was valued: another keeper filled it. */
  async function lostSince(chain: Chain, type: AuctionType, backstop: string, valued: Parameters<typeof sameAuction>[0]): Promise<boolean> {
    const now = await ctx.loadAuction(ctx.reader(chain), type, backstop).catch(() => valued)
    return now === undefined || !sameAuction(now, valued)
  }

  /**
   * Bad debt: fill the largest percent of the auction whose lot of backstop LP tokens Comet takes
   * back in one single-sided exit, valued at what that exit pays, at the first ledger that clears
   * MIN_PROFIT (fill + repay in one submit); exit the LP tokens to USDC and return the proceeds.
   * LP tokens that cannot be exited within the slippage floor are held.
   */
  async function prepareBadDebt(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>): Promise<PreparedBackstop | { skip: string; error?: Error }> {
    const { reader, backstop, usdc, scan, comet } = await base(chain, task)
    if (!task.data.hasAuction) {
      const list = scan.snapshot.reserveList
      const bid = [...scan.backstopPositions.liabilities].filter(([, d]) => d > 0n).map(([i]) => list[i]!)
      if (bid.length === 0) return { skip: 'no bad debt' }
      await open(chain, keypair, AuctionType.BadDebt, backstop, bid, [comet], 'bad-debt')
    }
    const auction = await ctx.loadAuction(reader, AuctionType.BadDebt, backstop)
    if (auction === undefined) return gone(backstop, 'no open bad-debt auction')
    const [{ reserves, prices, latest }, cometState] = await Promise.all([ctx.freshValuation(chain, scan), readComet(chain, comet, usdc)])
    const lpTotal = auction.lot.get(comet) ?? 0n
    // The part of the auction whose LP tokens Comet can take back in one exit (what the part
    // fill leaves is planned again); valued at the average price of exiting all of that part:
    // a smaller (earlier) lot exits better.
    const percent = exitablePercent(cometState, lpTotal)
    const lpPart = (lpTotal * BigInt(percent ?? 0)) / 100n
    const exitPart = cometExitUsdc(cometState, lpPart)
    const usdcPrice = prices.prices.get(usdc)?.price
    if (percent === null || exitPart === 0n || usdcPrice === undefined) return { skip: 'the backstop-token lot cannot be sold for USDC' }
    const lpPrice = mulDiv(exitPart, usdcPrice, lpPart, 'floor')
    const plan = planFill({
      auction,
      reserves,
      prices: prices.prices,
      minProfit: ctx.minProfit,
      fromBlock: latest.sequence + 2,
      type: AuctionType.BadDebt,
      percent,
      extraLotQuotes: { [comet]: { price: lpPrice, decimals: 7 } },
    })
    if (plan === null) return { skip: 'bad-debt auction never clears MIN_PROFIT' }
    const bidAssets = Object.keys(plan.bid)
    if (bidAssets.some((a) => a !== usdc)) return { skip: 'bid is not payable in USDC' }
    const dRates = Object.fromEntries([...reserves].map(([a, r]) => [a, r.data.d_rate]))
    const requests = fillRequests({ auctionType: AuctionType.BadDebt, user: backstop, percent, bid: plan.bid, lot: plan.lot, dRates, bRates: {} })
    const drew = bidAssets.reduce((sum, a) => sum + repayAmount(plan.bid[a]!, dRates[a]!), 0n)

    const run = async (chain: Chain, keypair: Keypair, fc: FireContext): Promise<Result> => {
      const me = keypair.publicKey()
      if (await lostSince(chain, AuctionType.BadDebt, backstop, auction)) return lostRace(new ErrAlreadyFilled(backstop))
      const usdcBefore = await tokenBalance(chain, usdc, me)
      const lpBefore = await tokenBalance(chain, comet, me)
      fc.wouldFill?.({ ledger: plan.block, drew, expectedProfit: undefined, percent, target: `bad debt of ${backstop}:${auction.block}` })
      await fc.vault.draw(drew)
      await fc.step('drawn')
      let fillLedger: number
      let fillHash: string
      let fillFee: ExecutionFee
      try {
        await fc.waitUntilSendable(plan.block)
        const fee = await fillSubmitOptions(ctx.fillFee, { fill: plan, drew, reserves, prices: prices.prices, usdc, networkPassphrase: chain.networkPassphrase, readXlmPrice: () => oracleXlmPrice(chain, scan.snapshot.config.oracle) })
        const res = await invoke(chain, keypair, ctx.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(requests)], fee)
        fillLedger = res.ledger
        fillHash = res.hash
        fillFee = executionFee(res)
      } catch (err) {
        const lost = await lostSince(chain, AuctionType.BadDebt, backstop, auction)
        await fc.vault.returnProceeds(drew, 0)
        await fc.step('returned')
        return makeResult({ drew, proceeds: drew, responseTimeMs: 0, success: false, ...failed(lost, backstop, err, 'bad-debt') })
      }
      await fc.step('filled', { ledger: fillLedger, txHash: fillHash })
      const responseTimeMs = await fc.responseTimeMs(fillLedger)
      let held = false
      const lpGot = (await tokenBalance(chain, comet, me)) - lpBefore
      if (lpGot > 0n) {
        const expected = cometExitUsdc(await readComet(chain, comet, usdc), lpGot)
        try {
          if (expected === 0n) throw new Error('exit refused')
          await exitToUsdc(chain, keypair, comet, usdc, lpGot, slippageFloor(expected, ctx.slippageBps))
        } catch (err) {
          held = true
          ctx.emit?.('swap_failed', `backstop-token exit failed: ${err instanceof Error ? err.message : String(err)}`)
        }
      }
      await fc.step('swapped')
      const usdcAfter = await tokenBalance(chain, usdc, me)
      const measured = usdcAfter - usdcBefore
      ctx.onFill?.({ user: backstop, plannedLedger: plan.block, fillLedger, drew, proceeds: measured })
      const toReturn = measured >= drew ? measured : minBig(drew, usdcAfter)
      const reward = toReturn > 0n ? (await returnWithFee(fc.vault, toReturn, responseTimeMs)).fee : 0n
      await fc.step('returned')
      ctx.emit?.('fill', `filled bad-debt auction at ledger ${fillLedger}: drew ${drew}, returned ${toReturn}`)
      return makeResult({
        drew,
        proceeds: toReturn,
        responseTimeMs,
        success: true,
        txHash: fillHash,
        note: held ? 'backstop tokens held' : `bad debt: ${percent} % filled at ledger ${fillLedger} (planned ${plan.block})`,
        fee: fillFee,
        reward,
      })
    }
    return { targetLedger: plan.block, expiresAtLedger: auction.block + 500, capital: drew, run }
  }

  /**
   * Interest: the backstop's share of pool interest (its `backstop_credit`, >= 200 USDC of value
   * for the pool to auction it) for backstop LP tokens. The bid is valued at what minting those LP
   * tokens with a single-sided USDC join costs; at the first profitable ledger the keeper mints
   * exactly the scaled bid, fills, and returns the USDC lot.
   */
  async function prepareInterest(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>): Promise<PreparedBackstop | { skip: string; error?: Error }> {
    const { reader, backstop, usdc, scan, comet } = await base(chain, task)
    if (!task.data.hasAuction) {
      const lot = [...scan.valuation.reserves.values()].filter((r) => r.data.backstop_credit > 0n).map((r) => r.asset)
      if (lot.length === 0) return { skip: 'no backstop interest' }
      await open(chain, keypair, AuctionType.Interest, backstop, [comet], lot, 'interest')
    }
    const auction = await ctx.loadAuction(reader, AuctionType.Interest, backstop)
    if (auction === undefined) return gone(backstop, 'no open interest auction')
    if ([...auction.lot.keys()].some((a) => a !== usdc)) return { skip: 'interest lot holds assets other than USDC' }
    const [{ reserves, prices, latest }, cometState] = await Promise.all([ctx.freshValuation(chain, scan), readComet(chain, comet, usdc)])
    const lpBid = auction.bid.get(comet) ?? 0n
    const joinFull = cometJoinUsdc(cometState, lpBid)
    const usdcPrice = prices.prices.get(usdc)?.price
    if (joinFull === 0n || usdcPrice === undefined) return { skip: 'the backstop-token bid cannot be minted with USDC' }
    // LP valued at the average cost of minting the whole bid: later (smaller) bids cost less.
    const lpPrice = mulDiv(joinFull, usdcPrice, lpBid, 'ceil')
    const plan = planFill({
      auction,
      reserves,
      prices: prices.prices,
      minProfit: ctx.minProfit,
      fromBlock: latest.sequence + 2,
      type: AuctionType.Interest,
      extraBidQuotes: { [comet]: { price: lpPrice, decimals: 7 } },
    })
    if (plan === null) return { skip: 'interest auction never clears MIN_PROFIT' }
    const lpNeeded = plan.bid[comet] ?? 0n
    const drew = cometJoinUsdc(cometState, lpNeeded)
    if (lpNeeded > 0n && drew === 0n) return { skip: 'the backstop-token bid cannot be minted with USDC' }

    const run = async (chain: Chain, keypair: Keypair, fc: FireContext): Promise<Result> => {
      const me = keypair.publicKey()
      if (await lostSince(chain, AuctionType.Interest, backstop, auction)) return lostRace(new ErrAlreadyFilled(backstop))
      const usdcBefore = await tokenBalance(chain, usdc, me)
      const lpBefore = await tokenBalance(chain, comet, me)
      fc.wouldFill?.({ ledger: plan.block, drew, expectedProfit: undefined, target: `interest of ${backstop}:${auction.block}` })
      if (drew > 0n) {
        await fc.vault.draw(drew)
        await fc.step('drawn')
      }
      let fillLedger: number
      let fillHash: string
      let fillFee: ExecutionFee
      try {
        if (lpNeeded > 0n) {
          await joinWithUsdc(chain, keypair, comet, usdc, lpNeeded, drew)
          // The fill donates the bid to the backstop with transfer_from: allow it that much.
          const now = (await ctx.reader(chain).getLatestLedger()).sequence
          await invoke(chain, keypair, comet, 'approve', [addr(me), addr(backstop), i128(lpNeeded), u32(Math.max(now, plan.block) + 1_000)])
        }
        await fc.waitUntilSendable(plan.block)
        const requests = fillRequests({ auctionType: AuctionType.Interest, user: backstop, percent: 100, bid: {}, lot: {}, dRates: {}, bRates: {} })
        const fee = await fillSubmitOptions(ctx.fillFee, { fill: plan, drew, reserves, prices: prices.prices, usdc, networkPassphrase: chain.networkPassphrase, readXlmPrice: () => oracleXlmPrice(chain, scan.snapshot.config.oracle) })
        const res = await invoke(chain, keypair, ctx.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(requests)], fee)
        fillLedger = res.ledger
        fillHash = res.hash
        fillFee = executionFee(res)
      } catch (err) {
        // Lost (or failed): turn any minted LP back into USDC, return the draw (covering the
        // difference from the keeper's own USDC).
        const lp = (await tokenBalance(chain, comet, me).catch(() => lpBefore)) - lpBefore
        if (lp > 0n) await exitToUsdc(chain, keypair, comet, usdc, lp, 0n).catch(() => undefined)
        const back = minBig(drew, await tokenBalance(chain, usdc, me))
        if (back > 0n) await fc.vault.returnProceeds(back, 0)
        if (drew > 0n) await fc.step('returned')
        const lost = await lostSince(chain, AuctionType.Interest, backstop, auction)
        return makeResult({ drew, proceeds: back, responseTimeMs: 0, success: false, ...failed(lost, backstop, err, 'interest') })
      }
      await fc.step('filled', { ledger: fillLedger, txHash: fillHash })
      await fc.step('swapped')
      const responseTimeMs = await fc.responseTimeMs(fillLedger)
      const usdcAfter = await tokenBalance(chain, usdc, me)
      const measured = usdcAfter - usdcBefore
      ctx.onFill?.({ user: backstop, plannedLedger: plan.block, fillLedger, drew, proceeds: measured })
      const toReturn = measured >= drew ? measured : minBig(drew, usdcAfter)
      let reward = 0n
      if (toReturn > 0n && drew > 0n) {
        reward = (await returnWithFee(fc.vault, toReturn, responseTimeMs)).fee
        await fc.step('returned')
      }
      ctx.emit?.('fill', `filled interest auction at ledger ${fillLedger}: drew ${drew}, returned ${toReturn}`)
      return makeResult({
        drew,
        proceeds: drew > 0n ? toReturn : 0n,
        responseTimeMs,
        success: true,
        txHash: fillHash,
        note: `interest auction filled at ledger ${fillLedger} (planned ${plan.block})`,
        fee: fillFee,
        reward,
      })
    }
    return { targetLedger: plan.block, expiresAtLedger: auction.block + 500, capital: drew, run }
  }

  return { prepareBadDebt, prepareInterest }
}
