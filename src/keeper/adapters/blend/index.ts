/**
 * Blend v2 lending-pool adapter.
 *
 * getTasks: one {@link PoolScanner} scan (events, batched ledger reads, prices), one task per
 * borrower with HF < 1 (or with an open auction), priority from the HF.
 *
 * execute (user liquidation):
 *  1. create the auction at the percent the pool accepts (50 when valid), unless one is open;
 *  2. value it on the curve with oracle prices and find the first ledger where
 *     lot value / bid cost >= MIN_PROFIT (none: no draw, nothing done);
 *  3. draw the bid's USDC from the vault, wait for that ledger, submit fill + repay + withdraw
 *     collateral in one call;
 *  4. a lost race (the auction is gone or changed): {@link ErrAlreadyFilled}, the unspent draw
 *     goes back unchanged and nothing is booked;
 *  5. swap seized non-USDC collateral to USDC (primary, fallback); without a DEX client (or when
 *     the swap fails) the collateral is held, not booked;
 *  6. return_proceeds with the measured USDC: profit = proceeds - drew.
 */
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, ContractError, i128, invoke, simulateRead, u32, type Chain } from '../../../chain/index.js'
import { mulDiv, slippageFloor } from '../../../core/index.js'
import { tokenBalance } from '../../clients/token.js'
import { routerVenue } from '../../dex/routerVenue.js'
import { swapToUsdc, type Venue } from '../../dex/swapToUsdc.js'
import type { AdapterContext, AdapterFactory, Position, ProtocolAdapter, Result, Task, VaultClient } from '../../sdk/index.js'
import { makeResult, taskPriority } from '../../sdk/index.js'
import { minProfitScaled, planFill, type FillPlan } from './auctionPlan.js'
import { ErrAlreadyFilled, ErrBadTask } from './errors.js'
import { chooseLiquidationPercent } from './liquidationPercent.js'
import { loadAuction, loadPool } from './loadPool.js'
import { loadOraclePrices } from './oracle.js'
import { fillRequests, encodeRequests, repayAmount } from './requests.js'
import { PoolScanner, valuationReserves, type PoolReader, type ScanResult } from './scan.js'
import { backstopTokenOf, cometExitUsdc, cometJoinUsdc, exitToUsdc, joinWithUsdc, readComet } from './backstopToken.js'
import { positionData } from './positionData.js'
import { AuctionType, scAddress, type AuctionData } from './storage.js'

export { PoolScanner, type PoolReader, type ScanResult } from './scan.js'
export { ErrAlreadyFilled, ErrNoValidPercent, ErrUnprofitable, ErrNoPrice, ErrDecode, ErrMissingEntry, ErrBadTask, BlendAdapterError } from './errors.js'

/** Blend pool error codes the adapter reacts to. */
export const PoolErrorCode = {
  InvalidLiquidation: 1211,
  AuctionInProgress: 1212,
  InvalidLiqTooLarge: 1213,
  InvalidLiqTooSmall: 1214,
} as const

export interface BlendTaskData {
  /** A user liquidation, or the backstop's bad debt or interest auction (user = the backstop). */
  kind: 'user_liquidation' | 'bad_debt' | 'interest'
  user: string
  /** Percent to create the auction at; undefined when an auction is already open. */
  percent: number | undefined
  hasAuction: boolean
  /** Estimated USDC to draw (the bid's debt), 7 decimals. */
  estCapital: bigint
}

