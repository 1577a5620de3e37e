/**
 * The pool's borrower positions kept between scans, so that a scan pays per change, not per
 * borrower.
 *
 * A position only changes through a pool call, and every such call emits a pool event naming the
 * user (supply, withdraw, supply_collateral, withdraw_collateral, borrow, repay, flash_loan,
 * fill_auction, bad_debt: see poolEvents.ts). So after a first full read, a scan re-reads only
 * the positions of the users the events since the last scan name, plus borrowers it has never
 * read. Health factors are recomputed from these cached positions every scan (prices and
 * accrual move them all).
 *
 * A full read of every known borrower replaces the cache:
 * - on the first scan ("cold");
 * - after a gap in the events (the saved cursor fell out of the node's retention window, or the
 *   keeper restarted): "gap";
 * - every `fullReadEveryMs` ("audit"): it checks the cache, and each cached entry that differs
 *   from what was read (and was not changed after the events this scan read) is a mismatch,
 *   reported and replaced. 0 reads everything every scan ("every-scan"), the behaviour before
 *   the cache.
 */
import type { Positions } from './storage.js'

export type FullReadReason = 'cold' | 'gap' | 'audit' | 'every-scan'

/** One positions entry as read: absent when the pool holds none for the user. */
export interface ReadPositions {
  positions: Positions
  present: boolean
  /** The ledger that last wrote the entry (0 when absent). */
  lastModified: number
}

export interface CacheMismatch {
  user: string
  cached: Positions
  read: Positions
}

export interface FullReadReport {
  reason: FullReadReason
  /** Positions entries read. */
  read: number
  /** Cached entries that differed from the full read (an audit only). */
  mismatches: CacheMismatch[]
}

/** Default interval of the cache audit (a full read), in ms. */
export const DEFAULT_FULL_READ_EVERY_MS = 10 * 60_000

function sameMap(a: ReadonlyMap<number, bigint>, b: ReadonlyMap<number, bigint>): boolean {
  if (a.size !== b.size) return false
  for (const [k, v] of a) if (b.get(k) !== v) return false
  return true
}

/** Whether two positions hold the same amounts (entries with 0 are kept by the pool as is). */
export function samePositions(a: Positions, b: Positions): boolean {
  return sameMap(a.liabilities, b.liabilities) && sameMap(a.collateral, b.collateral) && sameMap(a.supply, b.supply)
}

/** Positions as text for a log line: `liabilities {0: 12}, collateral {1: 5}, supply {}`. */
export function positionsText(p: Positions): string {
  const m = (x: ReadonlyMap<number, bigint>) => `{${[...x].map(([k, v]) => `${k}: ${v}`).join(', ')}}`
  return `liabilities ${m(p.liabilities)}, collateral ${m(p.collateral)}, supply ${m(p.supply)}`
}

export class PoolState {
  /** Cached positions per borrower read at least once, in first-seen order. */
  private readonly cache = new Map<string, ReadPositions>()
  /** Known borrowers not read yet (from events, hints, the watch list). */
  private readonly pending = new Set<string>()
  private lastFullReadMs: number | undefined
  private readonly fullReadEveryMs: number

  constructor(opts: { fullReadEveryMs?: number } = {}) {
    this.fullReadEveryMs = opts.fullReadEveryMs ?? DEFAULT_FULL_READ_EVERY_MS
    if (!(this.fullReadEveryMs >= 0)) throw new Error(`fullReadEveryMs must be >= 0, got ${this.fullReadEveryMs}`)
  }

  /** Borrowers to track: read at the next scan unless already cached. */
  add(users: Iterable<string>): void {
    for (const u of users) if (!this.cache.has(u)) this.pending.add(u)
  }

  /** Every known borrower: cached ones in first-seen order, then those not read yet. */
  known(): string[] {
    return [...this.cache.keys(), ...[...this.pending].filter((u) => !this.cache.has(u))]
  }

  get size(): number {
    return this.cache.size + this.pending.size
  }

  /** Why this scan must read every borrower, or undefined when the changes will do. */
  fullReadDue(nowMs: number): FullReadReason | undefined {
    if (this.lastFullReadMs === undefined) return 'cold'
    if (this.fullReadEveryMs === 0) return 'every-scan'
    if (nowMs - this.lastFullReadMs >= this.fullReadEveryMs || nowMs < this.lastFullReadMs) return 'audit'
    return undefined
  }

  /** The users whose positions this scan must read: those named by events, and the unread. */
  toRead(touched: Iterable<string>): string[] {
    const out = new Set<string>()
    for (const u of touched) if (this.cache.has(u)) out.add(u)
    for (const u of this.pending) out.add(u)
    return [...out]
  }

  /** Store positions read for some users (changes named by events, new borrowers). */
  update(read: ReadonlyMap<string, ReadPositions>): void {
    for (const [u, r] of read) {
      this.cache.set(u, r)
      this.pending.delete(u)
    }
  }

  /**
   * Store a full read. An audit first checks the cache: an entry that differs from its cached
   * value is a mismatch, unless this scan's events name its user (`changed`: a change the cache
   * is about to take in) or it was written after `coveredThrough`, the last ledger those events
   * cover (a change the next scan's events will name). After a gap the cache is known to be
   * behind: it is replaced without a check.
   */
  replaceAll(
    reason: FullReadReason,
    read: ReadonlyMap<string, ReadPositions>,
    nowMs: number,
    events: { changed: ReadonlySet<string>; coveredThrough: number },
  ): FullReadReport {
    const mismatches: CacheMismatch[] = []
    for (const [u, r] of read) {
      const cached = this.cache.get(u)
      if (
        reason === 'audit' &&
        cached !== undefined &&
        !events.changed.has(u) &&
        r.lastModified <= events.coveredThrough &&
        !samePositions(cached.positions, r.positions)
      ) {
        mismatches.push({ user: u, cached: cached.positions, read: r.positions })
      }
      this.cache.set(u, r)
      this.pending.delete(u)
    }
    this.lastFullReadMs = nowMs
    return { reason, read: read.size, mismatches }
  }

  /** Cached positions of every read borrower. */
  entries(): IterableIterator<[string, ReadPositions]> {
    return this.cache.entries()
  }

  get(user: string): ReadPositions | undefined {
    return this.cache.get(user)
  }
}
