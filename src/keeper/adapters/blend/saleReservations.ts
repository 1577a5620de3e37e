/**
 * A keeper's own sales into a pool, per ledger, so that two of its fills landing in the same
 * ledger (or in ledgers the pool read does not show yet) do not both count on the depth the
 * first one takes.
 *
 * Each fill that is about to be sent reserves what its lot will sell (amount in, amount out) in
 * the ledger it is sent for: per asset for a sale into the primary router's pair (`reserve`,
 * `adjust`), per pool and direction for a sale across venues (`reserveFlows`, `adjustHop`).
 * A valuation for a ledger sees the pool as it will be after the sales reserved for that ledger
 * and, given the latest ledger its pool read shows (`seen`), for every ledger after it: sales
 * sent but not yet applied move the pool for the fills behind them, arbitrage or not. Valuing and reserving happen inside `exclusive`, one fill at a
 * time, so two fills fired together cannot both read the pool before either reserved. Other
 * keepers' sales cannot be known: a fill that meets one fails on the router's minimum output and
 * is re-planned (failureBudget.ts).
 */
import type { ConstantProductPool } from '../../../core/index.js'
import type { RouteHop } from '../../dex/saleRoutes.js'

export interface Sale {
  amountIn: bigint
  out: bigint
}

export class SaleReservations {
  private readonly byLedger = new Map<number, Map<string, Sale>>()
  /** Per ledger, the fills planned for it that have not reserved yet: their lot assets by plan id. */
  private readonly intents = new Map<number, Map<string, readonly string[]>>()

  /**
   * A fill of plan `id` selling `assets` is planned for `ledger` (a later plan of the same id
   * replaces it): the fills sent for that ledger before it leave it a share of the pools.
   */
  intend(ledger: number, id: string, assets: readonly string[]): void {
    for (const at of this.intents.values()) at.delete(id)
    const at = this.intents.get(ledger) ?? new Map<string, readonly string[]>()
    at.set(id, assets)
    this.intents.set(ledger, at)
  }

  /** Plan `id` has reserved its sales, or will not send: it no longer waits for a share. */
  settled(id: string): void {
    for (const [ledger, at] of this.intents) {
      at.delete(id)
      if (at.size === 0) this.intents.delete(ledger)
    }
  }

  /**
   * How many fills planned for `ledger` or the `window` ledgers after it (plan `id`'s own
   * included) sell one of `assets`: the number that share those pools, which refill only as
   * arbitrage trades back into them; 1 when only this one does.
   */
  sharing(ledger: number, id: string, assets: readonly string[], window = SHARING_WINDOW): number {
    let n = 1
    for (const [l, at] of this.intents) {
      if (l < ledger || l > ledger + window) continue
      for (const [other, theirs] of at) if (other !== id && theirs.some((a) => assets.includes(a))) n++
    }
    return n
  }
  private tail: Promise<unknown> = Promise.resolve()

  /** What this keeper reserved under `key` for the ledgers after `seen` up to `ledger`. */
  private pending(key: string, ledger: number, seen: number): Sale | undefined {
    let sum: Sale | undefined
    for (const [l, at] of this.byLedger) {
      if (l <= seen || l > ledger) continue
      const s = at.get(key)
      if (s !== undefined) sum = { amountIn: (sum?.amountIn ?? 0n) + s.amountIn, out: (sum?.out ?? 0n) + s.out }
    }
    return sum
  }

  /**
   * The pool `asset` sells into, as it will be in `ledger` after this keeper's reserved sales
   * for it and for the ledgers after `seen` (default: those of `ledger` only).
   */
  adjust(ledger: number, asset: string, pool: ConstantProductPool, seen = ledger - 1): ConstantProductPool {
    const sold = this.pending(asset, ledger, seen)
    return sold === undefined ? pool : this.moved(pool, sold)
  }

  /** A pool of a route as it will be in `ledger` after this keeper's reserved sales through it (same direction), as `adjust`. */
  adjustHop(ledger: number, hop: RouteHop, seen = ledger - 1): RouteHop {
    const sold = this.pending(flowKey(hop.id, hop.tokenIn), ledger, seen)
    if (sold === undefined) return hop
    const p = hop.pool
    if ('kind' in p) {
      const balanceOut = p.balanceOut - sold.out
      return { ...hop, pool: { ...p, balanceIn: p.balanceIn + sold.amountIn, balanceOut: balanceOut > 0n ? balanceOut : 0n } }
    }
    return { ...hop, pool: this.moved(p, sold) }
  }

