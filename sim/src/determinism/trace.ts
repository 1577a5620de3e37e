/**
 * A run's determinism trace: one record per closed ledger (or per range closed in one
 * fast-forward call), each holding three parts —
 *
 *   transactions  the applied set in apply order: hash, source account, the agent that sent
 *                 it, success, fee charged;
 *   requests      the agents' chain requests made while the ledger was being built: per agent
 *                 (agents by name), in the order that agent made them — method and content key;
 *   entries       the ledger entries the ledger created, updated or deleted, by readable name,
 *                 with a digest of the value each was left with (folded over the range).
 *
 * The interleaving of different agents' requests is not part of the record: agents act
 * concurrently within a ledger by design, and what each agent asked, in its own order, is what
 * decides its behaviour.
 *
 *   digest_l = sha256(range ‖ sha256(transactions) ‖ sha256(requests) ‖ sha256(entries))
 *   head_l   = sha256(head_{l-1} ‖ digest_l),  head_0 = 32 zero bytes
 *
 * `storedLine` is the compact form written to trace.jsonl (traceFile.ts): the digests and, per
 * item, a 6-hex-digit digest, enough to find the first differing item against a fresh run.
 */
import { createHash } from 'node:crypto'

export interface TxItem {
  hash: string
  source: string
  /** `keeper-N`, `environment`, or `setup` for the ledgers before the lockstep. */
  agent: string
  success: boolean
  fee: string
}

export interface RequestItem {
  agent: string
  /** Position among this agent's requests of the ledger. */
  index: number
  method: string
  key: string
}

export interface EntryItem {
  name: string
  /** sha256 (hex) of the LedgerEntry XDR the ledger left; null: deleted. */
  value: string | null
}

export interface LedgerTrace {
  /** First and last ledger of the record (equal unless a fast-forward closed a range). */
  from: number
  to: number
  txs: TxItem[]
  /** Grouped by agent (agents by name), each agent's in the order made. */
  requests: RequestItem[]
  /** By name. */
  entries: EntryItem[]
  digest: string
  head: string
}

/** trace.jsonl's line for one record. */
export interface StoredLine {
  /** First ledger. */
  l: number
  /** Ledgers in the record, when more than one. */
  n?: number
  /** Ledger digest, first 16 hex digits. */
  d: string
  /** Chain head after this record (64 hex digits). */
  h: string
  /** Transactions: `<hash, 16 hex> <agent> <item digest>`. */
  t?: string[]
  /** Requests per agent: the item digests run together. */
  r?: Record<string, string>
  /** Entries: `<name digest><item digest>` run together. */
  e?: string
}

export const GENESIS_HEAD = '0'.repeat(64)
export const ITEM_DIGITS = 6

export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex')
const short = (s: string) => sha256(s).slice(0, ITEM_DIGITS)

export const txText = (t: TxItem) => `${t.hash} ${t.source} ${t.agent} ${t.success ? 'ok' : 'failed'} ${t.fee}`
export const requestText = (r: RequestItem) => `${r.agent} ${r.method} ${r.key}`
export const entryText = (e: EntryItem) => `${e.name} = ${e.value ?? 'deleted'}`

const part = (lines: string[]) => sha256(lines.join('\n'))

/** The ledger digest of one record's parts. */
export function ledgerDigest(from: number, to: number, txs: TxItem[], requests: RequestItem[], entries: EntryItem[]): string {
  return sha256([`${from}-${to}`, part(txs.map(txText)), part(requests.map(requestText)), part(entries.map(entryText))].join('\n'))
}

export function nextHead(head: string, digest: string): string {
  return createHash('sha256').update(Buffer.from(head, 'hex')).update(Buffer.from(digest, 'hex')).digest('hex')
}

/** Orders a ledger's requests as the trace keeps them: by agent name, each agent's in the order made. */
export function groupRequests(made: { agent: string; method: string; key: string }[]): RequestItem[] {
  const byAgent = new Map<string, RequestItem[]>()
  for (const r of made) {
    const list = byAgent.get(r.agent) ?? []
    list.push({ agent: r.agent, index: list.length, method: r.method, key: r.key })
    byAgent.set(r.agent, list)
  }
  return [...byAgent.keys()].sort().flatMap((a) => byAgent.get(a)!)
}

export function txDigest(t: TxItem): string {
  return short(txText(t))
}
export function requestDigest(r: RequestItem): string {
  return short(requestText(r))
}
export function entryDigests(e: EntryItem): { name: string; item: string } {
  return { name: short(e.name), item: short(entryText(e)) }
}

export function storedLine(t: LedgerTrace): StoredLine {
  const line: StoredLine = { l: t.from, ...(t.to !== t.from ? { n: t.to - t.from + 1 } : {}), d: t.digest.slice(0, 16), h: t.head }
  if (t.txs.length > 0) line.t = t.txs.map((x) => `${x.hash.slice(0, 16)} ${x.agent} ${txDigest(x)}`)
  if (t.requests.length > 0) {
    const r: Record<string, string> = {}
    for (const q of t.requests) r[q.agent] = (r[q.agent] ?? '') + requestDigest(q)
    line.r = r
  }
  if (t.entries.length > 0)
    line.e = t.entries
      .map((x) => {
        const d = entryDigests(x)
        return d.name + d.item
      })
      .join('')
  return line
}
