/**
 * The liquidations the vault has booked, from its own events (chain data, whoever the keeper): a
 * fill through a flash draw (`flash`: drawn and repaid in the fill's transaction), the return of a
 * two-step draw (`return`), and a write-off of a draw that never came back (`write_off`). The
 * figures are the contract's: the profit it booked for depositors and the keeper's fee; nothing
 * is recomputed here.
 */
import type { TimedVaultEvent } from '../clients/vaultEvents.js'

export interface BookedLiquidation {
  /** The event's getEvents id. */
  id: string
  kind: 'flash' | 'return' | 'write_off'
  ledger: number
  /** Unix seconds of the ledger's close. */
  closeTime: number
  /** The keeper (its registered account or executor contract) the vault lent to. */
  keeper: string
  /** USDC the keeper drew for the fill (repaid with the profit); for a write-off, what was written down. */
  capital: bigint
  /** Profit booked for the depositors (after the keeper's fee); 0 for a write-off. */
  profit: bigint
  /** The keeper's fee; 0 for a write-off. */
  fee: bigint
  /** What the keeper's slashed stake paid back (write-offs only). */
  recovered: bigint
  txHash: string
}

/** Every booked liquidation among `events` (chain order), newest first. */
export function bookedLiquidations(events: readonly TimedVaultEvent[]): BookedLiquidation[] {
  const rows: BookedLiquidation[] = []
  for (const { event: e, closeTime, txHash } of events) {
    const base = { id: e.id, ledger: e.ledger, closeTime, txHash }
    if (e.kind === 'flash') rows.push({ ...base, kind: 'flash', keeper: e.account, capital: e.amount, profit: e.profit, fee: e.fee, recovered: 0n })
    // A return's amount is the principal repaid plus the gross profit (booked profit + fee).
    else if (e.kind === 'return') rows.push({ ...base, kind: 'return', keeper: e.account, capital: e.amount - e.profit - e.fee, profit: e.profit, fee: e.fee, recovered: 0n })
    else if (e.kind === 'write_off') rows.push({ ...base, kind: 'write_off', keeper: e.account, capital: e.writtenDown, profit: 0n, fee: 0n, recovered: e.recovered })
  }
  return rows.reverse()
}

/** The kind in words, for the table. */
export function bookedKindText(kind: BookedLiquidation['kind']): string {
  switch (kind) {
    case 'flash':
      return 'Fill (drawn and repaid in one transaction)'
    case 'return':
      return 'Two-step fill returned'
    case 'write_off':
      return 'Draw written off'
  }
}

/** The sums over `rows`: profit booked for depositors and fees paid to keepers. */
export function bookedTotals(rows: readonly BookedLiquidation[]): { profit: bigint; fees: bigint; fills: number } {
  let profit = 0n
  let fees = 0n
  let fills = 0
  for (const r of rows) {
    profit += r.profit
    fees += r.fee
    if (r.kind !== 'write_off') fills++
  }
  return { profit, fees, fills }
}
