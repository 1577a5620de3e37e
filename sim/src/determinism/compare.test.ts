import { describe, expect, it } from 'vitest'
import { describeTraces, firstDifference, sideOf, storedSide } from './compare.js'
import { GENESIS_HEAD, groupRequests, ledgerDigest, nextHead, storedLine, type EntryItem, type LedgerTrace, type TxItem } from './trace.js'
import { parseTrace, traceText, TraceFileError } from './traceFile.js'

/** Set-up ends at ledger 100; records 100 (set-up), 101, 102–110 (a fast-forward), 111, 112. */
const START = 100

interface Spec {
  from: number
  to?: number
  txs?: TxItem[]
  requests?: { agent: string; method: string; key: string }[]
  entries?: EntryItem[]
}

const tx = (n: number, agent: string): TxItem => ({ hash: n.toString(16).padEnd(64, '0'), source: `G${'A'.repeat(55)}`, agent, success: true, fee: '100' })
const entry = (name: string, value: string | null): EntryItem => ({ name, value })

function build(specs: Spec[]): { records: LedgerTrace[]; startLedger: number; ledgers: number } {
  let head = GENESIS_HEAD
  const records = specs.map((s) => {
    const to = s.to ?? s.from
    const txs = s.txs ?? []
    const requests = groupRequests(s.requests ?? [])
    const entries = s.entries ?? []
    const digest = ledgerDigest(s.from, to, txs, requests, entries)
    head = nextHead(head, digest)
    return { from: s.from, to, txs, requests, entries, digest, head }
  })
  return { records, startLedger: START, ledgers: 112 }
}

function base(): Spec[] {
  return [
    { from: 100, txs: [tx(1, 'setup')], requests: [{ agent: 'keeper-1', method: 'getNetwork', key: '' }], entries: [entry('account GA', 'aa')] },
    {
      from: 101,
      txs: [tx(2, 'environment'), tx(3, 'keeper-1')],
      requests: [
        { agent: 'keeper-2', method: 'getLatestLedger', key: '' },
        { agent: 'environment', method: 'sendTransaction', key: 'e1' },
        { agent: 'keeper-1', method: 'getLedgerEntries', key: 'k1' },
        { agent: 'keeper-2', method: 'getLedgerEntries', key: 'k1' },
        { agent: 'keeper-2', method: 'simulateTransaction', key: 's1' },
      ],
      entries: [entry('account GB', 'b1'), entry('contract CX [Balance,GB]', 'c1'), entry('ttl 1234', null)],
    },
    { from: 102, to: 110 },
    { from: 111, txs: [tx(4, 'keeper-2')], entries: [entry('contract CX [Positions,GB]', 'p1')] },
    { from: 112, requests: [{ agent: 'keeper-1', method: 'getTransaction', key: 'h' }] },
  ]
}

function changed(edit: (s: Spec[]) => void): ReturnType<typeof build> {
  const s = base()
  edit(s)
  return build(s)
}

const diff = (b: ReturnType<typeof build>) => describeTraces(sideOf('run 1', build(base())), sideOf('run 2', b))

