import { describe, expect, it } from 'vitest'
import { BorrowerDiscovery } from './discovery.js'
import { borrowEvent, FakeEvents } from './fakeEvents.test-util.js'
import { randomAccount, randomContract } from './fakeLedger.test-util.js'
import { HistoryBackfill } from './historyBackfill.js'
import { createServer, type AddressInfo } from 'node:net'

const URL_ = 'https://archive.example.org/rpc'

function recorder() {
  const lines: { level: 'info' | 'warn'; obj: Record<string, unknown>; msg: string }[] = []
  return {
    lines,
    warns: () => lines.filter((l) => l.level === 'warn').map((l) => l.msg),
    log: {
      info: (obj: object, msg?: string) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
      warn: (obj: object, msg?: string) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
    },
  }
}

/**
 * The main RPC serves ledgers [400, 500]; the history node [100, 500] of the same chain. Users
 * `old` borrowed before the main window, `recent` inside it.
 */
function chain(nOld = 5) {
  const pool = randomContract()
  const old = Array.from({ length: nOld }, randomAccount)
  const recent = randomAccount()
  const history = new FakeEvents()
  history.oldest = 100
  history.latest = 500
  old.forEach((u, i) => history.events.push(borrowEvent(150 + i * 10, 0, i % 2 === 0 ? 'borrow' : 'flash_loan', u)))
  history.events.push(borrowEvent(450, 0, 'borrow', recent))
  const main = new FakeEvents()
  main.oldest = 400
  main.latest = 500
  main.events = history.events.filter((e) => e.ledger >= main.oldest)
  return { pool, old, recent, history, main }
}

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

