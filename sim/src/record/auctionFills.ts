/**
 * Which fills belong to which auction. A Blend v2 fill takes a percent (1..100) of what is left
 * of an auction; anything under 100 leaves the rest open on the same curve, and only a fill of
 * 100 % ends it. So each auction of a user takes, in chain order, the fills of that user's
 * auction type from its creation on, up to and including the first one of 100 %; the user's
 * next auction of that type takes the fills after that. Auctions and fills of different pools never
 * match (a backstop's auctions name the same user, the backstop, in every pool).
 */
import type { AuctionCreated, AuctionFilled } from '../../../src/world/runEvents.js'

/** The fills of each auction, by the auction's index in `auctions` (chain order in both lists). */
export function fillsByAuction(auctions: readonly AuctionCreated[], fills: readonly AuctionFilled[]): AuctionFilled[][] {
  const out: AuctionFilled[][] = auctions.map(() => [])
  const pending = new Map<string, AuctionFilled[]>()
  for (const f of fills) {
    const key = `${f.pool ?? ''}:${f.type}:${f.user}`
    pending.set(key, [...(pending.get(key) ?? []), f])
  }
  auctions.forEach((a, i) => {
    const queue = pending.get(`${a.pool ?? ''}:${a.type}:${a.user}`) ?? []
    while (queue.length > 0 && queue[0]!.ledger < a.ledger) queue.shift()
    while (queue.length > 0) {
      const f = queue.shift()!
      out[i]!.push(f)
      if (f.percent >= 100n) break
    }
  })
  return out
}

/**
 * Percent of the auction as created still unfilled after `percents` (each of what was left),
 * to 4 decimals: 0 once a fill took 100 %.
 */
export function remainingPercent(percents: readonly bigint[]): number {
  let left = 1
  for (const p of percents) left *= 1 - Number(p) / 100
  return Math.round(left * 1_000_000) / 10_000
}