describe('comparing determinism traces', () => {
  it('finds nothing between two equal traces, and the chain heads match', () => {
    expect(describeTraces(sideOf('a', build(base())), sideOf('b', build(base())))).toBeNull()
    expect(build(base()).records.at(-1)!.head).toBe(build(base()).records.at(-1)!.head)
  })

  it('names the ledger and the transaction (position, agent, hash) when one differs', () => {
    const b = changed((s) => (s[1]!.txs![1] = tx(9, 'keeper-2')))
    const d = firstDifference(sideOf('run 1', build(base())), sideOf('run 2', b))
    expect(d).toMatchObject({ record: 1, ledger: 101 })
    const text = diff(b)!
    expect(text).toContain('first differing ledger: 101 — ledger 101 (step 1)')
    expect(text).toContain(`transaction #1: run 1: keeper-1 3${'0'.repeat(15)} from GAAAAAAA…, succeeded, fee 100; run 2: keeper-2 9${'0'.repeat(15)}`)
    // the entries are the same: the state agrees
    expect(text).toContain('the chain state (every ledger entry) is the same in both runs')
    // and every record after it differs in its chain head only
    expect(b.records.at(-1)!.head).not.toBe(build(base()).records.at(-1)!.head)
  })

  it("names the agent, the index among that agent's requests, the method and key of a differing request", () => {
    const text = diff(changed((s) => (s[1]!.requests![4] = { agent: 'keeper-2', method: 'getEvents', key: 'ev9' })))!
    expect(text).toContain('first differing ledger: 101')
    expect(text).toContain('request keeper-2 #2: run 1: simulateTransaction s1; run 2: getEvents ev9 (3 vs 3 requests)')
  })

  it('names a request only one run made', () => {
    const text = diff(changed((s) => s[4]!.requests!.push({ agent: 'keeper-1', method: 'getTransaction', key: 'h2' })))!
    expect(text).toContain('first differing ledger: 112 — ledger 112 (step 12)')
    expect(text).toContain('request keeper-1 #1: run 1: none; run 2: getTransaction h2 (1 vs 2 requests)')
  })

  it('ignores how different agents interleaved their requests', () => {
    // keeper-2's requests moved after everyone else's, in their own order
    const b = changed((s) => {
      const r = s[1]!.requests!
      s[1]!.requests = [...r.filter((x) => x.agent !== 'keeper-2'), ...r.filter((x) => x.agent === 'keeper-2')]
    })
    expect(diff(b)).toBeNull()
    // but not how one agent ordered its own
    expect(diff(changed((s) => s[1]!.requests!.reverse()))).toContain('request keeper-2 #0: run 1: getLatestLedger (no key); run 2: simulateTransaction s1')
  })

  it('names the ledger entry by its readable key, and the ledger where the state first differs', () => {
    const text = diff(changed((s) => (s[3]!.entries![0] = entry('contract CX [Positions,GB]', 'p2'))))!
    expect(text).toContain('first differing ledger: 111 — ledger 111 (step 11)')
    expect(text).toContain('entry contract CX [Positions,GB]: run 1: value p1; run 2: value p2')
    expect(text).not.toContain('first ledger whose state differs')
  })

  it('gives the first differing ledger and, separately, the later one whose state differs', () => {
    const text = diff(
      changed((s) => {
        s[1]!.txs![0] = { ...tx(2, 'environment'), hash: 'f'.repeat(64) }
        s[3]!.entries!.push(entry('contract CX [Positions,GC]', null))
      }),
    )!
    expect(text).toContain('first differing ledger: 101')
    expect(text).toContain('(same source, result and fee: only the envelope differs, e.g. its time bounds)')
    expect(text).toContain('first ledger whose state differs: 111 — ledger 111 (step 11)')
    expect(text).toContain('entry contract CX [Positions,GC]: run 1: not changed; run 2: deleted')
    expect(text).not.toContain('entries differ)')
    const two = diff(changed((s) => (s[1]!.entries = [entry('account GB', 'b2'), entry('contract CX [Balance,GB]', 'c2'), entry('ttl 1234', null)])))!
    expect(two).toContain('entry account GB: run 1: value b1; run 2: value b2 (2 of 3 entries differ)')
  })

  it('reports a fast-forward that closed a different range', () => {
    const text = diff(
      changed((s) => {
        s.splice(2, 1, { from: 102, to: 105 }, { from: 106, to: 110 })
      }),
    )!
    expect(text).toContain('first differing ledger: 102 — ledgers 102–110 (steps 2–10, one fast-forward)')
    expect(text).toContain('closed as run 1: ledgers 102–110; run 2: ledgers 102–105')
  })

  it('reports a run with more records', () => {
    const text = diff(changed((s) => s.push({ from: 113, requests: [{ agent: 'keeper-1', method: 'getHealth', key: '' }] })))!
    expect(text).toContain('first differing ledger: 113')
    expect(text).toContain('run 2 has more records: ledger 113 and 0 after it')
  })

  it('compares a stored trace with a fresh run, naming items from the fresh side', () => {
    const stored = storedSide("sweep's run", parseTrace(traceText(build(base()).records, START, 112)))
    const fresh = sideOf('re-run', changed((s) => (s[1]!.entries![1] = entry('contract CX [Balance,GB]', 'c9'))))
    const text = describeTraces(stored, fresh)!
    expect(text).toContain('first differing ledger: 101 — ledger 101 (step 1)')
    expect(text).toMatch(/entry contract CX \[Balance,GB\]: sweep's run: item digest [0-9a-f]{6}; re-run: value c9/)
    expect(describeTraces(stored, sideOf('re-run', build(base())))).toBeNull()
  })

  it('says where a record sits: set-up, and the requests after the last close', () => {
    const setup = diff(changed((s) => (s[0]!.entries![0] = entry('account GA', 'zz'))))!
    expect(setup).toContain('first differing ledger: 100 — ledger 100 (set-up)')
    const a = build(base())
    const after = describeTraces(sideOf('run 1', { ...a, ledgers: 111 }), sideOf('run 2', { ...changed((s) => (s[4]!.requests![0]!.key = 'h9')), ledgers: 111 }))!
    expect(after).toContain('first differing ledger: 112 — ledger 112: requests made after the last close')
  })
})

describe('trace.jsonl', () => {
  it('holds a header and one compact line per record, read back as written', () => {
    const { records } = build(base())
    const text = traceText(records, START, 112)
    const t = parseTrace(text)
    expect(t.header).toEqual({ trace: 1, start: START, records: 5, ledgers: 112, head: records.at(-1)!.head })
    expect(t.lines).toEqual(records.map(storedLine))
    expect(t.lines[2]).toEqual({ l: 102, n: 9, d: records[2]!.digest.slice(0, 16), h: records[2]!.head })
    expect(t.lines[1]!.r!['keeper-2']).toMatch(/^[0-9a-f]{18}$/)
    expect(t.lines[1]!.e).toMatch(/^[0-9a-f]{36}$/)
  })

  it('refuses what is not a trace, or a truncated one', () => {
    expect(() => parseTrace('{"x":1}\n')).toThrow(TraceFileError)
    const text = traceText(build(base()).records, START, 112)
    expect(() => parseTrace(text.split('\n').slice(0, 3).join('\n'))).toThrow(/2 records, the header says 5/)
  })
})
