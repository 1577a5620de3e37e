/**
 * How long the pool can be left alone while its only business is auctions ripening.
 *
 * A Blend user-liquidation auction is decided by its curve: until the first ledger where the
 * lot is worth MIN_PROFIT × the bid (src/core `firstProfitableBlock`, through the keeper's own
 * `planFill`), no keeper with that MIN_PROFIT or a higher one fires, and the curve moves only with
 * the ledger number, the oracle's prices and (negligibly) interest. So when every open auction
 * is a user liquidation, nobody else is liquidatable or close to it and no bad debt waits, the
 * ledgers before the earliest such first profitable ledger change no decision as long as the
 * oracle does not post: the lockstep may close them in one call, as it does for calm stretches.
 */
import { minProfitScaled, planFill } from '../../../src/keeper/adapters/blend/auctionPlan.js'
import type { ScanResult } from '../../../src/keeper/adapters/blend/scan.js'

/** Blocks after which an unfilled auction's bid has scaled to nothing (Blend v2: 400). */
const EXPIRY_BLOCKS = 400

/**
 * The earliest ledger at which an open auction becomes profitable at `minProfit` (the lowest of
 * the keepers'), or expires unprofitable; null when something else wants attention now (a
 * borrower below `margin` without an auction, a backstop auction, bad debt), or when no auction
 * is open. Callers stop short of it by the keepers' fire lead.
 */
export function ripeningUntil(scan: ScanResult, minProfit: number, margin = 1.0005): number | null {
  if (scan.backstopAuctions.length > 0 || scan.backstopPositions.liabilities.size > 0) return null
  let until: number | null = null
  const min = minProfitScaled(minProfit)
  for (const b of scan.borrowers) {
    if (b.auction === undefined) {
      if (b.healthFactor < margin) return null
      continue
    }
    const plan = planFill({ auction: b.auction, reserves: scan.valuation.reserves, prices: scan.prices.prices, minProfit: min, fromBlock: b.auction.block })
    const at = plan?.block ?? b.auction.block + EXPIRY_BLOCKS
    until = until === null ? at : Math.min(until, at)
  }
  return until
}
