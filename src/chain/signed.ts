/**
 * Writes signed elsewhere (a browser wallet): build → simulate → assemble, hand the envelope to a
 * signer, then send → poll. Nothing here holds a key. The source account authorizes its own
 * `require_auth` (source-account credentials), which is every call a depositor or an operator
 * makes for itself. Browser-safe: only `@stellar/stellar-sdk` and this folder's browser-safe files.
 */
import { TransactionBuilder, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import { maxTimeOf, type Chain } from './connection.js'
import { ChainError, LedgerMissedError } from './errors.js'
import { inclusionFeeOf } from './fees.js'
import { sendAndPoll, simulateOrThrow } from './send.js'
import type { SubmitResult } from './submit.js'

/** A transaction ready to sign, with what it costs and what the simulation says it returns. */
export interface PreparedWrite {
  tx: Transaction
  /** Total fee offered: inclusion fee + simulated resource fee (stroops). */
  fee: bigint
  /** Simulated resource fee part of `fee` (0 for classic operations). */
  resourceFee: bigint
  /** The simulated return value (Soroban operations only): the expected effect. */
  returnValue: xdr.ScVal | undefined
  /** Ledger the simulation read. */
  simulatedAt: number | undefined
}

const SOROBAN_OPS = new Set(['invokeHostFunction', 'extendFootprintTtl', 'restoreFootprint'])

/**
 * Builds the transaction of `operations` from `source` and, for a Soroban operation, simulates and
 * assembles it (fee = inclusion fee + simulated resource fee; the inclusion fee is the chain's,
 * `chain.fees.inclusionFee()` else `chain.inclusionFee`).
 *
 * @throws ContractError when the simulation reports `Error(Contract, #code)`; SimulationError or
 *   ChainError for other refusals; the RPC client's error when `source` does not exist.
 */
export async function prepareWrite(
  chain: Chain,
  source: string,
  operations: xdr.Operation | readonly xdr.Operation[],
): Promise<PreparedWrite> {
  const ops = Array.isArray(operations) ? (operations as readonly xdr.Operation[]) : [operations as xdr.Operation]
  const soroban = ops.filter((op) => SOROBAN_OPS.has(op.body.type)).length
  if (soroban > 0 && ops.length > 1) throw new ChainError('a Soroban operation must be alone in its transaction')
  const account = await chain.server.getAccount(source)
  const inclusionFee = (await chain.fees?.inclusionFee?.()) ?? chain.inclusionFee
  const builder = new TransactionBuilder(account, { fee: String(inclusionFee), networkPassphrase: chain.networkPassphrase })
  for (const op of ops) builder.addOperation(op)
  const raw = builder.setTimebounds(0, maxTimeOf(chain)).build()
  if (soroban === 0) return { tx: raw, fee: BigInt(raw.fee), resourceFee: 0n, returnValue: undefined, simulatedAt: undefined }
  const sim = await simulateOrThrow(chain, raw)
  const tx = rpc.assembleTransaction(raw, sim).build()
  return { tx, fee: BigInt(tx.fee), resourceFee: BigInt(sim.minResourceFee), returnValue: sim.result?.retval, simulatedAt: sim.latestLedger }
}

/** Something that signs a transaction envelope (base64 XDR in, signed base64 XDR out): a wallet. */
export type EnvelopeSigner = (envelopeXdr: string, networkPassphrase: string) => Promise<string>

/**
 * Has `signer` sign `prepared`, sends it and polls until it is included. Never fee-bumped: the
 * bump would need the wallet's signature too.
 *
 * @throws ContractError when execution reports `Error(Contract, #code)`; TransactionRejectedError,
 *   TransactionFailedError; ChainError when the envelope expired before inclusion (prepare and
 *   sign again: a wallet-signed envelope is never rebuilt here).
 */
export async function sendSigned(chain: Chain, prepared: PreparedWrite, signer: EnvelopeSigner): Promise<SubmitResult> {
  const signedXdr = await signer(prepared.tx.toXdr(), chain.networkPassphrase)
  const signed = TransactionBuilder.fromXdr(signedXdr, chain.networkPassphrase) as Transaction
  if (xdr.encodeBytes(signed.hash(), 'hex') !== xdr.encodeBytes(prepared.tx.hash(), 'hex')) {
    throw new ChainError('the wallet changed the transaction it was asked to sign')
  }
  const outcome = await sendAndPoll(chain, signed)
  if (outcome.kind === 'rebuild') throw new ChainError('the transaction was not included', { details: outcome.reason })
  if (outcome.kind === 'missed') throw new LedgerMissedError(outcome.lastLedger)
  return {
    hash: outcome.hash,
    ledger: outcome.ledger,
    returnValue: outcome.returnValue,
    events: outcome.events,
    fee: prepared.fee,
    resourceFee: prepared.resourceFee,
    inclusionFee: Number(inclusionFeeOf(signed)) / Math.max(1, signed.operations.length),
    feeCharged: outcome.feeCharged,
    sentLedger: outcome.sentLedger,
    bumped: false,
    feeBump: undefined,
    attempts: 1,
  }
}
