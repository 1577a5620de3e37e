import { describe, expect, it } from 'vitest'
import { cursorLedger, eventId, eventPages, LEDGER_SCAN_LIMIT, scanEndCursor, type EventsRequest } from './events.js'

interface Ev {
  id: string
  ledger: number
}

const endOf = scanEndCursor

/**
 * A node that scans as stellar-rpc does (get_events.go): at most `scan` ledgers per request from
 * the start ledger or the cursor's, `limit` events per page, a short page's cursor at the end of
 * the ledgers scanned.
 */
function node(events: Ev[], latest: number, scan = LEDGER_SCAN_LIMIT) {
  const requests: EventsRequest<string>[] = []
  const getEvents = async (req: EventsRequest<string>) => {
    requests.push(req)
    const start = req.cursor === undefined ? req.startLedger : cursorLedger(req.cursor)
    const end = Math.min(start + scan, latest + 1, req.endLedger ?? Infinity)
    const after = (e: Ev) => (req.cursor === undefined ? e.ledger >= start : e.id > req.cursor)
    const page = events.filter((e) => after(e) && e.ledger < end).slice(0, req.limit)
    const cursor = page.length === req.limit ? page[page.length - 1]!.id : endOf(end - 1)
    return { events: page, cursor, latestLedger: latest }
  }
  return { getEvents, requests }
}

async function readAll(getEvents: (r: EventsRequest<string>) => Promise<{ events: Ev[]; cursor?: string; latestLedger: number }>, opts: { from: { startLedger: number } | { cursor: string }; endLedger?: number; limit: number }) {
  const seen: Ev[] = []
  let pages = 0
  let cursor: string | undefined
  for await (const page of eventPages(getEvents, { filters: 'f', ...opts })) {
    pages += 1
    seen.push(...page.events)
    cursor = page.cursor
  }
  return { seen, pages, cursor }
}

describe('event ids', () => {
  it('decode the ledger from the TOID, as stellar-rpc forms it', () => {
    expect(eventId(7, 3, 2, 1)).toBe(`${((7n << 32n) | (2n << 12n) | 1n).toString().padStart(19, '0')}-0000000003`)
    expect(cursorLedger(eventId(123_456, 9, 5, 4))).toBe(123_456)
    expect(cursorLedger(endOf(41))).toBe(41)
    // The end of ledger 41's scan: TOID (41, tx 2^20 - 1, op 2^12 - 1) = 42 * 2^32 - 1.
    expect(endOf(41)).toBe('0000000180388626431-4294967295')
  })

  it('refuse what is not an event id', () => {
    expect(() => cursorLedger('end')).toThrow(/not an event id/)
    expect(() => cursorLedger('0000000000000000100-1')).toThrow(/not an event id/)
  })
})

describe('eventPages', () => {
  it('goes on past short and empty pages until the cursor reaches the latest ledger', async () => {
    // Events on both sides of two empty 10 000-ledger windows.
    const events = [eventId(5, 0, 1), eventId(5, 1, 1), eventId(25_500, 0, 1), eventId(30_000, 0, 2)].map((id) => ({ id, ledger: cursorLedger(id) }))
    const n = node(events, 30_001)
    const { seen, pages, cursor } = await readAll(n.getEvents, { from: { startLedger: 1 }, limit: 10 })
    expect(seen.map((e) => e.id)).toEqual(events.map((e) => e.id))
    // 1..10 000 (2 events), 10 001..20 000 (none), 20 001..30 000 (2), 30 001 (none): the last
    // short page ends at the latest ledger.
    expect(pages).toBe(4)
    expect(cursorLedger(cursor!)).toBe(30_001)
    expect(n.requests[1]).toEqual({ filters: 'f', cursor: endOf(10_000), limit: 10 })
  })

  it('follows a full page even in the latest ledger, and stops at an empty one there', async () => {
    const events = [0, 1, 2].map((i) => ({ id: eventId(50, i, 1), ledger: 50 }))
    const n = node(events, 50)
    const { seen, pages } = await readAll(n.getEvents, { from: { startLedger: 40 }, limit: 3 })
    expect(seen).toHaveLength(3)
    expect(pages).toBe(2)
  })

  it('resumes from a cursor at the end of the latest ledger with one request', async () => {
    const n = node([], 900)
    const { pages, cursor } = await readAll(n.getEvents, { from: { cursor: endOf(900) }, limit: 5 })
    expect(pages).toBe(1)
    expect(cursor).toBe(endOf(900))
  })

  it('stops at endLedger, leaving out what a cursor request returns past it', async () => {
    const events = [10, 15_000, 15_001, 15_002, 40_000].map((l) => ({ id: eventId(l, 0, 1), ledger: l }))
    const n = node(events, 50_000)
    const { seen } = await readAll(n.getEvents, { from: { startLedger: 1 }, endLedger: 15_002, limit: 2 })
    expect(seen.map((e) => e.ledger)).toEqual([10, 15_000, 15_001])
    expect(n.requests[0]).toMatchObject({ startLedger: 1, endLedger: 15_002 })
    expect(n.requests.slice(1).every((r) => r.endLedger === undefined)).toBe(true)
  })

  it('treats a page that ends a range inside the window as its last', async () => {
    const n = node([{ id: eventId(3, 0, 1), ledger: 3 }], 100_000)
    const { pages } = await readAll(n.getEvents, { from: { startLedger: 1 }, endLedger: 20, limit: 10 })
    expect(pages).toBe(1)
  })

  it('refuses a cursor that does not advance instead of asking again and again', async () => {
    let calls = 0
    const stuck = async () => {
      calls += 1
      return { events: [], cursor: endOf(10), latestLedger: 500 }
    }
    await expect(readAll(stuck, { from: { startLedger: 1 }, limit: 10 })).rejects.toThrow(/cursor did not advance/)
    expect(calls).toBe(2)
  })

  it('ends when the node gives neither a cursor nor events', async () => {
    const silent = async () => ({ events: [], latestLedger: 500 })
    expect((await readAll(silent, { from: { startLedger: 1 }, limit: 10 })).pages).toBe(1)
  })

  it('uses the last event id when the node leaves the cursor empty', async () => {
    const events = [1, 2, 3].map((l) => ({ id: eventId(l, 0, 1), ledger: l }))
    const requests: EventsRequest<string>[] = []
    const bare = async (req: EventsRequest<string>) => {
      requests.push(req)
      const page = events.filter((e) => (req.cursor === undefined ? true : e.id > req.cursor)).slice(0, req.limit)
      return { events: page, cursor: '', latestLedger: 3 }
    }
    const { seen } = await readAll(bare, { from: { startLedger: 1 }, limit: 2 })
    expect(seen).toHaveLength(3)
    expect(requests[1]!.cursor).toBe(events[1]!.id)
  })

  it('refuses a page limit that is not a positive integer', async () => {
    await expect(readAll(node([], 10).getEvents, { from: { startLedger: 1 }, limit: 0 })).rejects.toThrow(/positive integer/)
  })
})
