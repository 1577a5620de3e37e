/**
 * Types of the invariant auditor: its inputs (addresses, options) and its report.
 *
 * Every amount in a report is a decimal string with 7 decimals (USDC and shares both have 7),
 * written exactly from the chain's integers (see `formatAmount`).
 */

/** One account an invariant names when it breaks (or, for a warning, what it warns about). */
export interface Offender {
  /** G... or C... address. */
  account: string
  /** The amount involved, 7 decimals (a difference, a draw, a balance: `note` says which). */
  amount: string
  note?: string
}

/** The outcome of one invariant. */
export interface InvariantResult {
  /** 1-12, as listed in src/audit/README.md. */
  id: number
  name: string
  /** False only when the invariant is broken; a warning still holds. */
  holds: boolean
  /** Something worth a look that is not a break (a donation, a slashable draw, lost history). */
  warning: boolean
  /** One or two sentences: what was compared and what came out. */
  detail: string
  /** The figures compared, by name. */
  figures: Record<string, string>
  offenders: Offender[]
}

/** What `audit` returns. */
export interface AuditReport {
  /** Every invariant holds (warnings allowed). */
  holds: boolean
  invariants: InvariantResult[]
  /** The ledger the chain state was read at. */
  ledger: number
}

/** The contracts to audit. */
export interface AuditAddresses {
  vault: string
  registry: string
  /**
   * The USDC token contract the deployment is expected to use (invariant 8 compares it with
   * what both contracts store); optional, the vault's own token is read from the chain.
   */
  usdc?: string
}

export interface AuditOptions {
  /**
   * First ledger whose vault events are read (depositors, keepers that drew, returns, write-offs).
   * Default: the oldest ledger the RPC node still has. Earlier than that is clamped to it.
   */
  fromLedger?: number
  /** Depositor addresses to check besides those found in the events (e.g. from an indexer). */
  depositors?: readonly string[]
  /** Simulations in flight at once (default 8). */
  concurrency?: number
  /**
   * Full read rounds to try before giving up when the chain moves during the audit (default 4).
   * A round is kept only when the vault's and registry's books read the same before and after the
   * per-account reads.
   */
  attempts?: number
  /** Events per getEvents page (default 1,000). */
  eventPageSize?: number
}
