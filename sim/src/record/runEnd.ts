/**
 * What the end of a run leaves unsaid: the LP return annualised over the run's simulated time
 * (beside the cumulative one), and a warning when auctions were still ripening at the end, their
 * first profitable ledger after the last one simulated (the run was too short to see them filled).
 */
import type { AuctionResult } from '../report/types.js'

const YEAR_SECONDS = 365 * 86_400

/**
 * (1 + cumulative)^(year / span) − 1: the cumulative return compounded to a year; null for a run
 * of no time or a figure too large to be a number (a short run's return raised to a large power).
 */
export function annualisedReturn(cumulative: number, spanSeconds: number): number | null {
  if (!(spanSeconds > 0) || !(cumulative > -1)) return null
  const v = Math.pow(1 + cumulative, YEAR_SECONDS / spanSeconds) - 1
  return Number.isFinite(v) ? v : null
}

/** The auctions still open at the end whose first profitable ledger lies after it. */
export function ripeningAtEnd(auctions: readonly AuctionResult[], endLedger: number): AuctionResult[] {
  return auctions.filter((a) => a.outcome === 'open' && a.fills.length === 0 && a.firstProfitableLedger !== null && a.firstProfitableLedger > endLedger)
}

/** The run's warnings, in words (empty when there are none). */
export function runWarnings(auctions: readonly AuctionResult[], endLedger: number, ledgerSeconds: number): string[] {
  const late = ripeningAtEnd(auctions, endLedger)
  if (late.length === 0) return []
  const firsts = late.map((a) => a.firstProfitableLedger!)
  const from = Math.min(...firsts)
  const to = Math.max(...firsts)
  const more = Math.ceil((to - endLedger) * ledgerSeconds)
  const n = late.length
  return [
    `run too short: ${n} ${n === 1 ? 'auction was' : 'auctions were'} still ripening at the end (ledger ${endLedger}); ` +
      `${n === 1 ? 'it first becomes' : 'they first become'} profitable at ledger ${from === to ? from : `${from}–${to}`}, after the run ended, ` +
      `so no keeper could fill ${n === 1 ? 'it' : 'them'}. Lengthen run.duration (or run.ledgers) by at least ${more} s to see ${n === 1 ? 'it' : 'them'} filled.`,
  ]
}
