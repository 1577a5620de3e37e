/**
 * Paging getEvents to the end of a range, whatever the page sizes.
 *
 * stellar-rpc (v27.1.1, cmd/stellar-rpc/internal/methods/get_events.go) scans at most
 * `LedgerScanLimit` = 10 000 ledgers per request: from the start ledger, or from the cursor's
 * ledger, to `min(start + 10 000, latestLedger + 1, endLedger)` (exclusive). A page that holds
 * fewer than `limit` events (even none) ends there, and its cursor is the largest id of the last
 * ledger scanned (`MaxCursor` with `Ledger = end - 1`), not the end of the events. A full page's
 * cursor is its last event's id. So a short page is the end only when its cursor has reached the
 * latest ledger (or the end ledger asked for); before that the next page goes on from the cursor.
 *
 * Event ids and cursors are "%019d-%010d": the TOID of (ledger, transaction, operation), whose
 * high 32 bits are the ledger, then the event's index (go-stellar-sdk protocols/rpc Cursor).
 */

/** stellar-rpc's `LedgerScanLimit`: the most ledgers one getEvents request scans. */
export const LEDGER_SCAN_LIMIT = 10_000

const ID = /^(\d{19})-(\d{10})$/

/** The TOID and event index of an event id / cursor, or an error naming the bad value. */
function parseId(id: string): { toid: bigint; index: bigint } {
  const m = ID.exec(id)
  if (m === null) throw new Error(`getEvents cursor ${JSON.stringify(id)} is not an event id ("%019d-%010d": TOID, event index)`)
  return { toid: BigInt(m[1]!), index: BigInt(m[2]!) }
}

/** The ledger an event id or cursor points into (the TOID's high 32 bits). */
export function cursorLedger(cursor: string): number {
  return Number(parseId(cursor).toid >> 32n)
}

/**
 * The event id stellar-rpc gives event `index` of operation `op` of transaction `tx` in `ledger`
 * (TOID = ledger << 32 | tx << 12 | op; tx counts from 1, 0 for a ledger's own events).
 */
export function eventId(ledger: number, index = 0, tx = 0, op = 0): string {
  const toid = (BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op)
  return `${toid.toString().padStart(19, '0')}-${String(index).padStart(10, '0')}`
}

/**
 * The cursor stellar-rpc gives a short page whose scan ended with `ledger`: the largest id in it
 * (`MaxCursor` with that ledger: transaction, operation and event index at their maxima).
 */
export function scanEndCursor(ledger: number): string {
  return eventId(ledger, 0xffffffff, (1 << 20) - 1, (1 << 12) - 1)
}

/** One getEvents request as the pager sends it (assignable to the SDK's `GetEventsRequest`). */
export type EventsRequest<F> =
  | { filters: F; startLedger: number; endLedger?: number; cursor?: never; limit: number }
  | { filters: F; cursor: string; startLedger?: never; endLedger?: never; limit: number }

/** What the pager reads from an answer (an `rpc.Api.GetEventsResponse` has it). */
export interface EventsAnswer {
  events: readonly { id: string; ledger: number }[]
  cursor?: string | undefined
  latestLedger: number
}

export interface EventPagingOptions<F> {
  filters: F
  /** Where to begin: a ledger, or a cursor from an earlier answer (paging goes on after it). */
  from: { startLedger: number } | { cursor: string }
  /** The first ledger not wanted (exclusive, as getEvents' `endLedger`); default: none. */
  endLedger?: number | undefined
  limit: number
}

/** One answer, with the events before `endLedger` and where the next page would begin. */
export interface EventPage<A extends EventsAnswer> {
  response: A
  /** The answer's events before `endLedger` (all of them without one). */
  events: A['events']
  /** The position after this page (the answer's cursor, else its last event's id). */
  cursor: string | undefined
  /** The last page of the range: nothing is read after it. */
  last: boolean
}

/**
 * Reads the pages of `from..endLedger` (or to the latest ledger), one request at a time, and
 * yields each. It stops after a page that holds an event at or past `endLedger`, or a short page
 * whose cursor reached the latest ledger the answer reports (or `endLedger - 1`); a full page is
 * always followed by another. With a cursor no `endLedger` can be sent (stellar-rpc refuses both),
 * so later events are left out here.
 *
 * @throws Error when the node's cursor does not move past the one sent (the same page would be
 *   asked for again and again), or is not an event id; the node's own errors as they are
 */
export async function* eventPages<F, A extends EventsAnswer>(
  getEvents: (request: EventsRequest<F>) => Promise<A>,
  opts: EventPagingOptions<F>,
): AsyncGenerator<EventPage<A>, void, undefined> {
  const { filters, limit, endLedger } = opts
  if (!Number.isInteger(limit) || limit <= 0) throw new Error(`getEvents page limit must be a positive integer, not ${limit}`)
  let request: EventsRequest<F> =
    'cursor' in opts.from
      ? { filters, cursor: opts.from.cursor, limit }
      : { filters, startLedger: opts.from.startLedger, ...(endLedger === undefined ? {} : { endLedger }), limit }
  for (;;) {
    const response = await getEvents(request)
    const all = response.events
    const events = endLedger === undefined ? all : all.filter((e) => e.ledger < endLedger)
    const cursor = response.cursor !== undefined && response.cursor !== '' ? response.cursor : all[all.length - 1]?.id
    const target = endLedger === undefined ? response.latestLedger : Math.min(response.latestLedger, endLedger - 1)
    const last =
      cursor === undefined || events.length < all.length || (all.length < limit && cursorLedger(cursor) >= target)
    yield { response, events, cursor, last }
    if (last) return
    const sent = request.cursor
    // Ids are fixed-width decimal strings: their order is their string order.
    if (sent !== undefined && cursor <= sent) {
      throw new Error(
        `getEvents cursor did not advance: sent ${sent}, got ${cursor} with ${all.length} events (limit ${limit}) while the latest ledger is ${response.latestLedger}`,
      )
    }
    request = { filters, cursor, limit }
  }
}
