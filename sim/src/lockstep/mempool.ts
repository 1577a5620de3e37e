/**
 * The transactions sent during the ledger being built, and what the next close does with them.
 * A transaction whose arrival (its seeded latency) is past the ledger's length has not reached
 * the network yet: it waits for the next ledger, as do the later ones from its account (a source
 * account's transactions apply in sequence-number order, as on a real network). Of the rest:
 *
 * - `latency` ordering (`plan`): the sim decides. The environment's first (oracle posts, flows,
 *   trades: class 0), then every keeper's by arrival time, ties by agent and content; the node
 *   applies exactly that list, without limits, at the base fee.
 * - `core` ordering (`arrivals`): the node decides. Everything that arrived is handed to it as
 *   candidates; its ledger limits and surge pricing choose what goes in (highest inclusion fee
 *   first), stellar-core's apply order orders it, and its queue keeps what did not fit (dropped
 *   after 4 closes). `closed` then takes the node's answer: what it applied, in order, and what
 *   it dropped.
 *
 * Every keeper transaction a close applied is kept in `journal` (ledger, position, seeded
 * latency): the report reads each one's fee and operations back from the node afterwards.
 *
 * The network takes one transaction per source account at a time (`admits`), as stellar-core's
 * queue does: a second one from an account with one pending is answered TRY_AGAIN_LATER, except a
 * fee bump of the same sequence number, which the node's replace-by-fee rule then judges.
 */
export interface Submission {
  hash: string
  agent: string
  /** 0 = environment (applied first), 1 = keepers. */
  klass: 0 | 1
  /** Milliseconds after the ledger opened that it reaches the network (moved on while it waits). */
  arrivalMs: number
  /** The seeded latency drawn when it was sent (ms; 0 for the environment); never moved. */
  latencyMs: number
  /** The ledger being built when it was sent (a fee bump: when the transaction it replaced was). */
  submittedLedger: number
  /** A tie-breaker independent of event-loop timing (the operations' content and occurrence). */
  key: string
  source: string
  seq: bigint
}

/** A keeper transaction as a close applied it. */
export interface AppliedTx {
  hash: string
  agent: string
  /** The account that sent it (the operator, or one of its channel accounts). */
  source: string
  /** The seeded latency drawn when it was sent (ms). */
  latencyMs: number
  submittedLedger: number
  /** The ledger that applied it. */
  ledger: number
  /** Its index in that ledger's order (environment transactions included). */
  position: number
  /** Its arrival in that ledger's order (ms after the ledger opened). */
  arrivalMs: number
}

export interface ClosePlan {
  order: string[]
  held: number
}

/** What happened to a transaction that is no longer pending. */
export type Fate = 'applied' | 'dropped' | 'replaced'

export class Mempool {
  private pending: Submission[] = []
  private readonly waiters = new Map<string, (() => void)[]>()
  /** Woken by the next close, whatever it applied. */
  private closeWaiters: (() => void)[] = []
  /** What became of transactions no longer pending (kept for a while for their senders). */
  private readonly fates = new Map<string, Fate>()
  /** Arrival of each transaction in the last plan (ms). */
  private planned = new Map<string, number>()
  /** Keeper transactions applied so far, in the order they were applied. */
  readonly journal: AppliedTx[] = []
  /** Keeper transactions the node's queue dropped (never applied), per agent. */
  readonly droppedBy = new Map<string, number>()
  /** Fee bumps the node took in place of a queued transaction, per agent. */
  readonly bumpsBy = new Map<string, number>()
  /** Transactions the node accepted during the run, per source account. */
  readonly sentBySource = new Map<string, number>()
  /** Sends answered TRY_AGAIN_LATER (`admits` said no), per agent. */
  readonly tryAgainLaterBy = new Map<string, number>()
  /**
   * Accounts whose transaction the node has accepted but whose sender has not entered it here
   * yet (`add` runs when its answer is released): a send in between must see it queued.
   */
  private readonly claims = new Map<string, { hash: string; seq: bigint }>()

  /** While set up runs on a node that closes a ledger per transaction, nothing waits here. */
  bypass = false

  /** Who orders a ledger: the sim (`latency`) or the node (`core`). */
  constructor(readonly ordering: 'latency' | 'core' = 'latency') {}

  add(s: Submission): void {
    if (this.claims.get(s.source)?.hash === s.hash) this.claims.delete(s.source)
    if (this.bypass) return
    this.pending.push(s)
    this.sentBySource.set(s.source, (this.sentBySource.get(s.source) ?? 0) + 1)
  }

  /**
   * Whether the network takes a transaction (`hash`) from `source` with sequence number `seq` now
   * (stellar-core TransactionQueue::canAdd, src/herder/TransactionQueue.cpp): yes when the account
   * has nothing pending, or for the pending one itself (the node answers DUPLICATE), or for a fee
   * bump of the pending one's sequence number (the node's replace-by-fee rule decides). Anything
   * else waits for a close: TRY_AGAIN_LATER. Always yes while set-up bypasses the mempool.
   */
  admits(source: string, seq: bigint, hash: string, feeBump: boolean): boolean {
    if (this.bypass) return true
    const queued = this.pending.find((s) => s.source === source) ?? this.claims.get(source)
    if (queued === undefined || queued.hash === hash) return true
    return feeBump && queued.seq === seq
  }

  /** The node accepted `hash` from `source`: the account counts as queued until `add` enters it. */
  claim(source: string, seq: bigint, hash: string): void {
    if (!this.bypass) this.claims.set(source, { hash, seq })
  }

