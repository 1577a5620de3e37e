/**
 * The first difference between two determinism traces: the first record whose ledger digest
 * differs, and in it the first differing transaction, agent request and ledger entry.
 *
 * Either side is a stored trace (trace.jsonl lines) with, when the run is at hand, its full
 * records: items are matched on their stored digests and named from the full records where
 * there are some (a side read from a file alone is named by its digests).
 */
import type { StoredTrace } from './traceFile.js'
import { entryDigests, storedLine, ITEM_DIGITS, type EntryItem, type LedgerTrace, type RequestItem, type StoredLine, type TxItem } from './trace.js'

export interface TraceSide {
  /** What to call this side in messages ("run 1", "the sweep's run"). */
  label: string
  lines: readonly StoredLine[]
  /** The full records behind `lines` (same order), when the run was traced in this process. */
  records?: readonly LedgerTrace[]
  /** The set-up's last ledger. */
  start: number
  /** Ledgers closed (a last record beyond them holds the requests made after the last close). */
  ledgers: number
}

export interface TraceDifference {
  /** Index of the first differing record. */
  record: number
  /** Its first ledger (on side a). */
  ledger: number
  /** What differs, one line each: the range, a transaction, a request, an entry. */
  details: string[]
}

/** A run traced in this process as a comparison side. */
export function sideOf(label: string, t: { records: readonly LedgerTrace[]; startLedger: number; ledgers: number }): TraceSide {
  return { label, lines: t.records.map(storedLine), records: t.records, start: t.startLedger, ledgers: t.ledgers }
}

/** A trace file as a comparison side. */
export function storedSide(label: string, t: StoredTrace): TraceSide {
  return { label, lines: t.lines, start: t.header.start, ledgers: t.header.ledgers }
}

const range = (l: StoredLine) => (l.n === undefined ? `ledger ${l.l}` : `ledgers ${l.l}–${l.l + l.n - 1}`)
const chunks = (s: string | undefined, size: number) => (s ?? '').match(new RegExp(`.{${size}}`, 'g')) ?? []

function describeTx(t: TxItem | undefined, stored: string | undefined): string {
  if (t !== undefined) return `${t.agent} ${t.hash.slice(0, 16)} from ${t.source.slice(0, 8)}…, ${t.success ? 'succeeded' : 'failed'}, fee ${t.fee}`
  if (stored === undefined) return 'none'
  const [hash, agent, digest] = stored.split(' ')
  return `${agent} ${hash} (item digest ${digest})`
}

function txDifference(a: TraceSide, b: TraceSide, i: number): string | undefined {
  const ta = a.lines[i]!.t ?? []
  const tb = b.lines[i]!.t ?? []
  for (let p = 0; p < Math.max(ta.length, tb.length); p++) {
    if (ta[p] === tb[p]) continue
    const [xa, xb] = [a.records?.[i]?.txs[p], b.records?.[i]?.txs[p]]
    const sameEffect = xa !== undefined && xb !== undefined && xa.source === xb.source && xa.agent === xb.agent && xa.success === xb.success && xa.fee === xb.fee
    const note = sameEffect ? ' (same source, result and fee: only the envelope differs, e.g. its time bounds)' : ''
    return `transaction #${p}: ${a.label}: ${describeTx(xa, ta[p])}; ${b.label}: ${describeTx(xb, tb[p])}${note}`
  }
  return undefined
}

function describeRequest(r: RequestItem | undefined, digest: string | undefined): string {
  if (r !== undefined) return `${r.method} ${r.key === '' ? '(no key)' : r.key}`
  return digest === undefined ? 'none' : `item digest ${digest}`
}

function requestDifference(a: TraceSide, b: TraceSide, i: number): string | undefined {
  const ra = a.lines[i]!.r ?? {}
  const rb = b.lines[i]!.r ?? {}
  for (const agent of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
    const da = chunks(ra[agent], ITEM_DIGITS)
    const db = chunks(rb[agent], ITEM_DIGITS)
    for (let k = 0; k < Math.max(da.length, db.length); k++) {
      if (da[k] === db[k]) continue
      const full = (s: TraceSide) => s.records?.[i]?.requests.find((r) => r.agent === agent && r.index === k)
      const counts = `(${da.length} vs ${db.length} requests)`
      return `request ${agent} #${k}: ${a.label}: ${describeRequest(full(a), da[k])}; ${b.label}: ${describeRequest(full(b), db[k])} ${counts}`
    }
  }
  return undefined
}

