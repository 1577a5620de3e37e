import type { rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { ONE, world } from './fakePool.test-util.js'
import { contractEntry, encodePositions, randomAccount } from './fakeLedger.test-util.js'
import { PoolState, samePositions, type FullReadReport, type ReadPositions } from './poolState.js'
import { lendingPoolAdapter } from './adapter.js'
import { PoolScanner } from './scan.js'
import { emptyPositions, positionsKey } from './storage.js'

const MINUTE = 60_000

function debtOf(r: { borrowers: { user: string; positions: { liabilities: Map<number, bigint> } }[] }, user: string): bigint | undefined {
  return r.borrowers.find((b) => b.user === user)?.positions.liabilities.get(0)
}

describe('incremental pool state: scans', () => {
  it('a warm scan reads only the positions the events name', async () => {
    const w = world()
    const scanner = new PoolScanner(w.pool, { now: () => 0 })
    const first = await scanner.scan(w.reader, w.chain)
    expect(first.fullRead?.reason).toBe('cold')
    expect(first.positionsRead).toBe(2)
    const quiet = await scanner.scan(w.reader, w.chain)
    expect(quiet.fullRead).toBeUndefined()
    // Only the watched user (under water: HF 0.94), whose entry rides along in the first wave.
    expect(quiet.positionsRead).toBe(1)
    expect(quiet.borrowers.map((b) => b.user).sort()).toEqual([w.healthy, w.sick].sort())

    w.setDebt(w.healthy, 90n * ONE) // 75 / 90: now under water
    const after = await scanner.scan(w.reader, w.chain)
    expect(after.positionsRead).toBe(2)
    expect(after.borrowers.find((b) => b.user === w.healthy)!.liquidatable).toBe(true)
    expect(after.stats.waves).toBe(2)
  })

  it('the audit finds a change no event named, reports it and takes the value read', async () => {
    const w = world()
    let now = 0
    const reports: FullReadReport[] = []
    const scanner = new PoolScanner(w.pool, { now: () => now, fullReadEveryMs: 10 * MINUTE, onFullRead: (r) => reports.push(r) })
    await scanner.scan(w.reader, w.chain)
    // Written behind the pool's back (no event) for a user nobody watches (HF 1.5): the cache cannot know.
    w.ledger.set(
      positionsKey(w.pool, w.healthy),
      contractEntry(positionsKey(w.pool, w.healthy), encodePositions({ collateral: new Map([[1, 1000n * ONE]]), liabilities: new Map([[0, 30n * ONE]]), supply: new Map() })),
    )
    now = 9 * MINUTE
    expect(debtOf(await scanner.scan(w.reader, w.chain), w.healthy)).toBe(50n * ONE)
    now = 10 * MINUTE
    const audited = await scanner.scan(w.reader, w.chain)
    expect(audited.fullRead).toMatchObject({ reason: 'audit', read: 2 })
    expect(audited.fullRead!.mismatches.map((m) => [m.user, m.cached.liabilities.get(0), m.read.liabilities.get(0)])).toEqual([[w.healthy, 50n * ONE, 30n * ONE]])
    expect(debtOf(audited, w.healthy)).toBe(30n * ONE)
    expect(reports.map((r) => [r.reason, r.mismatches.length])).toEqual([
      ['cold', 0],
      ['audit', 1],
    ])
    // The next audit is due ten minutes after this one.
    now = 19 * MINUTE
    expect((await scanner.scan(w.reader, w.chain)).fullRead).toBeUndefined()
  })

  it('an audit does not count a change the same scan learns from its events', async () => {
    const w = world()
    let now = 0
    const scanner = new PoolScanner(w.pool, { now: () => now, fullReadEveryMs: MINUTE })
    await scanner.scan(w.reader, w.chain)
    w.setDebt(w.sick, 20n * ONE)
    now = MINUTE
    const audited = await scanner.scan(w.reader, w.chain)
    expect(audited.fullRead).toMatchObject({ reason: 'audit', mismatches: [] })
    expect(debtOf(audited, w.sick)).toBe(20n * ONE)
  })

  it('a gap in the events (a cursor the node no longer serves) falls back to a full read', async () => {
    const w = world()
    let forgotten = false
    const reader = {
      ...w.reader,
      getEvents: async (req: rpc.Api.GetEventsRequest) => {
        if (forgotten && req.cursor !== undefined) throw new Error('cursor out of retention')
        return w.reader.getEvents(req)
      },
    }
    const scanner = new PoolScanner(w.pool, { now: () => 0 })
    await scanner.scan(reader, w.chain)
    // While the keeper was away: a change whose event the node has since forgotten.
    w.ledger.set(
      positionsKey(w.pool, w.healthy),
      contractEntry(positionsKey(w.pool, w.healthy), encodePositions({ collateral: new Map([[1, 1000n * ONE]]), liabilities: new Map([[0, 77n * ONE]]), supply: new Map() })),
    )
    forgotten = true
    const r = await scanner.scan(reader, w.chain)
    expect(r.fullRead).toMatchObject({ reason: 'gap', read: 2, mismatches: [] })
    expect(debtOf(r, w.healthy)).toBe(77n * ONE)
  })

  it('fullReadEveryMs 0 reads every borrower every scan, as before the cache', async () => {
    const w = world()
    const scanner = new PoolScanner(w.pool, { now: () => 0, fullReadEveryMs: 0 })
    await scanner.scan(w.reader, w.chain)
    const r = await scanner.scan(w.reader, w.chain)
    expect(r.fullRead?.reason).toBe('every-scan')
    expect(r.positionsRead).toBe(2)
    expect(r.stats.waves).toBe(1)
  })

  it('a borrower added from elsewhere (watch list, hints) is read at the next scan', async () => {
    const w = world()
    const scanner = new PoolScanner(w.pool, { now: () => 0 })
    await scanner.scan(w.reader, w.chain)
    const late = randomAccount()
    w.setDebt(late, 10n * ONE)
    scanner.addBorrowers([late])
    const r = await scanner.scan(w.reader, w.chain)
    expect(debtOf(r, late)).toBe(10n * ONE)
  })
})

describe('incremental pool state: the adapter', () => {
  it('counts full reads, positions read and mismatches, and logs each mismatch', async () => {
    const w = world()
    let now = 0
    const counted: string[] = []
    const warned: { obj: Record<string, unknown>; msg: string }[] = []
    const a = lendingPoolAdapter({
      pool: w.pool,
      usdc: w.usdc,
      minProfit: 1.02,
      slippageBps: 100,
      reader: w.reader,
      now: () => now,
      fullScanMinutes: 5,
      metrics: {
        poolFullRead: (reason) => counted.push(`full:${reason}`),
        poolCacheMismatches: (n) => counted.push(`mismatches:${n}`),
        poolPositionsRead: (n) => counted.push(`read:${n}`),
      },
      logger: { warn: (obj: Record<string, unknown>, msg: string) => warned.push({ obj, msg }) } as never,
    })
    await a.getTasks(w.chain)
    w.ledger.set(
      positionsKey(w.pool, w.healthy),
      contractEntry(positionsKey(w.pool, w.healthy), encodePositions({ collateral: new Map([[1, 1000n * ONE]]), liabilities: new Map([[0, 60n * ONE]]), supply: new Map() })),
    )
    await a.getTasks(w.chain)
    now = 5 * MINUTE
    await a.getTasks(w.chain)
    expect(counted).toEqual(['full:cold', 'read:2', 'read:1', 'full:audit', 'mismatches:1', 'read:2'])
    expect(warned).toEqual([
      {
        obj: { user: w.healthy, cached: `liabilities {0: ${50n * ONE}}, collateral {1: ${1000n * ONE}}, supply {}`, read: `liabilities {0: ${60n * ONE}}, collateral {1: ${1000n * ONE}}, supply {}` },
        msg: 'pool state: cached positions differed from the chain; replaced',
      },
    ])
  })
})

describe('incremental pool state: the cache', () => {
  const read = (debt: bigint, lastModified = 5): ReadPositions => ({
    positions: { liabilities: new Map([[0, debt]]), collateral: new Map(), supply: new Map() },
    present: true,
    lastModified,
  })

  it('is due a cold read first, then audits on its interval (and after the clock went back)', () => {
    const s = new PoolState({ fullReadEveryMs: 100 })
    expect(s.fullReadDue(0)).toBe('cold')
    s.replaceAll('cold', new Map(), 1000, { changed: new Set(), coveredThrough: 0 })
    expect(s.fullReadDue(1099)).toBeUndefined()
    expect(s.fullReadDue(1100)).toBe('audit')
    expect(s.fullReadDue(999)).toBe('audit')
    expect(() => new PoolState({ fullReadEveryMs: -1 })).toThrow(/fullReadEveryMs/)
  })

  it('an entry written after the events read is not a mismatch (the next events name it)', () => {
    const s = new PoolState()
    s.replaceAll('cold', new Map([['A', read(1n)], ['B', read(1n)]]), 0, { changed: new Set(), coveredThrough: 10 })
    const r = s.replaceAll('audit', new Map([['A', read(2n, 11)], ['B', read(3n, 10)]]), 1, { changed: new Set(), coveredThrough: 10 })
    expect(r.mismatches.map((m) => m.user)).toEqual(['B'])
    expect(s.get('A')!.positions.liabilities.get(0)).toBe(2n)
  })

  it('reads named users it knows and every user it has not read yet', () => {
    const s = new PoolState()
    s.add(['A', 'B'])
    expect(s.known()).toEqual(['A', 'B'])
    s.update(new Map([['A', read(1n)]]))
    expect(s.toRead(['A', 'X'])).toEqual(['A', 'B'])
    s.update(new Map([['B', read(1n)]]))
    expect(s.toRead([])).toEqual([])
    expect(s.size).toBe(2)
  })

  it('compares positions by amounts', () => {
    expect(samePositions(emptyPositions(), emptyPositions())).toBe(true)
    expect(samePositions(read(1n).positions, read(1n).positions)).toBe(true)
    expect(samePositions(read(1n).positions, read(2n).positions)).toBe(false)
    expect(samePositions(read(1n).positions, emptyPositions())).toBe(false)
  })
})
