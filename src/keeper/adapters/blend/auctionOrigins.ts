/**
 * What is left of an auction, for the progress line and the dashboard: Blend keeps only the
 * remainder of a part-filled auction, so the keeper remembers each auction as it first saw it
 * and compares. A keeper that first sees an auction after someone's part fill counts from there.
 */
import type { AuctionData } from './storage.js'

/** Auctions remembered at most; the oldest is forgotten first. */
const KEEP = 4096

export class AuctionOrigins {
  private readonly first = new Map<string, AuctionData>()

  /**
   * Notes `auction` under `id` (the first sighting is kept) and returns the percent of its lot
   * still open against that first sighting: the smallest over the lot's assets, rounded down to
   * a tenth, 100 for an auction seen whole.
   */
  left(id: string, auction: AuctionData): number {
    let origin = this.first.get(id)
    if (origin === undefined) {
      origin = auction
      this.first.set(id, auction)
      if (this.first.size > KEEP) this.first.delete(this.first.keys().next().value!)
    }
    let least = 1000n
    for (const [asset, was] of origin.lot) {
      if (was <= 0n) continue
      const now = auction.lot.get(asset) ?? 0n
      const perMille = (now * 1000n) / was
      if (perMille < least) least = perMille
    }
    return Number(least) / 10
  }
}
