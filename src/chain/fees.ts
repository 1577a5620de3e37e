/**
 * Inclusion fees and the once-only fee bump of the submission pipeline. Browser-safe: only
 * `@stellar/stellar-sdk`.
 *
 * On the network the inclusion fee only matters when a ledger is full: the highest inclusion fee
 * per operation goes in first. A transaction left in the queue can be replaced by a fee bump of
 * it bidding at least ten times as much per operation (stellar-core's replace-by-fee; the fee
 * bump counts one operation more); the queue drops a transaction not included within 4 ledgers.
 */
import { TransactionBuilder, type FeeBumpTransaction, type Keypair, type Transaction } from '@stellar/stellar-sdk'

/** A transaction the network has not included yet, as the fee-bump policy sees it. */
export interface QueuedTransaction {
  hash: string
  /** Its inclusion fee, all operations together: the fee less a Soroban transaction's declared resource fee (stroops). */
  inclusionFee: bigint
  operations: number
  /** Latest ledger when it was sent. */
  sentLedger: number
  /** Latest ledger now. */
  latestLedger: number
}

/** What became of a fee bump: the network took it, refused it, or gave no answer. */
export type FeeBumpOutcome = 'accepted' | 'refused' | 'unanswered'

/** The fee bump a submission sent. */
export interface FeeBumpRecord {
  hash: string
  /** Its inclusion fee per operation (the bid; it pays it for the inner operations + 1). */
  inclusionFee: number
  outcome: FeeBumpOutcome
  /** Why it was refused (the sendTransaction result code, or the build error). */
  reason?: string
}

/** When and how much to fee-bump a transaction the network has not included. */
export interface FeeBumpPolicy {
  /** Ledgers closed after the send without inclusion before the one fee bump (>= 1). */
  afterLedgers: number
  /** The bump's inclusion fee per operation for `queued`; undefined: no bump (e.g. above MAX_FEE). */
  bid(queued: QueuedTransaction): number | undefined | Promise<number | undefined>
  /** Told once per transaction the policy bumped, or decided not to (`skipped`). */
  onBump?(queued: QueuedTransaction, bump: FeeBumpRecord | 'skipped'): void
}

/** The chain's fee defaults for submissions that name none (the keeper's fee strategy). */
export interface ChainFees {
  /** The inclusion fee per operation to bid (stroops); default `chain.inclusionFee`. */
  inclusionFee?(): number | Promise<number>
  /** The fee-bump policy; default none. */
  feeBump?: FeeBumpPolicy | undefined
}

/** The declared resource fee of a Soroban transaction (0 for a classic one). */
export function declaredResourceFee(tx: Transaction): bigint {
  const env = tx.toEnvelope()
  if (env.type !== 'envelopeTypeTx') return 0n
  const ext = env.value.tx.ext
  return ext.type === 'sorobanData' ? BigInt(ext.value.resourceFee.toString()) : 0n
}

/** A transaction's inclusion fee, all operations together (stroops). */
export function inclusionFeeOf(tx: Transaction): bigint {
  return BigInt(tx.fee) - declaredResourceFee(tx)
}

/**
 * A fee bump of `inner` paid by `feeSource` bidding `bid` per operation, signed: its fee is
 * `bid * (operations + 1)` plus the inner transaction's declared resource fee
 * (`TransactionBuilder.buildFeeBumpTransaction`).
 */
export function signedFeeBump(inner: Transaction, feeSource: Keypair, bid: number, networkPassphrase: string): FeeBumpTransaction {
  const bump = TransactionBuilder.buildFeeBumpTransaction(feeSource, String(bid), inner, networkPassphrase)
  bump.sign(feeSource)
  return bump
}
