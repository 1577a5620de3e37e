/**
 * Core replay: the deterministic core's predictions checked against what the chain did.
 * - fill-ledger: no fill lands before the first ledger the core finds profitable at the filling
 *   keeper's MIN_PROFIT, valued on the state the keeper saw (the ledger before the fill);
 * - fill-amounts: the pool's `fill_auction` lot and bid = core `scaleAuction` of the auction at
 *   the fill's block;
 * - share-math: every deposit's shares and withdrawal's USDC = core `sharesForDeposit` /
 *   `usdcForShares` on the free assets before it (total USDC less the profit still locked at the
 *   ledger's close time, core `lockedProfit`), and the totals and the profit lock folded from the
 *   vault's events (every booked profit locked by core `bookProfit`) = `get_state` after every
 *   ledger;
 * - health-factor: every user liquidation the pool accepted was on a user the core values under
 *   HF 1 at that ledger.
 * Bad-debt and interest auctions are checked for their fill amounts only: their backstop-token
 * side is valued through the backstop's LP pool, not by the oracle the core prices with.
 * Each user liquidation's fill also gets its valuation for the report: the first ledger
 * profitable at the population's lowest MIN_PROFIT and the lot and bid values at the fill, on the
 * state the filling keeper saw; an auction's first fill also the first ledger at which its sale
 * was sellable: the filled percent's lot sold across the venues as they stood before the fill
 * (core `bestPartialFill`'s valuation: every part clears the population's widest SLIPPAGE_BPS
 * floor, the sale covers the bid, the oracle ratio clears the lowest MIN_PROFIT).
 */
import { AUCTION_RAMP_BLOCKS, bookProfit, freeAssets, lockedProfit, scaleAuction, sharesForDeposit, usdcForShares, valuePartialFill, type ProfitLock } from '../../../src/core/index.js'
import { auctionQuotes, minProfitScaled, planFill, toCoreAuction } from '../../../src/keeper/adapters/blend/auctionPlan.js'
import type { CollateralRoutes } from '../record/observer.js'
import type { ScanResult } from '../../../src/keeper/adapters/blend/scan.js'
import { AuctionType, type AuctionData } from '../../../src/keeper/adapters/blend/storage.js'
import type { AuctionCreated, AuctionFilled, VaultFlow } from '../../../src/world/runEvents.js'
import type { VaultSnapshot } from '../record/observer.js'
import type { ReplayCheck, ReplayResult } from '../report/types.js'

const KEEP = 50

/** A user liquidation's fill valued by the core on the state before it (USD, 7 decimals). */
export interface FillValuation {
  firstProfitableLedger: number | null
  /**
   * An auction's first fill: the first ledger at which the filled percent's sale cleared the
   * floor on the venues as they stood before the fill (null: never before the fill, or not known).
   */
  firstSellableLedger?: number | null
  lotValue: bigint | null
  bidCost: bigint | null
}

/** The key of a fill in {@link CoreReplay.fillValuations}. */
export const fillKey = (type: number, user: string, ledger: number) => `${type}:${user}:${ledger}`

export class CoreReplay {
  /** By {@link fillKey}. */
  readonly fillValuations = new Map<string, FillValuation>()
  private readonly checks = new Map<ReplayCheck['kind'], ReplayCheck>(
    (['fill-ledger', 'fill-amounts', 'share-math', 'health-factor'] as const).map((k) => [k, { kind: k, checked: 0, mismatches: 0 }]),
  )
  private readonly mismatches: ReplayResult['mismatches'] = []
  private totals: { usdc: bigint; shares: bigint; lock: ProfitLock } | undefined
  /** The vault's profit_unlock_secs (bookings lock over it). */
  private unlockSecs = 1n
  /** Remaining part of each open auction (type:user), as the core scales it. */
  private readonly open = new Map<string, AuctionData>()

  /** Auctions (type:user:start block) with a fill seen. */
  private readonly filledOnce = new Set<string>()

  /**
   * `populationMinProfit`: the lowest MIN_PROFIT among the keepers (for the fill valuations);
   * `populationSlippageBps`: their widest SLIPPAGE_BPS (for the first sellable ledger).
   */
  constructor(
    private readonly populationMinProfit?: number,
    private readonly populationSlippageBps = 100,
  ) {}

  private count(kind: ReplayCheck['kind'], ok: boolean, ledger: number, detail: () => string): void {
    const c = this.checks.get(kind)!
    c.checked++
    if (ok) return
    c.mismatches++
    if (this.mismatches.length < KEEP) this.mismatches.push({ kind, ledger, detail: detail() })
  }

