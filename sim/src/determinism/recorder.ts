/**
 * Builds a run's determinism trace (trace.ts) as the run goes: the agents' requests arrive
 * through the `onRequest` hook, tagged with the ledger being built; the ledgers each close
 * made — one, or a fast-forwarded range — become one record, read back with getLedgers a page
 * of up to 200 ledgers at a time (and at the end). The set-up's ledgers (up to the lockstep's
 * start) are a record each; the requests made after the last close form a last record.
 */
import type { AppliedTx } from '../lockstep/mempool.js'
import { EntryNamer } from './entryKey.js'
import { readLedgerChanges, type LedgerChanges } from './ledgerMeta.js'
import { writeTrace } from './traceFile.js'
import { GENESIS_HEAD, groupRequests, ledgerDigest, nextHead, sha256, type EntryItem, type LedgerTrace, type TxItem } from './trace.js'

/** What the recorder reads the chain through (a Sandbox has both). */
export interface TraceNode {
  call<T = unknown>(method: string, params?: unknown): Promise<T>
  networkPassphrase: string
}

interface Made {
  agent: string
  method: string
  key: string
}

interface GetLedgersAnswer {
  ledgers: { sequence: number; metadataXdr: string }[]
}

/** getLedgers' largest page. */
const PAGE = 200

export class TraceRecorder {
  readonly records: LedgerTrace[] = []
  /** Milliseconds spent reading and digesting ledgers (the trace's own cost). */
  costMs = 0
  private head = GENESIS_HEAD
  private readonly made = new Map<number, Made[]>()
  private node: TraceNode | undefined
  private journal: readonly AppliedTx[] = []
  private journalSeen = 0
  private readonly keeperTx = new Map<string, string>()
  private readonly names = new EntryNamer()
  /** The set-up's last ledger. */
  startLedger = 0
  /** The next ledger to record. */
  private next = 1
  /** Closed ranges not read back yet, with the requests made while they were built. */
  private pending: { from: number; to: number; made: Made[] }[] = []

  /** An agent's request while `ledger` was being built. */
  request(ledger: number, agent: string, method: string, key: string): void {
    const list = this.made.get(ledger)
    if (list === undefined) this.made.set(ledger, [{ agent, method, key }])
    else list.push({ agent, method, key })
  }

  /**
   * The set-up is done (its last ledger is `startLedger`): records ledgers 1..startLedger one by
   * one (the set-up closes a ledger per transaction); the requests the agents made meanwhile
   * (all tagged ledger 1: the run's clock starts after the set-up) go with the last of them.
   */
  async begin(node: TraceNode, journal: readonly AppliedTx[], startLedger: number): Promise<void> {
    this.node = node
    this.journal = journal
    this.startLedger = startLedger
    const t0 = performance.now()
    const ledgers = await this.fetch(1, startLedger)
    const made = this.take(startLedger)
    for (const l of ledgers) this.add(l.sequence, l.sequence, [l], l.sequence === startLedger ? made : [])
    this.next = startLedger + 1
    this.costMs += performance.now() - t0
  }

  /**
   * Ledgers up to `latest` have closed: the ones not recorded yet become one record. They are
   * read back a page at a time (history does not change), so most closes cost no call.
   */
  async closed(latest: number): Promise<void> {
    if (this.node === undefined || latest < this.next) return
    this.pending.push({ from: this.next, to: latest, made: this.take(latest) })
    this.next = latest + 1
    if (latest - this.pending[0]!.from + 1 >= PAGE) await this.flush()
  }

  /** Reads back the pending ranges and records them. */
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return
    const t0 = performance.now()
    const ranges = this.pending
    this.pending = []
    const ledgers = await this.fetch(ranges[0]!.from, ranges[ranges.length - 1]!.to)
    let i = 0
    for (const r of ranges) {
      const mine = ledgers.slice(i, i + r.to - r.from + 1)
      i += mine.length
      this.add(r.from, r.to, mine, r.made)
    }
    this.costMs += performance.now() - t0
  }

  private async fetch(from: number, to: number): Promise<LedgerChanges[]> {
    const node = this.node!
    const out: LedgerChanges[] = []
    for (let start = from; start <= to; ) {
      const page = await node.call<GetLedgersAnswer>('getLedgers', { startLedger: start, pagination: { limit: Math.min(PAGE, to - start + 1) } })
      if (page.ledgers.length === 0) throw new Error(`getLedgers from ${start} returned no ledger (latest closed: ${to})`)
      for (const l of page.ledgers) if (l.sequence <= to) out.push(readLedgerChanges(l.metadataXdr, node.networkPassphrase))
      start = page.ledgers[page.ledgers.length - 1]!.sequence + 1
    }
    if (out.length !== to - from + 1) throw new Error(`getLedgers ${from}..${to} returned ${out.length} ledgers`)
    return out
  }

  /** The requests tagged with ledgers up to `to`, in ledger order, forgotten here. */
  private take(to: number): Made[] {
    const made: Made[] = []
    for (const [l, m] of [...this.made.entries()].sort((a, b) => a[0] - b[0])) {
      if (l > to) continue
      made.push(...m)
      this.made.delete(l)
    }
    return made
  }

  /**
   * The run is over: records what is pending, then the requests made after the last close as a
   * last record (when there are any). `records` is complete after this.
   */
  async end(): Promise<void> {
    await this.flush()
    if (this.made.size === 0) return
    this.push(this.next, this.next, [], groupRequests(this.take(Infinity)), [])
  }

  /** The chain head after the last record. */
  get chainHead(): string {
    return this.head
  }

  /** Ledgers closed so far (all of 1..this); recorded once `end` has run. */
  get ledgers(): number {
    return this.next - 1
  }

  /** Writes trace.jsonl (traceFile.ts). */
  async write(path: string): Promise<void> {
    await writeTrace(path, this.records, this.startLedger, this.ledgers)
  }

  private agentOf(hash: string, ledger: number): string {
    for (; this.journalSeen < this.journal.length; this.journalSeen++) {
      const j = this.journal[this.journalSeen]!
      this.keeperTx.set(j.hash, j.agent)
    }
    return this.keeperTx.get(hash) ?? (ledger <= this.startLedger ? 'setup' : 'environment')
  }

  private add(from: number, to: number, ledgers: LedgerChanges[], made: Made[]): void {
    const txs: TxItem[] = []
    const values = new Map<string, string | null>()
    for (const l of ledgers) {
      for (const t of l.transactions) txs.push({ hash: t.hash, source: t.source, agent: this.agentOf(t.hash, l.sequence), success: t.success, fee: String(t.feeCharged) })
      for (const c of l.changes) this.names.learn(c)
      for (const c of l.changes) values.set(this.names.name(c), 'removed' in c ? null : sha256(Buffer.from(c.raw.buffer, c.raw.byteOffset, c.raw.byteLength)))
    }
    const entries: EntryItem[] = [...values.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([name, value]) => ({ name, value }))
    this.push(from, to, txs, groupRequests(made), entries)
  }

  private push(from: number, to: number, txs: TxItem[], requests: LedgerTrace['requests'], entries: EntryItem[]): void {
    const digest = ledgerDigest(from, to, txs, requests, entries)
    this.head = nextHead(this.head, digest)
    this.records.push({ from, to, txs, requests, entries, digest, head: this.head })
  }
}
