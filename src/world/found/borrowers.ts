/**
 * The borrowers of a pool we did not deploy: the Positions entries a snapshot file holds, the
 * pool's events on a fork's upstream RPC, a hints file (one address per line, as the keeper's
 * BORROWER_HINTS_FILE) and a list given by hand. Each source's count is kept for the report.
 */
import { readFile } from 'node:fs/promises'
import { rpc } from '@stellar/stellar-sdk'
import { isBorrowerAddress, parseHints } from '../../keeper/adapters/blend/hints.js'
import { redactUrl } from '../../chain/redact.js'
import { HistoryBackfill } from '../../keeper/adapters/blend/historyBackfill.js'

/** Loosely typed serde JSON of stellar-xdr values, as LedgerSnapshot files hold them. */
type Json = any

/** A snapshot's ledger entries, in either layout the format has had. */
function snapshotEntries(doc: Json): Json[] {
  const root = doc?.ledger_entries === undefined && doc?.ledger?.ledger_entries !== undefined ? doc.ledger : doc
  const entries = root?.ledger_entries
  if (!Array.isArray(entries)) throw new Error('no ledger_entries array: not a ledger snapshot')
  return entries.map((e: Json) => (Array.isArray(e) ? e[1]?.[0] : e?.entry))
}

/** The snapshot's ledger sequence (`sequence_number`). */
export function snapshotLedger(doc: Json): number {
  const root = doc?.ledger_entries === undefined && doc?.ledger !== undefined ? doc.ledger : doc
  return Number(root?.sequence_number ?? 0)
}

/** Users with a Positions entry in `pool` in a parsed LedgerSnapshot document, in file order. */
export function borrowersInSnapshot(doc: Json, pool: string): string[] {
  const out: string[] = []
  for (const entry of snapshotEntries(doc)) {
    const cd = entry?.data?.contract_data
    if (cd === undefined || cd.contract !== pool) continue
    const parts = cd.key?.vec
    if (!Array.isArray(parts) || parts[0]?.symbol !== 'Positions') continue
    const user = parts[1]?.address
    if (typeof user === 'string' && isBorrowerAddress(user)) out.push(user)
  }
  return out
}

/** The addresses of a hints file; a bad line is an error naming `file:line`. */
export async function borrowersInHintsFile(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw new Error(`borrower hints ${file}: ${err instanceof Error ? err.message : String(err)}`)
  })
  const { addresses, problems } = parseHints(text, file)
  if (problems.length > 0) throw new Error(problems.join('\n'))
  return addresses
}

/**
 * Borrowers named by the pool's events on the upstream RPC, over every ledger it keeps up to
 * `latestLedger`. A node that cannot be read is an error naming it (the URL masked).
 */
export async function borrowersInUpstreamEvents(url: string, pool: string, latestLedger: number, headers: Record<string, string> = {}): Promise<string[]> {
  const server = new rpc.Server(url, { allowHttp: url.startsWith('http:'), headers })
  let failure: string | undefined
  const backfill = new HistoryBackfill({
    pool,
    url,
    server,
    log: { info() {}, warn: (_o: unknown, msg?: string) => void (failure = msg) },
  })
  backfill.request(latestLedger + 1)
  const found = await backfill.run()
  if (backfill.failures > 0) throw new Error(`reading the pool's events from ${redactUrl(url)}: ${failure ?? 'failed'}`)
  return found
}

/** Every source merged, each address once, in the order given; with the count each source named. */
export function mergeBorrowers(sources: Record<string, readonly string[]>): { borrowers: string[]; counts: Record<string, number> } {
  const seen = new Set<string>()
  const borrowers: string[] = []
  const counts: Record<string, number> = {}
  for (const [name, list] of Object.entries(sources)) {
    counts[name] = list.length
    for (const a of list) {
      if (seen.has(a)) continue
      seen.add(a)
      borrowers.push(a)
    }
  }
  return { borrowers, counts }
}