  /** The vault's books at the start, and its `profit_unlock_secs`. */
  startTotals(v: VaultSnapshot, unlockSecs: bigint): void {
    this.totals = { usdc: v.totalUsdc, shares: v.totalShares, lock: lockOf(v) }
    this.unlockSecs = unlockSecs
  }

  /** Books `profit` at `now` as the vault does: into the total, locked. */
  private book(profit: bigint, now: bigint): void {
    const t = this.totals!
    if (profit <= 0n) return
    t.lock = bookProfit(t.lock, profit, now, this.unlockSecs)
    t.usdc += profit
  }

  auctionCreated(a: AuctionCreated, scanAfter: ScanResult | undefined): void {
    this.open.set(`${a.type}:${a.user}`, a.auction)
    if (a.type !== AuctionType.UserLiquidation || scanAfter === undefined) return
    const b = scanAfter.borrowers.find((x) => x.user === a.user)
    if (b === undefined) return
    this.count('health-factor', b.healthFactor < 1, a.ledger, () => `auction on ${a.user} accepted at HF ${b.healthFactor.toFixed(7)} by the core`)
  }

  /** `seen`: the state the filling keeper saw (the scan after the ledger before the fill). */
  auctionFilled(f: AuctionFilled, minProfit: number | undefined, seen: ScanResult | undefined, seenRoutes?: CollateralRoutes): void {
    const key = `${f.type}:${f.user}`
    const auction = this.open.get(key)
    if (auction === undefined) return
    const percent = Number(f.percent)
    const { filled, remaining } = scaleAuction({ auction: toCoreAuction(auction), block: f.ledger, percent })
    const same = (a: Record<string, bigint>, b: Map<string, bigint>) =>
      Object.keys(a).length === b.size && Object.entries(a).every(([k, v]) => b.get(k) === v)
    this.count('fill-amounts', same(filled.bid, f.filled.bid) && same(filled.lot, f.filled.lot), f.ledger, () =>
      `${f.user}: core lot ${fmt(filled.lot)} bid ${fmt(filled.bid)}, pool lot ${fmt(Object.fromEntries(f.filled.lot))} bid ${fmt(Object.fromEntries(f.filled.bid))}`,
    )
    if (remaining === null) this.open.delete(key)
    else this.open.set(key, { bid: new Map(Object.entries(remaining.bid)), lot: new Map(Object.entries(remaining.lot)), block: auction.block })
    if (f.type !== AuctionType.UserLiquidation || seen === undefined) return
    const plan = (min: bigint, fromBlock: number) =>
      planFill({ auction, reserves: seen.valuation.reserves, prices: seen.prices.prices, minProfit: min, fromBlock, percent, type: AuctionType.UserLiquidation })
    if (minProfit !== undefined) {
      const first = plan(minProfitScaled(minProfit), auction.block)?.block ?? null
      this.count('fill-ledger', first !== null && f.ledger >= first, f.ledger, () =>
        `${f.user}: filled at ledger ${f.ledger}, core's first profitable ledger at MIN_PROFIT ${minProfit} is ${first ?? 'never'}`,
      )
    }
    const firstOfAuction = !this.filledOnce.has(`${key}:${auction.block}`)
    this.filledOnce.add(`${key}:${auction.block}`)
    if (this.populationMinProfit !== undefined) {
      const atFill = plan(0n, f.ledger)
      const valued = atFill !== null && atFill.block === f.ledger
      const firstProfitable = plan(minProfitScaled(this.populationMinProfit), auction.block)?.block ?? null
      this.fillValuations.set(fillKey(f.type, f.user, f.ledger), {
        firstProfitableLedger: firstProfitable,
        ...(firstOfAuction && seenRoutes !== undefined && firstProfitable !== null
          ? { firstSellableLedger: this.firstSellable(auction, percent, seen, seenRoutes, firstProfitable, f.ledger) }
          : {}),
        lotValue: valued ? atFill.lotValue : null,
        bidCost: valued ? atFill.bidCost : null,
      })
    }
  }

