/** The start of report.json's `series`. */
import type { Series } from './types.js'

/** Series with no point yet, a column per asset for the price series. */
export function emptySeries(assets: readonly string[]): Series {
  const per = () => Object.fromEntries(assets.map((c) => [c, [] as number[]]))
  return {
    assets: [...assets],
    ledger: [],
    time: [],
    sharePrice: [],
    totalUsdc: [],
    activeLiq: [],
    totalProfit: [],
    lockedProfit: [],
    badDebt: [],
    openAuctions: [],
    market: per(),
    oracle: per(),
    dex: Object.fromEntries(assets.map((c) => [c, [] as (number | null)[]])),
  }
}
