/**
 * trace.jsonl, a run directory's determinism trace: a header line, then one line per record
 * (trace.ts `StoredLine`):
 *
 *   {"trace":1,"start":104,"records":412,"ledgers":1441,"head":"<64 hex>"}
 *   {"l":1,"d":"<16 hex>","h":"<64 hex>","e":"<k6><d6>…"}
 *   {"l":2,"d":"…","h":"…","t":["<hash16> setup <d6>"],"e":"…"}
 *   …
 *   {"l":105,"d":"…","h":"…","t":[…],"r":{"environment":"<d6><d6>…","keeper-1":"…"},"e":"…"}
 *   {"l":106,"n":24,"d":"…","h":"…"}
 *
 * `start` is the set-up's last ledger (the lockstep closes the ones after it). `l` first ledger,
 * `n` ledgers in a fast-forwarded range (absent: 1), `d` the ledger digest,
 * `h` the chain head after it; `t`, `r`, `e` the transactions, requests per agent and entries as
 * 6-hex-digit item digests (absent when empty).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { GENESIS_HEAD, storedLine, type LedgerTrace, type StoredLine } from './trace.js'

export const TRACE_FILE = 'trace.jsonl'
export const TRACE_VERSION = 1

export interface TraceHeader {
  trace: number
  /** The set-up's last ledger. */
  start: number
  records: number
  /** Ledgers closed (set-up included), the last record's unclosed ledger not counted. */
  ledgers: number
  head: string
}

export interface StoredTrace {
  header: TraceHeader
  lines: StoredLine[]
}

export function traceHeader(records: readonly LedgerTrace[], start: number, ledgers: number): TraceHeader {
  return { trace: TRACE_VERSION, start, records: records.length, ledgers, head: records[records.length - 1]?.head ?? GENESIS_HEAD }
}

/** The file's text for `records` covering ledgers 1..`ledgers` (and perhaps a last requests-only record). */
export function traceText(records: readonly LedgerTrace[], start: number, ledgers: number): string {
  return [traceHeader(records, start, ledgers), ...records.map(storedLine)].map((x) => JSON.stringify(x)).join('\n') + '\n'
}

export async function writeTrace(path: string, records: readonly LedgerTrace[], start: number, ledgers: number): Promise<void> {
  await writeFile(path, traceText(records, start, ledgers))
}

export class TraceFileError extends Error {
  override name = 'TraceFileError'
}

export function parseTrace(text: string, path = TRACE_FILE): StoredTrace {
  const rows = text.split('\n').filter((l) => l !== '')
  const parse = (row: string, i: number) => {
    try {
      return JSON.parse(row) as unknown
    } catch {
      throw new TraceFileError(`${path}:${i + 1}: not JSON`)
    }
  }
  const header = parse(rows[0] ?? '', 0) as TraceHeader
  if (header?.trace !== TRACE_VERSION) throw new TraceFileError(`${path}: not a version ${TRACE_VERSION} trace file`)
  const lines = rows.slice(1).map((r, i) => parse(r, i + 1) as StoredLine)
  if (lines.length !== header.records) throw new TraceFileError(`${path}: ${lines.length} records, the header says ${header.records}`)
  return { header, lines }
}

export async function readTrace(path: string): Promise<StoredTrace> {
  return parseTrace(await readFile(path, 'utf8'), path)
}