  /** A send of `agent` was answered TRY_AGAIN_LATER. */
  refused(agent: string): void {
    this.tryAgainLaterBy.set(agent, (this.tryAgainLaterBy.get(agent) ?? 0) + 1)
  }

  isPending(hash: string): boolean {
    return this.pending.some((s) => s.hash === hash)
  }

  get size(): number {
    return this.pending.length
  }

  /**
   * How many of `agents`' pending transactions reach the network within a ledger of `ledgerMs`
   * (arrival before its end): what a back-runner watching the network sees coming in this ledger.
   * Looks only; `plan` still decides.
   */
  arriving(ledgerMs: number, agents: ReadonlySet<string>): number {
    return this.pending.filter((s) => agents.has(s.agent) && (s.klass === 0 || s.arrivalMs < ledgerMs)).length
  }

  /** Resolves after the close that applied `hash` (at once when it is not pending). */
  applied(hash: string): Promise<void> {
    if (!this.isPending(hash)) return Promise.resolve()
    return new Promise((resolve) => {
      const list = this.waiters.get(hash) ?? []
      list.push(resolve)
      this.waiters.set(hash, list)
    })
  }

  /** What became of a transaction: undefined while pending (or never seen). */
  fate(hash: string): Fate | undefined {
    return this.fates.get(hash)
  }

  /** Resolves after the next close (core ordering: the node may keep a transaction waiting). */
  nextClose(): Promise<void> {
    return new Promise((resolve) => this.closeWaiters.push(resolve))
  }

  /**
   * A fee bump replaced the pending transaction of `source` with sequence `seq` in the node's
   * queue: that one is forgotten (its sender's wait ends; the node no longer knows it). Returns
   * the ledger the replaced one was sent in (undefined when none was pending).
   */
  replaced(source: string, seq: bigint, by: string, agent: string): number | undefined {
    const old = this.pending.filter((s) => s.source === source && s.seq === seq && s.hash !== by)
    if (old.length === 0) return undefined
    this.bumpsBy.set(agent, (this.bumpsBy.get(agent) ?? 0) + 1)
    this.pending = this.pending.filter((s) => !old.includes(s))
    for (const s of old) this.settle(s.hash, 'replaced')
    return Math.min(...old.map((s) => s.submittedLedger))
  }

  /**
   * Core ordering: the transactions that have reached the network by the end of a ledger of
   * `ledgerMs` (the node's candidates, in arrival order); the others' arrival moves on.
   */
  arrivals(ledgerMs: number): string[] {
    return this.plan(ledgerMs).order
  }

  /** What the next ledger applies, in order; the rest stays pending with its arrival moved on. */
  plan(ledgerMs: number): ClosePlan {
    const bySource = new Map<string, Submission[]>()
    for (const s of this.pending) {
      const list = bySource.get(s.source) ?? []
      list.push(s)
      bySource.set(s.source, list)
    }
    const go: { s: Submission; at: number }[] = []
    for (const list of bySource.values()) {
      list.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))
      let at = 0
      for (const s of list) {
        at = Math.max(at, s.klass === 0 ? 0 : s.arrivalMs)
        if (at >= ledgerMs) break
        go.push({ s, at })
      }
    }
    go.sort((a, b) => a.s.klass - b.s.klass || a.at - b.at || cmp(a.s.agent, b.s.agent) || cmp(a.s.key, b.s.key))
    this.planned = new Map(go.map((g) => [g.s.hash, g.at]))
    const chosen = new Set(go.map((g) => g.s.hash))
    for (const s of this.pending) if (!chosen.has(s.hash)) s.arrivalMs = Math.max(0, s.arrivalMs - ledgerMs)
    return { order: go.map((g) => g.s.hash), held: this.pending.length - go.length }
  }

  /**
   * After the close of `ledger`: journal and drop what was applied (`order`, as applied) and
   * what the node dropped from its queue, wake whoever waits for them. Core ordering: what
   * arrived but did not fit stays pending and is a candidate again at once.
   */
  closed(order: readonly string[], ledger: number, dropped: readonly string[] = []): void {
    const done = new Set([...order, ...dropped])
    const byHash = new Map(this.pending.map((s) => [s.hash, s]))
    for (const [position, hash] of order.entries()) {
      const s = byHash.get(hash)
      if (s === undefined || s.klass !== 1) continue
      this.journal.push({ hash, agent: s.agent, source: s.source, latencyMs: s.latencyMs, submittedLedger: s.submittedLedger, ledger, position, arrivalMs: this.planned.get(hash) ?? s.arrivalMs })
    }
    for (const h of dropped) {
      const s = byHash.get(h)
      if (s !== undefined && s.klass === 1) this.droppedBy.set(s.agent, (this.droppedBy.get(s.agent) ?? 0) + 1)
    }
    this.pending = this.pending.filter((s) => !done.has(s.hash))
    this.claims.clear()
    for (const h of order) this.settle(h, 'applied')
    for (const h of dropped) this.settle(h, 'dropped')
    for (const s of this.pending) if (this.planned.has(s.hash)) s.arrivalMs = 0
    const closes = this.closeWaiters
    this.closeWaiters = []
    for (const w of closes) w()
  }

  private settle(hash: string, fate: Fate): void {
    this.fates.set(hash, fate)
    if (this.fates.size > 50_000) this.fates.delete(this.fates.keys().next().value!)
    for (const w of this.waiters.get(hash) ?? []) w()
    this.waiters.delete(hash)
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