  /**
   * The first ledger from `from` to `until` at which `percent` of the auction, its lot sold across
   * `routes`, clears the floor and covers the bid (the oracle ratio at the lowest MIN_PROFIT too).
   */
  private firstSellable(auction: AuctionData, percent: number, seen: ScanResult, routes: CollateralRoutes, from: number, until: number): number | null {
    const reserves = seen.valuation.reserves
    const prices = seen.prices.prices
    const usdc = [...auction.bid.keys()][0]
    const usdcReserve = usdc === undefined ? undefined : reserves.get(usdc)
    const usdcPrice = usdc === undefined ? undefined : prices.get(usdc)
    if (usdc === undefined || usdcReserve === undefined || usdcPrice === undefined) return null
    const { lotQuotes, bidQuotes } = auctionQuotes(AuctionType.UserLiquidation, auction, reserves, prices)
    const params = {
      auction: toCoreAuction(auction),
      lotQuotes,
      bidQuotes,
      proceeds: { asset: usdc, quote: { price: usdcPrice.price, decimals: usdcReserve.config.decimals } },
      pools: {},
      routes: Object.fromEntries([...auction.lot.keys()].filter((a) => a !== usdc).map((a) => [a, (routes.get(a) ?? []).map((r) => ({ hops: r.hops.map((h) => h.pool) }))])),
      minProfit: minProfitScaled(this.populationMinProfit!),
      slippageBps: this.populationSlippageBps,
      basis: 'oracle' as const,
    }
    const last = Math.min(until, auction.block + 2 * AUCTION_RAMP_BLOCKS)
    for (let b = from; b <= last; b++) if (valuePartialFill(params, b, percent).feasible) return b
    return null
  }

  vaultFlow(v: VaultFlow): void {
    if (this.totals === undefined) return
    const t = this.totals
    const d = v.data
    const free = () => freeAssets(t.usdc, lockedProfit(t.lock, v.closeTime))
    if (v.kind === 'deposit') {
      const amount = d.amount ?? 0n
      const { shares, deadShares } = sharesForDeposit({ amount, totalUsdc: free(), totalShares: t.shares })
      this.count('share-math', shares === (d.shares ?? -1n), v.ledger, () => `deposit of ${amount}: core ${shares} shares, vault ${d.shares}`)
      t.usdc += amount
      t.shares += (d.shares ?? 0n) + (d.dead_shares ?? deadShares)
    } else if (v.kind === 'withdraw') {
      const shares = d.shares ?? 0n
      const usdc = usdcForShares({ shares, totalUsdc: free(), totalShares: t.shares })
      this.count('share-math', usdc === (d.amount ?? -1n), v.ledger, () => `withdrawal of ${shares} shares: core ${usdc} USDC, vault ${d.amount}`)
      t.usdc -= d.amount ?? 0n
      t.shares -= shares
    } else if (v.kind === 'return' || v.kind === 'flash') {
      this.book(d.profit ?? 0n, v.closeTime)
    } else if (v.kind === 'write_off') {
      // The recovered stake replaces the written-down capital; what exceeds it (the penalty) is income, locked.
      const down = d.written_down ?? 0n
      const recovered = d.recovered ?? 0n
      const restored = recovered < down ? recovered : down
      t.usdc += restored - down
      this.book(recovered - restored, v.closeTime)
    }
  }

  /** After a ledger with vault events: the folded totals must equal get_state. */
  checkTotals(ledger: number, v: VaultSnapshot): void {
    if (this.totals === undefined) return
    const t = this.totals
    const lock = lockOf(v)
    const sameLock = t.lock.lockedProfit === lock.lockedProfit && t.lock.lockStart === lock.lockStart && t.lock.lockEnd === lock.lockEnd
    this.count('share-math', t.usdc === v.totalUsdc && t.shares === v.totalShares && sameLock, ledger, () =>
      `folded totals ${t.usdc} USDC / ${t.shares} shares / lock ${fmtLock(t.lock)}, get_state ${v.totalUsdc} / ${v.totalShares} / ${fmtLock(lock)}`,
    )
    this.totals = { usdc: v.totalUsdc, shares: v.totalShares, lock }
  }

  result(): ReplayResult {
    return { checks: [...this.checks.values()], mismatches: [...this.mismatches] }
  }

  get mismatchCount(): number {
    return [...this.checks.values()].reduce((n, c) => n + c.mismatches, 0)
  }
}

const fmt = (m: Record<string, bigint>) =>
  Object.entries(m)
    .map(([k, v]) => `${k.slice(0, 4)}…=${v}`)
    .join(',')

const lockOf = (v: VaultSnapshot): ProfitLock => ({ lockedProfit: v.lockedProfit, lockStart: v.lockStart, lockEnd: v.lockEnd })

const fmtLock = (l: ProfitLock) => `${l.lockedProfit} over ${l.lockStart}..${l.lockEnd}`
