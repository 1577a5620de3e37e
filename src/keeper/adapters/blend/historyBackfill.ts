/**
 * Borrower backfill from a Stellar RPC with a longer event history (HISTORY_API_URL, e.g. an
 * archive node with a long retention window): the pool's `borrow` / `flash_loan` events in the
 * ledgers the main RPC no longer serves.
 *
 * The discovery asks for a range `[from, until)`: on a cold start from the history node's oldest
 * ledger up to where the main RPC's window begins; after a cursor fell out of the main window, from
 * the last ledger read there. `run` reads it with `getHealth` and paged `getEvents`. A node that
 * cannot be reached is a warning naming it; the range stays pending (a failure mid-way resumes
 * from its cursor) and the next cycle tries again, while discovery goes on with the main RPC.
 */
import { rpc } from '@stellar/stellar-sdk'
import type { AdapterLogger } from '../../sdk/index.js'
import { borrowerEventFilters, borrowerOf, type EventsReader } from './borrowerEvents.js'
import type { RpcStats } from './rpcStats.js'
import { withConnectionErrors } from '../../../chain/connection.js'
import { redactText, redactUrl } from '../../../chain/redact.js'
import { eventPages } from '../../../chain/events.js'
import { withLazyLatestLedger } from '../../../chain/latestLedger.js'

export interface BackfillRange {
  /** First ledger wanted; undefined: the oldest the history node holds. */
  from: number | undefined
  /** First ledger not wanted (the main RPC serves it). */
  until: number
}

export interface BackfillReport {
  /** Distinct borrowers named by the events read. */
  borrowers: string[]
  fromLedger: number
  toLedger: number
  pages: number
  ms: number
}

export interface HistoryBackfillOptions {
  pool: string
  url: string
  /** The node's client (default: an rpc.Server for `url`, allowHttp for http URLs). */
  server?: EventsReader
  pageLimit?: number
  /** Per-request timeout of the default client (ms, default 15 000). */
  timeoutMs?: number
  log?: Pick<AdapterLogger, 'info' | 'warn'>
}

/** An error's message, any URL in it masked as the node's own URL is (chain/redact.ts). */
function errText(err: unknown): string {
  return redactText(err instanceof Error ? err.message : String(err))
}

export class HistoryBackfill {
  readonly pool: string
  readonly url: string
  readonly server: EventsReader
  readonly pageLimit: number
  private readonly log: Pick<AdapterLogger, 'info' | 'warn'> | undefined
  private range: BackfillRange | undefined
  /** Resume point of a backfill that failed mid-way, with the range end it was reading to. */
  private resume: { cursor: string; from: number; end: number; found: Set<string>; pages: number } | undefined
  /** The last completed backfill. */
  last: BackfillReport | undefined
  /** Failed attempts so far (each logged as a warning). */
  failures = 0

  constructor(o: HistoryBackfillOptions) {
    this.pool = o.pool
    this.url = o.url
    this.pageLimit = o.pageLimit ?? 1000
    this.log = o.log
    this.server =
      o.server ??
      // A node it cannot reach fails as a ConnectionError naming the (masked) URL and the socket's code.
      withConnectionErrors(withLazyLatestLedger(new rpc.Server(o.url, { allowHttp: o.url.startsWith('http:'), timeout: o.timeoutMs ?? 15_000 })), o.url, { label: redactUrl(o.url) })
  }

  /** The range still to read, if any. */
  get pending(): BackfillRange | undefined {
    return this.range === undefined ? undefined : { ...this.range }
  }

  /** Asks for the ledgers `[from, until)`; merged with a range still pending. */
  request(until: number, from?: number): void {
    if (from !== undefined && from >= until) return
    if (this.range === undefined) {
      this.range = { from, until }
      return
    }
    const f = this.range.from === undefined || from === undefined ? undefined : Math.min(this.range.from, from)
    this.range = { from: f, until: Math.max(this.range.until, until) }
    this.resume = undefined
  }

  /**
   * Reads the pending range. Resolves with the borrowers found (also the part read before a
   * failure); never rejects: a failure is logged and retried by the next call.
   */
  async run(stats?: RpcStats): Promise<string[]> {
    const range = this.range
    if (range === undefined) return []
    const started = performance.now()
    const filters = borrowerEventFilters(this.pool)
    const found = this.resume?.found ?? new Set<string>()
    let pages = this.resume?.pages ?? 0
    let from: number
    let end: number
    let start: { startLedger: number } | { cursor: string }
    try {
      if (this.resume !== undefined) {
        ;({ from, end } = this.resume)
        start = { cursor: this.resume.cursor }
      } else {
        const health = await this.server.getHealth()
        if (stats) {
          stats.other += 1
          stats.waves += 1
        }
        from = Math.max(range.from ?? health.oldestLedger, health.oldestLedger, 1)
        end = Math.min(range.until, health.latestLedger + 1)
        const where = redactUrl(this.url)
        if (range.from !== undefined && health.oldestLedger > range.from) {
          this.log?.warn(
            { url: where, wanted: range.from, oldestLedger: health.oldestLedger },
            `history RPC ${where} holds ledgers from ${health.oldestLedger} only: borrowers of ledgers ${range.from}-${health.oldestLedger - 1} cannot be backfilled`,
          )
        }
        if (health.latestLedger + 1 < range.until) {
          this.log?.warn(
            { url: where, latestLedger: health.latestLedger, mainWindowStart: range.until },
            `history RPC ${where} ends at ledger ${health.latestLedger}, the main RPC's window begins at ${range.until}: ledgers in between are read from neither`,
          )
        }
        if (end <= from) {
          this.finish(found, from, from - 1, pages, started)
          return []
        }
        start = { startLedger: from }
      }
      // Pages on to `end` whatever the page sizes (src/chain/events.ts); the SDK sends no
      // endLedger with a cursor, so the pager drops the events past `end`.
      for await (const page of eventPages((req) => this.server.getEvents(req), { filters, from: start, endLedger: end, limit: this.pageLimit })) {
        pages += 1
        if (stats) {
          stats.getEvents += 1
          stats.waves += 1
        }
        for (const ev of page.events) {
          const user = borrowerOf(ev)
          if (user !== undefined && user !== this.pool) found.add(user)
        }
        if (!page.last && page.cursor !== undefined) this.resume = { cursor: page.cursor, from, end, found, pages }
      }
      this.finish(found, from, end - 1, pages, started)
      return [...found]
    } catch (err) {
      this.failures += 1
      const where = redactUrl(this.url)
      this.log?.warn(
        { url: where, err: errText(err), failures: this.failures, foundSoFar: found.size },
        `history RPC ${where} unreachable or failing (${errText(err)}): borrower backfill retried next cycle; discovery goes on with the main RPC`,
      )
      return [...found]
    }
  }

  private finish(found: Set<string>, from: number, to: number, pages: number, started: number): void {
    this.range = undefined
    this.resume = undefined
    this.last = { borrowers: [...found], fromLedger: from, toLedger: to, pages, ms: performance.now() - started }
    if (to >= from) {
      this.log?.info(
        { url: redactUrl(this.url), borrowers: found.size, fromLedger: from, toLedger: to, pages, ms: Math.round(this.last.ms) },
        'history backfill done',
      )
    }
  }
}
