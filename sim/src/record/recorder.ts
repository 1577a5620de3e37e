/** The per-ledger series of a run (report.json `series`), one point every `every` ledgers. */
import { freeAssets, sharePrice } from '../../../src/core/index.js'
import type { PricePlan } from '../agents/environment.js'
import { emptySeries } from '../report/series.js'
import type { Series } from '../report/types.js'
import type { Observer, VaultSnapshot } from './observer.js'

const r7 = (x: number) => Math.round(x * 1e7) / 1e7
const usd = (x: bigint) => Number(x) / 1e7

export class Recorder {
  private readonly s: Series
  private last = -1

  constructor(
    private readonly prices: PricePlan,
    private readonly startLedger: number,
    private readonly ledgerSeconds: number,
    private readonly every: number,
  ) {
    this.s = emptySeries(prices.assets)
  }

  due(step: number): boolean {
    return step % this.every === 0
  }

  async point(step: number, ledger: number, o: Observer, vault: VaultSnapshot | undefined, final = false): Promise<void> {
    if (ledger === this.last && !final) return
    if (ledger === this.last) this.drop()
    this.last = ledger
    const [v, dex] = await Promise.all([vault ?? o.vault(), o.dexPrices()])
    const s = this.s
    const i = Math.min(step, this.prices.posts.length - 1)
    s.ledger.push(ledger)
    s.time.push((ledger - this.startLedger) * this.ledgerSeconds)
    s.sharePrice.push(vaultSharePrice(v))
    s.totalUsdc.push(usd(v.totalUsdc))
    s.activeLiq.push(usd(v.activeLiq))
    s.totalProfit.push(usd(v.totalProfit))
    s.lockedProfit!.push(usd(v.locked))
    s.badDebt.push(r7(o.badDebt()))
    s.openAuctions.push(o.openAuctions())
    for (const c of this.prices.assets) {
      s.market[c]!.push(r7(this.prices.market[c]![i]!))
      s.oracle[c]!.push(r7(this.prices.oracle[c]![i]!))
      s.dex[c]!.push(dex[c] === null || dex[c] === undefined ? null : r7(dex[c]!))
    }
  }

  private drop(): void {
    const s = this.s
    for (const arr of [s.ledger, s.time, s.sharePrice, s.totalUsdc, s.activeLiq, s.totalProfit, s.lockedProfit!, s.badDebt, s.openAuctions]) arr.pop()
    for (const c of s.assets) {
      s.market[c]!.pop()
      s.oracle[c]!.pop()
      s.dex[c]!.pop()
    }
  }

  series(): Series {
    return this.s
  }
}

/**
 * The vault's share price (its `share_price`): free assets (total USDC less the profit still
 * locked) per share, 7 decimals floored, as a number.
 */
export function vaultSharePrice(v: Pick<VaultSnapshot, 'totalUsdc' | 'totalShares' | 'locked'>): number {
  return Number(sharePrice({ totalUsdc: freeAssets(v.totalUsdc, v.locked), totalShares: v.totalShares })) / 1e7
}
