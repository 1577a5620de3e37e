/**
 * Borrower discovery from pool events. Blend keeps no on-chain list of users, so the keeper
 * learns them from `borrow` / `flash_loan` events (topics: name, asset, user, ...). Each poll
 * reads every event of the pool, so it also reports every address the events name (`changed`:
 * the users whose positions the incremental pool state re-reads) and whether the events it read
 * follow the last poll's without a gap.
 *
 * Cold start pages through the whole RPC retention window (startLedger = oldestLedger, then the
 * cursor, on to the latest ledger whatever the page sizes: src/chain/events.ts); later cycles continue from the saved cursor and read only new events. A cursor that
 * fell out of the retention window (the keeper was down long) restarts discovery cold.
 *
 * With a history node (`HistoryBackfill`), each cold start also asks it for the ledgers before
 * the main RPC's window: all of its history on the first one, the ledgers missed while the keeper
 * was away on a later one. A backfill that failed is retried on the next poll.
 */
import { eventPages } from '../../../chain/index.js'
import { borrowerOf, type EventsReader } from './borrowerEvents.js'
import type { HistoryBackfill } from './historyBackfill.js'
import { addressesOf, poolEventFilters } from './poolEvents.js'
import type { RpcStats } from './rpcStats.js'

export { BORROWER_EVENTS, borrowerEventFilters, borrowerOf, type EventsReader } from './borrowerEvents.js'

export interface DiscoveryState {
  borrowers: Set<string>
  cursor: string | undefined
  /** Used when the node returned no cursor and no events: resume from this ledger. */
  nextStartLedger: number | undefined
}

export interface PollResult {
  /** Borrowers new to the discovery's set. */
  added: string[]
  /** Every borrower the events read by this poll named (main RPC and history node), each once. */
  named: string[]
  /** Every address the events read by this poll name (users whose positions may have changed). */
  changed: Set<string>
  /** The latest ledger the events read by this poll cover. */
  coveredThrough: number
  /**
   * The events read do not continue the last poll's: a cold start (the first poll, or a saved
   * position the node no longer serves) or a node whose window starts after the last poll.
   */
  gap: boolean
  /** Close time (unix seconds) of the latest ledger the node reported, when it said. */
  latestLedgerCloseTime: bigint | undefined
  pages: number
  coldStart: boolean
}

export class BorrowerDiscovery {
  readonly pool: string
  readonly pageLimit: number
  readonly state: DiscoveryState = { borrowers: new Set(), cursor: undefined, nextStartLedger: undefined }
  readonly history: HistoryBackfill | undefined
  /** The latest ledger the main RPC reported at the end of the last successful poll. */
  private coveredThrough: number | undefined

  constructor(pool: string, opts: { pageLimit?: number; history?: HistoryBackfill | undefined } = {}) {
    this.pool = pool
    this.pageLimit = opts.pageLimit ?? 1000
    this.history = opts.history
  }

  get borrowers(): string[] {
    return [...this.state.borrowers]
  }

  /**
   * Read new events (all of the retention window on the first call), then whatever the history
   * node still owes (a cold start's backfill, or one that failed before).
   */
  async poll(server: EventsReader, stats?: RpcStats): Promise<PollResult> {
    const cold = this.state.cursor === undefined && this.state.nextStartLedger === undefined
    let out: PollResult
    try {
      out = await this.scan(server, cold, stats)
    } catch (err) {
      if (cold) throw err
      // The saved position is no longer served (outside retention): start over from the window.
      this.state.cursor = undefined
      this.state.nextStartLedger = undefined
      out = await this.scan(server, true, stats)
    }
    if (this.history?.pending !== undefined) {
      const named = new Set(out.named)
      for (const user of await this.history.run(stats)) {
        named.add(user)
        if (!this.state.borrowers.has(user)) {
          this.state.borrowers.add(user)
          out.added.push(user)
        }
      }
      out.named = [...named]
    }
    return out
  }

  private async scan(server: EventsReader, cold: boolean, stats?: RpcStats): Promise<PollResult> {
    const filters = poolEventFilters(this.pool)
    let from: { startLedger: number } | { cursor: string }
    if (cold) {
      const health = await server.getHealth()
      if (stats) {
        stats.other += 1
        stats.waves += 1
      }
      const start = Math.max(1, health.oldestLedger)
      // What the main window does not hold: everything before it on the first start, the
      // ledgers missed since the last poll after a cursor fell out of the window.
      this.history?.request(start, this.coveredThrough)
      from = { startLedger: start }
    } else if (this.state.cursor !== undefined) {
      from = { cursor: this.state.cursor }
    } else {
      from = { startLedger: this.state.nextStartLedger! }
    }
    const added: string[] = []
    const named = new Set<string>()
    const changed = new Set<string>()
    let gap = cold
    let pages = 0
    let closeTime: bigint | undefined
    // Pages on to the node's latest ledger: a short or empty page is not the end (src/chain/events.ts).
    for await (const page of eventPages((req) => server.getEvents(req), { filters, from, limit: this.pageLimit })) {
      const res = page.response
      pages += 1
      if (stats) {
        stats.getEvents += 1
        stats.waves += 1
      }
      // A node that serves an old cursor from its oldest ledger (instead of refusing it) lost the
      // ledgers between the last poll and its window: the history node is asked for those.
      if (!cold && pages === 1 && this.coveredThrough !== undefined && res.oldestLedger > this.coveredThrough + 1) {
        this.history?.request(res.oldestLedger, this.coveredThrough)
        gap = true
      }
      for (const ev of res.events) {
        addressesOf(ev, changed)
        const user = borrowerOf(ev)
        if (user === undefined || user === this.pool) continue
        named.add(user)
        if (!this.state.borrowers.has(user)) {
          this.state.borrowers.add(user)
          added.push(user)
        }
      }
      const t = (res as { latestLedgerCloseTime?: string | number }).latestLedgerCloseTime
      if (t !== undefined && /^\d+$/.test(String(t))) closeTime = BigInt(String(t))
      if (page.cursor !== undefined) {
        this.state.cursor = page.cursor
        this.state.nextStartLedger = undefined
      } else if (this.state.cursor === undefined) {
        this.state.nextStartLedger = res.latestLedger
      }
      this.coveredThrough = res.latestLedger
    }
    changed.delete(this.pool)
    return { added, named: [...named], changed, coveredThrough: this.coveredThrough ?? 0, gap, pages, coldStart: cold, latestLedgerCloseTime: closeTime }
  }
}
