/**
 * A depositor's own history from the vault's events: their deposits and withdrawals (newest
 * first), what they put in net, and when their current holding began (the period their return
 * covers).
 */
import type { TimedVaultEvent } from '../clients/vaultEvents.js'

export interface HistoryRow {
  /** The event's getEvents id (unique, orders events). */
  id: string
  kind: 'deposit' | 'withdraw'
  ledger: number
  /** Unix seconds of the ledger's close. */
  closeTime: number
  /** USDC put in (deposit) or paid out (withdraw). */
  amount: bigint
  /** Shares minted (deposit) or burnt (withdraw). */
  shares: bigint
  txHash: string
}

/** The account's deposits and withdrawals among `events` (chain order), newest first. */
export function accountHistory(events: readonly TimedVaultEvent[], account: string): HistoryRow[] {
  const rows: HistoryRow[] = []
  for (const { event, closeTime, txHash } of events) {
    if ((event.kind !== 'deposit' && event.kind !== 'withdraw') || event.account !== account) continue
    rows.push({ id: event.id, kind: event.kind, ledger: event.ledger, closeTime, amount: event.amount, shares: event.shares, txHash })
  }
  return rows.reverse()
}

export interface NetDeposits {
  deposited: bigint
  withdrawn: bigint
  /** deposited − withdrawn. */
  net: bigint
}

/** Deposits − withdrawals (USDC) over `rows`. */
export function netDeposits(rows: readonly HistoryRow[]): NetDeposits {
  let deposited = 0n
  let withdrawn = 0n
  for (const r of rows) {
    if (r.kind === 'deposit') deposited += r.amount
    else withdrawn += r.amount
  }
  return { deposited, withdrawn, net: deposited - withdrawn }
}

/**
 * The history holds every deposit and withdrawal of the account: its sums equal the vault's own
 * running totals in the depositor record (the node may have dropped the oldest events).
 */
export function historyIsWhole(rows: readonly HistoryRow[], record: { totalDeposited: bigint; totalWithdrawn: bigint }): boolean {
  const n = netDeposits(rows)
  return n.deposited === record.totalDeposited && n.withdrawn === record.totalWithdrawn
}

/**
 * The deposit that began the account's current holding: the latest deposit made while it held no
 * shares (replaying its own events oldest first); undefined when it holds none now or the rows do
 * not reach back to it.
 */
export function holdingStart(rows: readonly HistoryRow[]): HistoryRow | undefined {
  let shares = 0n
  let start: HistoryRow | undefined
  for (const r of [...rows].reverse()) {
    if (r.kind === 'deposit') {
      if (shares <= 0n) start = r
      shares += r.shares
    } else {
      shares -= r.shares
      if (shares <= 0n) start = undefined
    }
  }
  return shares > 0n ? start : undefined
}