function entryDifference(a: TraceSide, b: TraceSide, i: number): string | undefined {
  const parse = (s: TraceSide) => new Map(chunks(s.lines[i]!.e, 2 * ITEM_DIGITS).map((c) => [c.slice(0, ITEM_DIGITS), c.slice(ITEM_DIGITS)]))
  const ea = parse(a)
  const eb = parse(b)
  const names = new Map<string, EntryItem>()
  const full = [a, b].map((s) => {
    const own = new Map<string, EntryItem>()
    for (const e of s.records?.[i]?.entries ?? []) {
      const d = entryDigests(e).name
      names.set(d, e)
      own.set(d, e)
    }
    return own
  })
  // In name order where the names are known, then the rest in stored order.
  const keys = [...new Set([...ea.keys(), ...eb.keys()])].sort((x, y) => {
    const nx = names.get(x)?.name
    const ny = names.get(y)?.name
    if (nx !== undefined && ny !== undefined) return nx < ny ? -1 : nx > ny ? 1 : 0
    return nx !== undefined ? -1 : ny !== undefined ? 1 : 0
  })
  const differing = keys.filter((k) => ea.get(k) !== eb.get(k))
  const k = differing[0]
  if (k === undefined) return undefined
  const value = (side: 0 | 1, stored: Map<string, string>) => {
    if (!stored.has(k)) return 'not changed'
    const e = full[side]!.get(k)
    if (e === undefined) return `item digest ${stored.get(k)}`
    return e.value === null ? 'deleted' : `value ${e.value.slice(0, 12)}`
  }
  const name = names.get(k)?.name ?? `(name digest ${k})`
  const more = differing.length > 1 ? ` (${differing.length} of ${keys.length} entries differ)` : ''
  return `entry ${name}: ${a.label}: ${value(0, ea)}; ${b.label}: ${value(1, eb)}${more}`
}

/**
 * null when the traces are the same record for record. With `stateOnly`, only the ledger
 * entries (and the ranges the records cover) count: the first ledger whose state differs.
 */
export function firstDifference(a: TraceSide, b: TraceSide, stateOnly = false): TraceDifference | null {
  const n = Math.min(a.lines.length, b.lines.length)
  for (let i = 0; i < n; i++) {
    const la = a.lines[i]!
    const lb = b.lines[i]!
    const sameRange = la.l === lb.l && la.n === lb.n
    if (sameRange && (stateOnly ? la.e === lb.e : la.d === lb.d)) continue
    const details: string[] = []
    if (!sameRange) details.push(`closed as ${a.label}: ${range(la)}; ${b.label}: ${range(lb)}`)
    const parts = stateOnly ? [entryDifference(a, b, i)] : [txDifference(a, b, i), requestDifference(a, b, i), entryDifference(a, b, i)]
    for (const d of parts) if (d !== undefined) details.push(d)
    if (details.length === 0) details.push('the digests differ but no item digest does (a 24-bit item digest collision)')
    return { record: i, ledger: la.l, details }
  }
  if (a.lines.length === b.lines.length) return null
  const longer = a.lines.length > b.lines.length ? a : b
  const extra = longer.lines[n]!
  return { record: n, ledger: extra.l, details: [`${longer.label} has more records: ${range(extra)} and ${longer.lines.length - n - 1} after it`] }
}

/** Where a record sits in the run: set-up, a step of the lockstep, a fast-forward, after the end. */
export function whereIs(side: TraceSide, record: number): string {
  const line = side.lines[record]
  if (line === undefined) return 'no such record'
  const last = line.l + (line.n ?? 1) - 1
  if (line.l > side.ledgers) return `ledger ${line.l}: requests made after the last close`
  if (last <= side.start) return `ledger ${line.l} (set-up)`
  const step = line.l - side.start
  return line.n === undefined ? `ledger ${line.l} (step ${step})` : `ledgers ${line.l}–${last} (steps ${step}–${last - side.start}, one fast-forward)`
}

/**
 * How two traces differ, as the CLI prints it: the first differing ledger and what differs there,
 * then — when it is a later one — the first ledger whose chain state differs. null: identical.
 */
export function describeTraces(a: TraceSide, b: TraceSide): string | null {
  const first = firstDifference(a, b)
  if (first === null) return null
  const lines = [`first differing ledger: ${first.ledger} — ${whereIs(a, first.record)}`, ...first.details.map((x) => `  ${x}`)]
  const state = firstDifference(a, b, true)
  if (state === null) lines.push('  the chain state (every ledger entry) is the same in both runs')
  else if (state.record !== first.record) lines.push(`first ledger whose state differs: ${state.ledger} — ${whereIs(a, state.record)}`, ...state.details.map((x) => `  ${x}`))
  return lines.join('\n')
}
