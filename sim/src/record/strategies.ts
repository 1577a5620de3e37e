/**
 * report.json `strategies`: the keepers' results summed by what ran for them (the daemon,
 * seed-rule, nectar), so a tournament reads as one row per strategy.
 */
import type { KeeperResult, StrategyResult } from '../report/types.js'
import type { KeeperStrategy } from '../scenario/schema.js'

/** The order strategies are listed in. */
export const STRATEGY_ORDER: readonly KeeperStrategy[] = ['daemon', 'seed-rule', 'nectar']

const r7 = (x: number) => Math.round(x * 1e7) / 1e7

/**
 * One row per strategy present among `keepers` (a keeper without one is the daemon), in
 * STRATEGY_ORDER. `drawnAtEnd`: USDC each keeper (by name) still owed the vault at the end.
 */
export function strategyResults(keepers: readonly KeeperResult[], drawnAtEnd: ReadonlyMap<string, number> = new Map()): StrategyResult[] {
  return STRATEGY_ORDER.flatMap((strategy) => {
    const ks = keepers.filter((k) => (k.strategy ?? 'daemon') === strategy)
    if (ks.length === 0) return []
    const sum = (f: (k: KeeperResult) => number) => ks.reduce((t, k) => t + f(k), 0)
    return [
      {
        strategy,
        keepers: ks.map((k) => k.name),
        wins: sum((k) => k.wins),
        fills: sum((k) => k.fills),
        profit: r7(sum((k) => k.profit)),
        vaultProfit: r7(sum((k) => k.vaultProfit)),
        failedTransactions: sum((k) => k.failedTransactions),
        lostRaceTransactions: sum((k) => k.lostRaceTransactions),
        drawnAtEnd: r7(sum((k) => drawnAtEnd.get(k.name) ?? 0)),
      },
    ]
  })
}