describe('history backfill', () => {
  it('events alone miss the borrowers before the main window; a cold start backfills them from the history node', async () => {
    const c = chain(5)
    const alone = new BorrowerDiscovery(c.pool)
    await alone.poll(c.main)
    expect(alone.borrowers).toEqual([c.recent])

    const rec = recorder()
    const history = new HistoryBackfill({ pool: c.pool, url: URL_, server: c.history, pageLimit: 2, log: rec.log })
    const d = new BorrowerDiscovery(c.pool, { history })
    const res = await d.poll(c.main)
    expect(new Set(d.borrowers)).toEqual(new Set([...c.old, c.recent]))
    expect(new Set(res.added)).toEqual(new Set([...c.old, c.recent]))
    expect(new Set(res.named)).toEqual(new Set([...c.old, c.recent]))
    // [oldest of the history node, first ledger of the main window): startLedger + endLedger, then cursors
    expect(c.history.requests[0]).toMatchObject({ startLedger: 100, endLedger: 400, limit: 2 })
    expect(c.history.requests.slice(1).every((r) => r.cursor !== undefined)).toBe(true)
    expect(c.history.requests).toHaveLength(3) // 5 events, 2 per page
    expect(history.pending).toBeUndefined()
    expect(history.last).toMatchObject({ fromLedger: 100, toLedger: 399, pages: 3 })
    expect(rec.lines.find((l) => l.msg === 'history backfill done')?.obj).toMatchObject({ borrowers: 5, fromLedger: 100, toLedger: 399, pages: 3 })
    expect(rec.warns()).toEqual([])

    // later polls read the main RPC only
    const before = c.history.requests.length + c.history.healthCalls
    await d.poll(c.main)
    expect(c.history.requests.length + c.history.healthCalls).toBe(before)
  })

  it('events on the history node past the main window start are not paged through', async () => {
    const c = chain(1)
    // many borrowers inside the main window: the backfill must stop at ledger 400
    for (let i = 0; i < 10; i++) c.history.events.push(borrowEvent(460 + i, 0, 'borrow', randomAccount()))
    c.history.events.sort((a, b) => (a.id < b.id ? -1 : 1))
    const history = new HistoryBackfill({ pool: c.pool, url: URL_, server: c.history, pageLimit: 1 })
    history.request(400)
    expect(await history.run()).toEqual(c.old)
    expect(c.history.requests).toHaveLength(2) // the old borrower, then a page at ledger 450: stop
  })

  it('an unreachable history node is a warning naming it; discovery goes on and the backfill is retried next cycle', async () => {
    const c = chain(3)
    c.history.down = new Error('connect ECONNREFUSED 10.0.0.9:443')
    const rec = recorder()
    const history = new HistoryBackfill({ pool: c.pool, url: URL_, server: c.history, log: rec.log })
    const d = new BorrowerDiscovery(c.pool, { history })
    const first = await d.poll(c.main)
    expect(first.added).toEqual([c.recent])
    expect(rec.warns()).toHaveLength(1)
    expect(rec.warns()[0]).toContain(`history RPC ${URL_} unreachable or failing (connect ECONNREFUSED 10.0.0.9:443)`)
    expect(rec.warns()[0]).toContain('retried next cycle')
    expect(history.pending).toEqual({ from: undefined, until: 400 })

    c.history.down = undefined
    const second = await d.poll(c.main)
    expect(new Set(second.added)).toEqual(new Set(c.old))
    expect(history.pending).toBeUndefined()
    expect(history.failures).toBe(1)
  })

  it('a failure mid-way resumes from its cursor and keeps what it read', async () => {
    const c = chain(6)
    c.history.failCall = 2
    const rec = recorder()
    const history = new HistoryBackfill({ pool: c.pool, url: URL_, server: c.history, pageLimit: 2, log: rec.log })
    history.request(400)
    const first = await history.run()
    expect(first).toEqual(c.old.slice(0, 2))
    expect(rec.warns()[0]).toContain('socket hang up')
    const second = await history.run()
    expect(new Set(second)).toEqual(new Set(c.old))
    expect(c.history.healthCalls).toBe(1)
    expect(c.history.requests[2]!.cursor).toBe(c.history.requests[1]!.cursor)
  })

  it.each([
    ['refuses the old cursor', true],
    ['serves the old cursor from its oldest ledger', false],
  ])('after the cursor fell out of the main window (the node %s), only the ledgers missed meanwhile are backfilled', async (_, refuses) => {
    const c = chain(2)
    const history = new HistoryBackfill({ pool: c.pool, url: URL_, server: c.history })
    const d = new BorrowerDiscovery(c.pool, { history })
    await d.poll(c.main)
    // the keeper was away: 1000 ledgers later, the main window is [1300, 1500]
    const missed = randomAccount()
    const now = randomAccount()
    for (const node of [c.history, c.main]) node.latest = 1500
    c.main.oldest = 1300
    c.history.events.push(borrowEvent(900, 0, 'borrow', missed), borrowEvent(1400, 0, 'borrow', now))
    c.main.events = c.history.events.filter((e) => e.ledger >= 1300)
    if (refuses) c.main.forgetBefore = c.main.events[0]!.id
    const requests = c.history.requests.length
    const res = await d.poll(c.main)
    expect(res.coldStart).toBe(refuses)
    expect(new Set(res.added)).toEqual(new Set([missed, now]))
    expect(c.history.requests[requests]).toMatchObject({ startLedger: 500, endLedger: 1300 })
  })

  it('warns when the history node does not reach back far enough or lags behind the main window', async () => {
    const c = chain(1)
    c.history.oldest = 300
    c.history.latest = 350
    c.history.events = c.history.events.filter((e) => e.ledger >= 300 && e.ledger <= 350)
    const rec = recorder()
    const history = new HistoryBackfill({ pool: c.pool, url: URL_, server: c.history, log: rec.log })
    history.request(400, 200)
    expect(await history.run()).toEqual([])
    expect(rec.warns()).toEqual([
      `history RPC ${URL_} holds ledgers from 300 only: borrowers of ledgers 200-299 cannot be backfilled`,
      `history RPC ${URL_} ends at ledger 350, the main RPC's window begins at 400: ledgers in between are read from neither`,
    ])
    expect(c.history.requests[0]).toMatchObject({ startLedger: 300, endLedger: 351 })
    expect(history.pending).toBeUndefined()
  })

  it('names the node by the one masking rule (chain/redact.ts): credentials masked in its lines, the error quoting the URL included', async () => {
    const c = chain(3)
    const secretUrl = 'https://alice:s3cret-pw@archive.example.org/v1/9f2c41d7e8a0b3c5d6e7f801/rpc?apikey=abcdef123456&network=public'
    const shown = 'https://***@archive.example.org/v1/***/rpc?apikey=***&network=public'
    c.history.down = new Error(`request to ${secretUrl} failed: ECONNRESET`)
    const rec = recorder()
    const history = new HistoryBackfill({ pool: c.pool, url: secretUrl, server: c.history, log: rec.log })
    history.request(400)
    expect(await history.run()).toEqual([])
    expect(rec.lines).toHaveLength(1)
    expect(rec.lines[0]!.msg).toBe(
      `history RPC ${shown} unreachable or failing (request to ${shown} failed: ECONNRESET): borrower backfill retried next cycle; discovery goes on with the main RPC`,
    )
    expect(rec.lines[0]!.obj).toMatchObject({ url: shown, err: `request to ${shown} failed: ECONNRESET` })
    const written = JSON.stringify(rec.lines)
    for (const secret of ['alice', 's3cret-pw', '9f2c41d7e8a0b3c5d6e7f801', 'abcdef123456']) expect(written).not.toContain(secret)

    // Once it answers, the done line names it the same way.
    c.history.down = undefined
    await history.run()
    expect(rec.lines.at(-1)).toMatchObject({ level: 'info', msg: 'history backfill done', obj: { url: shown } })
  })

  it('connects to a plain http URL with the SDK client (allowHttp)', async () => {
    const rec = recorder()
    // a loopback port that was just free: the SDK's own client reports the failure
    const port = await freePort()
    const history = new HistoryBackfill({ pool: randomContract(), url: `http://127.0.0.1:${port}/rpc`, timeoutMs: 2000, log: rec.log })
    history.request(400)
    expect(await history.run()).toEqual([])
    expect(rec.warns()[0]).toBe(
      `history RPC http://127.0.0.1:${port}/rpc unreachable or failing (cannot reach the RPC at http://127.0.0.1:${port}/rpc (ECONNREFUSED)): borrower backfill retried next cycle; discovery goes on with the main RPC`,
    )
  })
})