export interface LendingPoolAdapterParameters {
  pool: string
  /** USDC token; read from the vault (`get_usdc`) when not given. */
  usdc?: string
  vaultContract?: string
  minProfit: number
  slippageBps: number
  primaryDexRouter?: string
  fallbackDexRouter?: string
  /** Full RPC client for ledger-entry and event reads (default: the chain's own server). */
  reader?: PoolReader
  emit?: AdapterContext['emit']
  /** getLatestLedger polling interval while waiting for the profitable ledger (ms). */
  pollMs?: number
  /** Give up waiting after this many ledgers past the planned one have not appeared (ms bound). */
  maxWaitMs?: number
  eventsPageLimit?: number
  /**
   * Local networks only: close ledgers at once until the latest is at least `toLedger` (e.g. with
   * the sandbox's closeLedgers) instead of waiting for them while an auction ramps up. Must be
   * idempotent: several keepers may ask for the same ledger.
   */
  fastForward?: (toLedger: number) => Promise<unknown>
  /** Called with the planned and the confirmed ledger of each fill (benchmarks, logs). */
  onFill?: (info: { user: string; plannedLedger: number; fillLedger: number; drew: bigint; proceeds: bigint }) => void
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function readerOf(chain: Chain, explicit: PoolReader | undefined): PoolReader {
  if (explicit !== undefined) return explicit
  const s = chain.server as Partial<PoolReader>
  if (typeof s.getLedgerEntries === 'function' && typeof s.getEvents === 'function' && typeof s.getHealth === 'function') {
    return s as PoolReader
  }
  throw new Error('the chain client cannot read ledger entries and events; pass a full rpc.Server as `reader`')
}

export interface LendingPoolAdapter extends ProtocolAdapter<BlendTaskData> {
  /** The last scan (for the dashboard and the benchmark). */
  lastScan(): ScanResult | undefined
  /** The scanner (borrower set, discovery state). */
  scanner: PoolScanner
}

export function lendingPoolAdapter(p: LendingPoolAdapterParameters): LendingPoolAdapter {
  const scanner = new PoolScanner(p.pool, p.eventsPageLimit === undefined ? {} : { eventsPageLimit: p.eventsPageLimit })
  const minProfit = minProfitScaled(p.minProfit)
  let last: ScanResult | undefined
  let usdc = p.usdc

  async function usdcOf(chain: Chain): Promise<string> {
    if (usdc !== undefined) return usdc
    if (p.vaultContract === undefined) throw new Error('USDC unknown: set USDC_CONTRACT or the vault contract')
    usdc = scAddress(await simulateRead(chain, p.vaultContract, 'get_usdc'), 'get_usdc')
    return usdc
  }

  function venues(chain: Chain, keypair: Keypair): Venue[] {
    const out: Venue[] = []
    if (p.primaryDexRouter) out.push(routerVenue({ chain, keypair, router: p.primaryDexRouter, name: 'primary' }))
    if (p.fallbackDexRouter) out.push(routerVenue({ chain, keypair, router: p.fallbackDexRouter, name: 'fallback' }))
    return out
  }

  async function createAuction(chain: Chain, keypair: Keypair, user: string, percent: number, scan: ScanResult): Promise<void> {
    const b = scan.borrowers.find((x) => x.user === user)
    if (b === undefined) throw new ErrBadTask(`unknown borrower ${user}`)
    const list = scan.snapshot.reserveList
    const bid = [...b.positions.liabilities.keys()].map((i) => list[i]!)
    const lot = [...b.positions.collateral.keys()].map((i) => list[i]!)
    let pct = percent
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await invoke(chain, keypair, p.pool, 'new_auction', [
          u32(AuctionType.UserLiquidation),
          addr(user),
          xdr.ScVal.scvVec(bid.map(addr)),
          xdr.ScVal.scvVec(lot.map(addr)),
          u32(pct),
        ])
        p.emit?.('auction', `created liquidation auction for ${user} at ${pct} %`)
        return
      } catch (err) {
        // Another keeper may have created it first (1212 in simulation, or a failed transaction
        // when both landed in one ledger): fill that one.
        if (err instanceof ContractError && err.code === PoolErrorCode.AuctionInProgress) return
        if ((await loadAuction(readerOf(chain, p.reader), p.pool, AuctionType.UserLiquidation, user)) !== undefined) return
        if (!(err instanceof ContractError)) throw err
        // Interest moved the user between planning and creation: nudge the percent.
        if (err.code === PoolErrorCode.InvalidLiqTooLarge && pct > 1) pct -= 1
        else if (err.code === PoolErrorCode.InvalidLiqTooSmall && pct < 100) pct += 1
        else throw err
      }
    }
  }

  async function waitForLedger(reader: PoolReader, target: number): Promise<number> {
    const deadline = Date.now() + (p.maxWaitMs ?? 30 * 60_000)
    let latest = (await reader.getLatestLedger()).sequence
    // A local network can skip ahead to the ledger before the previous one; the last ledger is
    // always waited for in real time so the fill goes out right before the profitable one.
    if (p.fastForward !== undefined && latest < target - 2) {
      await p.fastForward(target - 2)
      latest = (await reader.getLatestLedger()).sequence
    }
    for (;;) {
      // The next transaction lands in latest + 1.
      if (latest + 1 >= target) return latest
      if (Date.now() > deadline) throw new Error(`ledger ${target} did not come in time (latest ${latest})`)
      await sleep(p.pollMs ?? 100)
      latest = (await reader.getLatestLedger()).sequence
    }
  }

  async function executeUser(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>, vault: VaultClient): Promise<Result> {
    const started = Date.now()
    const reader = readerOf(chain, p.reader)
    const me = keypair.publicKey()
    const user = task.data.user
    const usdcToken = await usdcOf(chain)
    const scan = last ?? (await scanner.scan(reader, chain))

    if (!task.data.hasAuction) {
      const percent = task.data.percent ?? chooseLiquidationPercent(scan.valuation, scan.borrowers.find((b) => b.user === user)!.positions)
      if (percent === undefined) return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note: 'no valid liquidation percent' })
      try {
        await createAuction(chain, keypair, user, percent, scan)
      } catch (err) {
        if (err instanceof ContractError && err.code === PoolErrorCode.InvalidLiquidation) {
          return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note: 'user is no longer liquidatable' })
        }
        throw err
      }
    }

    const auction = await loadAuction(reader, p.pool, AuctionType.UserLiquidation, user)
    if (auction === undefined) {
      // Filled (or deleted) before this keeper drew anything: nothing to return, nothing booked.
      return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note: new ErrAlreadyFilled(user, 'no open auction').message })
    }
    // Fresh rates and prices for the valuation.
    const [fresh, prices, latest] = await Promise.all([
      loadPool(reader, p.pool, [], { reserveList: scan.snapshot.reserveList }),
      loadOraclePrices(chain, scan.snapshot.config.oracle, scan.snapshot.reserveList),
      reader.getLatestLedger(),
    ])
    const reserves = valuationReserves(fresh.reserves, fresh.config.bstop_rate, BigInt(Math.floor(Date.now() / 1000)))
    const plan = planFill({ auction, reserves, prices: prices.prices, minProfit, fromBlock: latest.sequence + 1 })
    if (plan === null) return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note: 'auction never clears MIN_PROFIT' })

    const bidAssets = Object.keys(plan.bid)
    if (bidAssets.some((a) => a !== usdcToken)) {
      return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note: 'bid is not payable in USDC' })
    }
    const dRates = Object.fromEntries([...reserves].map(([a, r]) => [a, r.data.d_rate]))
    const bRates = Object.fromEntries([...reserves].map(([a, r]) => [a, r.data.b_rate]))
    const requests = fillRequests({ auctionType: AuctionType.UserLiquidation, user, percent: 100, bid: plan.bid, lot: plan.lot, dRates, bRates })
    const drew = bidAssets.reduce((s, a) => s + repayAmount(plan.bid[a]!, dRates[a]!), 0n)

    const usdcBefore = await tokenBalance(chain, usdcToken, me)
    const lotAssets = Object.keys(plan.lot).filter((a) => a !== usdcToken)
    const lotBefore = await Promise.all(lotAssets.map((a) => tokenBalance(chain, a, me)))

    await vault.draw(drew)
    p.emit?.('draw', `drew ${drew} for ${user}; filling at ledger ${plan.block}`)
    let fillHash: string | undefined
    let fillLedger: number | undefined
    try {
      await waitForLedger(reader, plan.block)
      const res = await invoke(chain, keypair, p.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(requests)])
      fillHash = res.hash
      fillLedger = res.ledger
    } catch (err) {
      // Lost the race (auction gone or changed) or any other failure: the draw goes back as is.
      const now = await loadAuction(reader, p.pool, AuctionType.UserLiquidation, user).catch(() => auction)
      const lost = now === undefined || !sameAuction(now, auction)
      await vault.returnProceeds(drew, Date.now() - started)
      const note = lost ? new ErrAlreadyFilled(user).message : `fill failed: ${err instanceof Error ? err.message : String(err)}`
      p.emit?.('fill_lost', note)
      return makeResult({ drew, proceeds: drew, responseTimeMs: Date.now() - started, success: false, note })
    }

    let returned = false
    let toReturn = 0n
    let held: string[] = []
    try {
      // Seized collateral: swap what is not USDC (held when there is no DEX or the swap fails).
      held = []
      const vs = venues(chain, keypair)
      for (const [i, asset] of lotAssets.entries()) {
        const got = (await tokenBalance(chain, asset, me)) - lotBefore[i]!
        if (got <= 0n) continue
        if (vs.length === 0) {
          held.push(asset)
          continue
        }
        const refValue = usdcValue(got, asset, usdcToken, reserves, prices.prices)
        try {
          await swapToUsdc({
            venues: vs,
            tokenIn: asset,
            usdc: usdcToken,
            amountIn: got,
            refValue,
            slippageBps: p.slippageBps,
            usdcBalance: () => tokenBalance(chain, usdcToken, me),
          })
        } catch (err) {
          held.push(asset)
          p.emit?.('swap_failed', `swap of ${asset} failed: ${err instanceof Error ? err.message : String(err)}`)
        }
      }
      const usdcAfter = await tokenBalance(chain, usdcToken, me)
      const measured = usdcAfter - usdcBefore
      if (fillLedger !== undefined) p.onFill?.({ user, plannedLedger: plan.block, fillLedger, drew, proceeds: measured })
      // The keeper covers its own shortfall (collateral it holds, a loss on the swap) so the draw
      // closes: the vault gets its principal back and books no profit. Only when the keeper's own
      // USDC cannot cover it does part of the draw stay outstanding.
      toReturn = measured >= drew ? measured : minBig(drew, usdcAfter)
      const responseTimeMs = Date.now() - started
      if (toReturn > 0n) await vault.returnProceeds(toReturn, responseTimeMs)
      returned = true
    } finally {
      // Never leave the draw outstanding because a read failed after the fill: hand back what
      // USDC is on hand (capped at the draw); the next cycle's stale-draw recovery does the rest.
      if (!returned) {
        const onHand = await tokenBalance(chain, usdcToken, me).catch(() => 0n)
        const back = minBig(drew, onHand)
        if (back > 0n) await vault.returnProceeds(back, Date.now() - started).catch(() => undefined)
      }
    }
    p.emit?.('fill', `filled ${user} at ledger ${fillLedger}: drew ${drew}, returned ${toReturn}`)
    return makeResult({
      drew,
      proceeds: toReturn,
      responseTimeMs: Date.now() - started,
      success: true,
      ...(fillHash === undefined ? {} : { txHash: fillHash }),
      note: held.length > 0 ? `collateral held: ${held.join(', ')}` : `filled at ledger ${fillLedger} (planned ${plan.block})`,
    })
  }

  let backstopToken: string | undefined

  /** What both backstop auctions (bad debt, interest) start from. */
  async function backstopContext(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>) {
    const started = Date.now()
    const reader = readerOf(chain, p.reader)
    const backstop = task.data.user
    const usdcToken = await usdcOf(chain)
    const scan = last ?? (await scanner.scan(reader, chain))
    backstopToken ??= await backstopTokenOf(chain, backstop)
    const nothing = (note: string) => makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note })
    return { started, reader, me: keypair.publicKey(), backstop, usdcToken, scan, comet: backstopToken, nothing }
  }

  /** Creates a backstop auction (100 %); a failure is fine when another keeper's auction is open. */
  async function openBackstopAuction(
    chain: Chain,
    keypair: Keypair,
    type: AuctionType,
    backstop: string,
    bid: string[],
    lot: string[],
    label: string,
  ): Promise<void> {
    try {
      await invoke(chain, keypair, p.pool, 'new_auction', [
        u32(type),
        addr(backstop),
        xdr.ScVal.scvVec(bid.map(addr)),
        xdr.ScVal.scvVec(lot.map(addr)),
        u32(100),
      ])
      p.emit?.('auction', `created ${label} auction for ${type === AuctionType.BadDebt ? bid.length : lot.length} asset(s)`)
    } catch (err) {
      if ((await loadAuction(readerOf(chain, p.reader), p.pool, type, backstop)) === undefined) throw err
    }
  }

  /** Reserves accrued to now, oracle prices, the latest ledger and the Comet pool, read together. */
  async function freshValuation(chain: Chain, reader: ReturnType<typeof readerOf>, scan: NonNullable<typeof last>, comet: string, usdcToken: string) {
    const [fresh, prices, latest, cometState] = await Promise.all([
      loadPool(reader, p.pool, [], { reserveList: scan.snapshot.reserveList }),
      loadOraclePrices(chain, scan.snapshot.config.oracle, scan.snapshot.reserveList),
      reader.getLatestLedger(),
      readComet(chain, comet, usdcToken),
    ])
    const reserves = valuationReserves(fresh.reserves, fresh.config.bstop_rate, BigInt(Math.floor(Date.now() / 1000)))
    return { reserves, prices, latest, cometState }
  }

  /**
   * Bad debt (the backstop's liabilities): create the bad-debt auction if none is open, value its
   * lot of backstop LP tokens at what a single-sided exit to USDC pays, fill at the first ledger
   * that clears MIN_PROFIT (fill + repay in one submit), exit the LP tokens to USDC and return the
   * proceeds. LP tokens that cannot be exited within the slippage floor are held.
   */
  async function executeBadDebt(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>, vault: VaultClient): Promise<Result> {
    const { started, reader, me, backstop, usdcToken, scan, comet, nothing } = await backstopContext(chain, keypair, task)

    if (!task.data.hasAuction) {
      const list = scan.snapshot.reserveList
      const bid = [...scan.backstopPositions.liabilities].filter(([, d]) => d > 0n).map(([i]) => list[i]!)
      if (bid.length === 0) return nothing('no bad debt')
      await openBackstopAuction(chain, keypair, AuctionType.BadDebt, backstop, bid, [comet], 'bad-debt')
    }
    const auction = await loadAuction(reader, p.pool, AuctionType.BadDebt, backstop)
    if (auction === undefined) return nothing(new ErrAlreadyFilled(backstop, 'no open bad-debt auction').message)
    const { reserves, prices, latest, cometState } = await freshValuation(chain, reader, scan, comet, usdcToken)
    const lpTotal = auction.lot.get(comet) ?? 0n
    const exitFull = cometExitUsdc(cometState, lpTotal)
    const usdcPrice = prices.prices.get(usdcToken)?.price
    if (exitFull === 0n || usdcPrice === undefined) return nothing('the backstop-token lot cannot be sold for USDC')
    // LP valued at the average price of exiting the whole lot: smaller (earlier) lots exit better.
    const lpPrice = mulDiv(exitFull, usdcPrice, lpTotal, 'floor')
    const plan = planFill({
      auction,
      reserves,
      prices: prices.prices,
      minProfit,
      fromBlock: latest.sequence + 1,
      type: AuctionType.BadDebt,
      extraLotQuotes: { [comet]: { price: lpPrice, decimals: 7 } },
    })
    if (plan === null) return nothing('bad-debt auction never clears MIN_PROFIT')
    const bidAssets = Object.keys(plan.bid)
    if (bidAssets.some((a) => a !== usdcToken)) return nothing('bid is not payable in USDC')
    const dRates = Object.fromEntries([...reserves].map(([a, r]) => [a, r.data.d_rate]))
    const requests = fillRequests({ auctionType: AuctionType.BadDebt, user: backstop, percent: 100, bid: plan.bid, lot: plan.lot, dRates, bRates: {} })
    const drew = bidAssets.reduce((sum, a) => sum + repayAmount(plan.bid[a]!, dRates[a]!), 0n)
    const usdcBefore = await tokenBalance(chain, usdcToken, me)
    const lpBefore = await tokenBalance(chain, comet, me)

    await vault.draw(drew)
    let fillLedger: number | undefined
    let fillHash: string | undefined
    try {
      await waitForLedger(reader, plan.block)
      const res = await invoke(chain, keypair, p.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(requests)])
      fillLedger = res.ledger
      fillHash = res.hash
    } catch (err) {
      const now = await loadAuction(reader, p.pool, AuctionType.BadDebt, backstop).catch(() => auction)
      const lost = now === undefined || !sameAuction(now, auction)
      await vault.returnProceeds(drew, Date.now() - started)
      const note = lost ? new ErrAlreadyFilled(backstop).message : `bad-debt fill failed: ${err instanceof Error ? err.message : String(err)}`
      return makeResult({ drew, proceeds: drew, responseTimeMs: Date.now() - started, success: false, note })
    }
    let held = false
    const lpGot = (await tokenBalance(chain, comet, me)) - lpBefore
    if (lpGot > 0n) {
      const expected = cometExitUsdc(await readComet(chain, comet, usdcToken), lpGot)
      try {
        if (expected === 0n) throw new Error('exit refused')
        await exitToUsdc(chain, keypair, comet, usdcToken, lpGot, slippageFloor(expected, p.slippageBps))
      } catch (err) {
        held = true
        p.emit?.('swap_failed', `backstop-token exit failed: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
    const usdcAfter = await tokenBalance(chain, usdcToken, me)
    const measured = usdcAfter - usdcBefore
    if (fillLedger !== undefined) p.onFill?.({ user: backstop, plannedLedger: plan.block, fillLedger, drew, proceeds: measured })
    const toReturn = measured >= drew ? measured : minBig(drew, usdcAfter)
    if (toReturn > 0n) await vault.returnProceeds(toReturn, Date.now() - started)
    p.emit?.('fill', `filled bad-debt auction at ledger ${fillLedger}: drew ${drew}, returned ${toReturn}`)
    return makeResult({
      drew,
      proceeds: toReturn,
      responseTimeMs: Date.now() - started,
      success: true,
      ...(fillHash === undefined ? {} : { txHash: fillHash }),
      note: held ? 'backstop tokens held' : `bad debt filled at ledger ${fillLedger} (planned ${plan.block})`,
    })
  }

  /**
   * Interest auction: the backstop's share of pool interest (its `backstop_credit`, >= 200 USDC of
   * value for the pool to auction it) for backstop LP tokens. The bid is valued at what minting
   * those LP tokens with a single-sided USDC join costs; at the first profitable ledger the keeper
   * mints exactly the scaled bid, fills, and returns the USDC lot.
   */
  async function executeInterest(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>, vault: VaultClient): Promise<Result> {
    const { started, reader, me, backstop, usdcToken, scan, comet, nothing } = await backstopContext(chain, keypair, task)

    if (!task.data.hasAuction) {
      const lot = [...scan.valuation.reserves.values()].filter((r) => r.data.backstop_credit > 0n).map((r) => r.asset)
      if (lot.length === 0) return nothing('no backstop interest')
      await openBackstopAuction(chain, keypair, AuctionType.Interest, backstop, [comet], lot, 'interest')
    }
    const auction = await loadAuction(reader, p.pool, AuctionType.Interest, backstop)
    if (auction === undefined) return nothing(new ErrAlreadyFilled(backstop, 'no open interest auction').message)
    if ([...auction.lot.keys()].some((a) => a !== usdcToken)) return nothing('interest lot holds assets other than USDC')
    const { reserves, prices, latest, cometState } = await freshValuation(chain, reader, scan, comet, usdcToken)
    const lpBid = auction.bid.get(comet) ?? 0n
    const joinFull = cometJoinUsdc(cometState, lpBid)
    const usdcPrice = prices.prices.get(usdcToken)?.price
    if (joinFull === 0n || usdcPrice === undefined) return nothing('the backstop-token bid cannot be minted with USDC')
    // LP valued at the average cost of minting the whole bid: later (smaller) bids cost less.
    const lpPrice = mulDiv(joinFull, usdcPrice, lpBid, 'ceil')
    const plan = planFill({
      auction,
      reserves,
      prices: prices.prices,
      minProfit,
      fromBlock: latest.sequence + 1,
      type: AuctionType.Interest,
      extraBidQuotes: { [comet]: { price: lpPrice, decimals: 7 } },
    })
    if (plan === null) return nothing('interest auction never clears MIN_PROFIT')
    const lpNeeded = plan.bid[comet] ?? 0n
    const drew = cometJoinUsdc(cometState, lpNeeded)
    if (lpNeeded > 0n && drew === 0n) return nothing('the backstop-token bid cannot be minted with USDC')
    const usdcBefore = await tokenBalance(chain, usdcToken, me)
    const lpBefore = await tokenBalance(chain, comet, me)

    if (drew > 0n) await vault.draw(drew)
    let fillLedger: number | undefined
    let fillHash: string | undefined
    try {
      if (lpNeeded > 0n) {
        await joinWithUsdc(chain, keypair, comet, usdcToken, lpNeeded, drew)
        // The fill donates the bid to the backstop with transfer_from: allow it that much.
        const now = (await reader.getLatestLedger()).sequence
        await invoke(chain, keypair, comet, 'approve', [addr(me), addr(backstop), i128(lpNeeded), u32(Math.max(now, plan.block) + 1_000)])
      }
      await waitForLedger(reader, plan.block)
      const requests = fillRequests({ auctionType: AuctionType.Interest, user: backstop, percent: 100, bid: {}, lot: {}, dRates: {}, bRates: {} })
      const res = await invoke(chain, keypair, p.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(requests)])
      fillLedger = res.ledger
      fillHash = res.hash
    } catch (err) {
      // Lost (or failed): turn any minted LP back into USDC, return the draw (covering the
      // difference from the keeper's own USDC).
      const lp = (await tokenBalance(chain, comet, me).catch(() => lpBefore)) - lpBefore
      if (lp > 0n) await exitToUsdc(chain, keypair, comet, usdcToken, lp, 0n).catch(() => undefined)
      const onHand = await tokenBalance(chain, usdcToken, me)
      const back = minBig(drew, onHand)
      if (back > 0n) await vault.returnProceeds(back, Date.now() - started)
      const now = await loadAuction(reader, p.pool, AuctionType.Interest, backstop).catch(() => auction)
      const lost = now === undefined || !sameAuction(now, auction)
      const note = lost ? new ErrAlreadyFilled(backstop).message : `interest fill failed: ${err instanceof Error ? err.message : String(err)}`
      return makeResult({ drew, proceeds: back, responseTimeMs: Date.now() - started, success: false, note })
    }
    const usdcAfter = await tokenBalance(chain, usdcToken, me)
    const measured = usdcAfter - usdcBefore
    if (fillLedger !== undefined) p.onFill?.({ user: backstop, plannedLedger: plan.block, fillLedger, drew, proceeds: measured })
    const toReturn = measured >= drew ? measured : minBig(drew, usdcAfter)
    if (toReturn > 0n && drew > 0n) await vault.returnProceeds(toReturn, Date.now() - started)
    p.emit?.('fill', `filled interest auction at ledger ${fillLedger}: drew ${drew}, returned ${toReturn}`)
    return makeResult({
      drew,
      proceeds: drew > 0n ? toReturn : 0n,
      responseTimeMs: Date.now() - started,
      success: true,
      ...(fillHash === undefined ? {} : { txHash: fillHash }),
      note: `interest auction filled at ledger ${fillLedger} (planned ${plan.block})`,
    })
  }

  return {
    name: () => 'blend',
    lastScan: () => last,
    scanner,
    async getTasks(chain: Chain): Promise<Task<BlendTaskData>[]> {
      const reader = readerOf(chain, p.reader)
      last = await scanner.scan(reader, chain)
      p.emit?.('scan', `scanned ${last.borrowers.length} borrowers in ${Math.round(last.durationMs)} ms`)
      const tasks: Task<BlendTaskData>[] = []
      for (const b of last.borrowers) {
        if (!b.liquidatable && b.auction === undefined) continue
        const percent = b.auction === undefined ? chooseLiquidationPercent(last.valuation, b.positions) : undefined
        if (b.auction === undefined && percent === undefined) continue
        const share = BigInt(percent ?? 100)
        const estCapital = mulDiv(b.data.liabilityRaw, share, 100n, 'ceil')
        tasks.push({
          priority: taskPriority(b.healthFactor),
          health: b.healthFactor,
          estProfit: mulDiv(estCapital, minProfit - 10_000_000n, 10_000_000n, 'floor'),
          label: b.user,
          data: { kind: 'user_liquidation', user: b.user, percent, hasAuction: b.auction !== undefined, estCapital },
        })
      }
      // Bad debt on the backstop (or its auction already open): one task.
      const badDebtAuction = last.backstopAuctions.find((a) => a.type === AuctionType.BadDebt)
      const debt = [...last.backstopPositions.liabilities.values()].some((d) => d > 0n)
      if (badDebtAuction !== undefined || debt) {
        const estCapital = debt ? positionData(last.valuation, last.backstopPositions).liabilityRaw : 0n
        tasks.push({
          priority: 4,
          estProfit: mulDiv(estCapital, minProfit - 10_000_000n, 10_000_000n, 'floor'),
          label: `bad debt of ${last.snapshot.backstop}`,
          data: { kind: 'bad_debt', user: last.snapshot.backstop, percent: 100, hasAuction: badDebtAuction !== undefined, estCapital },
        })
      }
      // Backstop interest worth auctioning (the pool requires >= 200 USDC of value), or its auction.
      const interestAuction = last.backstopAuctions.find((a) => a.type === AuctionType.Interest)
      let interestValue = 0n
      for (const r of last.valuation.reserves.values()) {
        const price = last.valuation.prices.get(r.asset)?.price
        if (price !== undefined && r.data.backstop_credit > 0n) interestValue += mulDiv(price, r.data.backstop_credit, 10n ** BigInt(r.config.decimals), 'floor')
      }
      const minInterest = 200n * 10n ** BigInt(last.valuation.oracleDecimals)
      if (interestAuction !== undefined || interestValue >= minInterest) {
        tasks.push({
          priority: 1,
          estProfit: mulDiv(interestValue, minProfit - 10_000_000n, minProfit, 'floor'),
          label: `interest of ${last.snapshot.backstop}`,
          data: { kind: 'interest', user: last.snapshot.backstop, percent: 100, hasAuction: interestAuction !== undefined, estCapital: interestValue },
        })
      }
      return tasks
    },
    async execute(chain, keypair, task, vault) {
      if (typeof task.data?.user !== 'string') throw new ErrBadTask(JSON.stringify(task.label ?? null))
      if (task.data.kind === 'user_liquidation') return executeUser(chain, keypair, task, vault)
      if (task.data.kind === 'bad_debt') return executeBadDebt(chain, keypair, task, vault)
      if (task.data.kind === 'interest') return executeInterest(chain, keypair, task, vault)
      throw new ErrBadTask(JSON.stringify(task.label ?? null))
    },
    estimateCapital: (task) => task.data.estCapital,
    async getPositions(): Promise<Position[]> {
      return (last?.borrowers ?? []).map((b) => ({
        protocol: 'blend',
        user: b.user,
        healthFactor: Number.isFinite(b.healthFactor) ? b.healthFactor : null,
        collateralBase: b.data.collateralBase,
        liabilityBase: b.data.liabilityBase,
      }))
    },
  }
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

function sameAuction(a: AuctionData, b: AuctionData): boolean {
  if (a.block !== b.block || a.bid.size !== b.bid.size || a.lot.size !== b.lot.size) return false
  for (const [k, v] of a.bid) if (b.bid.get(k) !== v) return false
  for (const [k, v] of a.lot) if (b.lot.get(k) !== v) return false
  return true
}

/** Oracle-implied USDC value of `amount` of `asset` (both 7-decimal prices in the oracle base). */
function usdcValue(
  amount: bigint,
  asset: string,
  usdcToken: string,
  reserves: ReadonlyMap<string, { config: { decimals: number } }>,
  prices: ReadonlyMap<string, { price: bigint }>,
): bigint {
  const pa = prices.get(asset)?.price
  const pu = prices.get(usdcToken)?.price
  const da = reserves.get(asset)?.config.decimals
  const du = reserves.get(usdcToken)?.config.decimals
  if (pa === undefined || pu === undefined || da === undefined || du === undefined) return 0n
  // amount * pa / 10^da = base value; / pu * 10^du = USDC units
  return mulDiv(mulDiv(amount, pa, 10n ** BigInt(da), 'floor'), 10n ** BigInt(du), pu, 'floor')
}

/** Factory the keeper calls when LENDING_POOL is set. */
export const createLendingPoolAdapter: AdapterFactory = (ctx) => {
  if (ctx.lendingPool === undefined) throw new Error('LENDING_POOL is not set')
  return lendingPoolAdapter({
    pool: ctx.lendingPool,
    ...(ctx.usdcContract === undefined ? {} : { usdc: ctx.usdcContract }),
    vaultContract: ctx.vaultContract,
    minProfit: ctx.minProfit,
    slippageBps: ctx.slippageBps,
    ...(ctx.primaryDexRouter === undefined ? {} : { primaryDexRouter: ctx.primaryDexRouter }),
    ...(ctx.fallbackDexRouter === undefined ? {} : { fallbackDexRouter: ctx.fallbackDexRouter }),
    emit: ctx.emit,
  })
}
