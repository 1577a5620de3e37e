/**
 * Ledgers and seconds at a ledger time: the arithmetic without the reads, so a browser bundle
 * that only converts (the dashboard's shell) does not pull the SDK's XDR in with it. The reads
 * that learn the ledger time are in ledgerTime.ts, which re-exports these.
 */

/**
 * The target close time of Stellar's public networks before CAP-70's 2.5 s ledgers, and the
 * value assumed when the node tells nothing (no scp_timing entry, fewer than two ledgers seen).
 */
export const DEFAULT_LEDGER_MS = 5_000

/** Whole ledgers that cover `seconds` at `ledgerMs` per ledger (rounded up; 0 for 0). */
export function ledgersFor(seconds: number, ledgerMs: number): number {
  if (!(ledgerMs > 0)) throw new RangeError(`a ledger time must be a positive number of ms, got ${ledgerMs}`)
  return Math.ceil((seconds * 1000) / ledgerMs)
}

/** The time `ledgers` ledgers take at `ledgerMs` per ledger, in seconds. */
export function secondsFor(ledgers: number, ledgerMs: number): number {
  return (ledgers * ledgerMs) / 1000
}
