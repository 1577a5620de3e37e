/** A keeper's submission lanes for the report: its lane accounts and what each carried. */
import type { KeeperLanes } from '../report/types.js'

export interface LaneInput {
  /** The keeper's lane accounts, the operator first (its runtime's lanes; the operator alone when it never ran). */
  accounts: readonly string[]
  /** Transactions the network accepted during the run, per source account. */
  sentBySource: ReadonlyMap<string, number>
  /** Every keeper transaction a close applied (the mempool's journal). */
  applied: readonly { source: string }[]
  /** TRY_AGAIN_LATER answers this keeper got. */
  tryAgainLater: number
}

export function keeperLanes(p: LaneInput): KeeperLanes {
  const applied = new Map<string, number>()
  for (const t of p.applied) applied.set(t.source, (applied.get(t.source) ?? 0) + 1)
  return {
    count: p.accounts.length,
    accounts: [...p.accounts],
    sent: p.accounts.map((a) => p.sentBySource.get(a) ?? 0),
    applied: p.accounts.map((a) => applied.get(a) ?? 0),
    tryAgainLater: p.tryAgainLater,
  }
}