  /** Records what a fill sent for `ledger` moves through each pool of its swaps (see `reserve`). */
  reserveFlows(ledger: number, flows: readonly { id: string; tokenIn: string; amountIn: bigint; out: bigint }[]): void {
    this.reserve(ledger, Object.fromEntries(flows.map((f) => [flowKey(f.id, f.tokenIn), { amountIn: f.amountIn, out: f.out }])))
  }

  private moved(pool: ConstantProductPool, sold: Sale): ConstantProductPool {
    const reserveOut = pool.reserveOut - sold.out
    return { reserveIn: pool.reserveIn + sold.amountIn, reserveOut: reserveOut > 0n ? reserveOut : 0n }
  }

  /** Records the sales of a fill sent for `ledger`; forgets ledgers more than KEEP_LEDGERS before it. */
  reserve(ledger: number, sales: Readonly<Record<string, Sale>>): void {
    for (const l of this.byLedger.keys()) if (l < ledger - KEEP_LEDGERS) this.byLedger.delete(l)
    for (const l of this.intents.keys()) if (l < ledger) this.intents.delete(l)
    const at = this.byLedger.get(ledger) ?? new Map<string, Sale>()
    for (const [key, s] of Object.entries(sales)) {
      const before = at.get(key) ?? { amountIn: 0n, out: 0n }
      at.set(key, { amountIn: before.amountIn + s.amountIn, out: before.out + s.out })
    }
    this.byLedger.set(ledger, at)
  }

  /**
   * Runs `fn` (a valuation, inside `exclusive`) as if `times` more fills selling what `fill`
   * sells had reserved their sales for `ledger` first; nothing of it stays reserved.
   */
  async assuming<T>(ledger: number, fill: ReservedFill, times: number, fn: () => Promise<T>): Promise<T> {
    const entries = Object.entries(fillSales(fill)).map(([key, s]) => [key, { amountIn: s.amountIn * BigInt(times), out: s.out * BigInt(times) }] as const)
    const at = this.byLedger.get(ledger) ?? new Map<string, Sale>()
    this.byLedger.set(ledger, at)
    const before = new Map(entries.map(([key]) => [key, at.get(key)]))
    for (const [key, s] of entries) {
      const b = at.get(key) ?? { amountIn: 0n, out: 0n }
      at.set(key, { amountIn: b.amountIn + s.amountIn, out: b.out + s.out })
    }
    try {
      return await fn()
    } finally {
      for (const [key, b] of before) {
        if (b === undefined) at.delete(key)
        else at.set(key, b)
      }
      if (at.size === 0) this.byLedger.delete(ledger)
    }
  }

  /** Runs `fn` after every earlier `exclusive` call has finished (a fill's value-and-reserve step). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn)
    this.tail = run.catch(() => undefined)
    return run
  }
}

/** What a valued fill sells: per router pair (`sales`, by asset) or per pool flow of its swaps. */
export interface ReservedFill {
  sales?: Readonly<Record<string, Sale>> | undefined
  swaps?: readonly { flows: readonly { id: string; tokenIn: string; amountIn: bigint; out: bigint }[] }[] | undefined
}

/** The reservation entries of `fill`: its swaps' flows when it has swaps, else its sales. */
function fillSales(fill: ReservedFill): Record<string, Sale> {
  if (fill.swaps !== undefined) {
    const out: Record<string, Sale> = {}
    for (const f of fill.swaps.flatMap((s) => s.flows)) {
      const key = flowKey(f.id, f.tokenIn)
      const b = out[key] ?? { amountIn: 0n, out: 0n }
      out[key] = { amountIn: b.amountIn + f.amountIn, out: b.out + f.out }
    }
    return out
  }
  return { ...(fill.sales ?? {}) }
}

/** Ledgers after a fill's own whose planned first fills share its pools with it. */
export const SHARING_WINDOW = 2

/** Reservations older than this many ledgers are forgotten: every pool read shows them by then. */
export const KEEP_LEDGERS = 16

/** A pool and the token sold into it: sales the other way do not deplete the same side. */
const flowKey = (id: string, tokenIn: string) => `${id}>${tokenIn}`
