/**
 * Where the Blend adapter learns borrowers besides the main RPC's events, so that a keeper started
 * after the retention window (or after a node lost its history) still finds every position:
 *
 * - WATCH_ADDRESSES: scanned every cycle;
 * - BORROWER_HINTS_FILE: read at start; every borrower discovered later is added to it, and the
 *   ones that have repaid are removed (hints.ts);
 * - HISTORY_API_URL: a Stellar RPC with a longer event history, backfilled on a cold start
 *   (historyBackfill.ts).
 *
 * All of them merge into the scanner's borrower set; users with no liabilities are skipped by the
 * scan as before.
 */
import type { AdapterContext, AdapterLogger } from '../../sdk/index.js'
import type { EventsReader } from './discovery.js'
import { BorrowerHintsFile, isBorrowerAddress } from './hints.js'
import { redactUrl } from '../../../chain/redact.js'
import { HistoryBackfill } from './historyBackfill.js'

export interface BorrowerSourcesOptions {
  pool: string
  /** WATCH_ADDRESSES. */
  watchAddresses?: readonly string[] | undefined
  /** BORROWER_HINTS_FILE. */
  hintsFile?: string | undefined
  /** HISTORY_API_URL. */
  historyApiUrl?: string | undefined
  /** The history node's client (default: an rpc.Server for `historyApiUrl`). */
  historyServer?: EventsReader
  eventsPageLimit?: number
  log: Pick<AdapterLogger, 'info' | 'warn'>
}

export interface BorrowerSources {
  /** Borrowers to scan from the first cycle: the watch list, then the hints file, each once. */
  initial: string[]
  watch: string[]
  hints: BorrowerHintsFile | undefined
  history: HistoryBackfill | undefined
  /**
   * Adds discovered borrowers to the hints file (those it does not hold) and removes the repaid
   * ones (no liabilities left). A failed write is a warning; its borrowers are added by the next
   * call.
   */
  record(discovered: readonly string[], repaid?: readonly string[]): Promise<void>
}

/**
 * Opens the sources: checks the watch list, reads (or creates) the hints file and warns about its
 * bad lines by `file:line`, and prepares the history node's client. An unreadable hints file
 * rejects with an error naming it.
 */
export async function openBorrowerSources(o: BorrowerSourcesOptions): Promise<BorrowerSources> {
  const watch = [...new Set(o.watchAddresses ?? [])]
  const bad = watch.filter((a) => !isBorrowerAddress(a))
  if (bad.length > 0) throw new Error(`WATCH_ADDRESSES: not a Stellar account or contract address: ${bad.join(', ')}`)

  let hints: BorrowerHintsFile | undefined
  if (o.hintsFile !== undefined) {
    const opened = await BorrowerHintsFile.open(o.hintsFile)
    hints = opened.hints
    for (const problem of opened.problems) o.log.warn({ file: o.hintsFile }, problem)
  }
  const history =
    o.historyApiUrl === undefined && o.historyServer === undefined
      ? undefined
      : new HistoryBackfill({
          pool: o.pool,
          url: o.historyApiUrl ?? 'history node',
          ...(o.historyServer === undefined ? {} : { server: o.historyServer }),
          ...(o.eventsPageLimit === undefined ? {} : { pageLimit: o.eventsPageLimit }),
          log: o.log,
        })

  const initial = [...new Set([...watch, ...(hints?.addresses ?? [])])]
  o.log.info(
    {
      watchAddresses: watch.length,
      hintsFile: o.hintsFile ?? null,
      hints: hints?.addresses.length ?? 0,
      historyApiUrl: o.historyApiUrl === undefined ? null : redactUrl(o.historyApiUrl),
    },
    'borrower sources',
  )

  return {
    initial,
    watch,
    hints,
    history,
    async record(discovered, repaid = []) {
      if (hints === undefined) return
      try {
        const { added, pruned } = await hints.record(discovered, repaid)
        if (added.length > 0) o.log.info({ file: hints.path, appended: added.length, pruned: pruned.length }, 'borrower hints appended')
        else if (pruned.length > 0) o.log.info({ file: hints.path, pruned: pruned.length }, 'borrower hints pruned')
      } catch (err) {
        o.log.warn({ file: hints.path, err: err instanceof Error ? err.message : String(err) }, err instanceof Error ? err.message : String(err))
      }
    },
  }
}

/** The sources the keeper's configuration asks for (AdapterContext: WATCH_ADDRESSES, BORROWER_HINTS_FILE, HISTORY_API_URL). */
export function borrowerSourcesOf(ctx: AdapterContext, pool: string): Promise<BorrowerSources> {
  return openBorrowerSources({
    pool,
    watchAddresses: ctx.watchAddresses,
    hintsFile: ctx.borrowerHintsFile,
    historyApiUrl: ctx.historyApiUrl,
    log: ctx.logger,
  })
}
