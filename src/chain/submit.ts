import {
  Account,
  Address,
  Operation,
  StrKey,
  TransactionBuilder,
  authorizeEntry,
  rpc,
  xdr,
  type Keypair,
  type Transaction,
} from '@stellar/stellar-sdk'
import { maxTimeOf, type Chain } from './connection.js'
import { ChainError, LedgerMissedError, RetriesExhaustedError } from './errors.js'
import { DEFAULT_LEDGER_MS, ledgersFor } from './ledgerTime.js'
import type { FeeBumpPolicy, FeeBumpRecord } from './fees.js'
import { sendAndPoll, simulateOrThrow } from './send.js'

export interface SubmitOptions {
  /**
   * Keypairs that sign Soroban authorization entries with address credentials (an address other
   * than the transaction source that must `require_auth`). The source's own auth needs none.
   */
  authSigners?: readonly Keypair[]
  /**
   * Inclusion fee bid per operation for this submission (stroops); default the chain's
   * (`chain.fees.inclusionFee()`, else `chain.inclusionFee`).
   */
  inclusionFee?: number | undefined
  /**
   * Fee-bump the transaction once when it is not included in time (the source pays and signs
   * the bump); default `chain.fees.feeBump`; null: never.
   */
  feeBump?: FeeBumpPolicy | null | undefined
  /**
   * Record authorization required below the transaction's root call too (simulation authMode
   * `record_allow_nonroot`). Needed when a contract called by the root asks for an account's
   * auth: the owner's `require_auth` in an executor's `on_flash`, which the vault's
   * `flash_draw` calls. The recorded entry (root: the nested call) is signed like any other:
   * the source's own is source-account credentials, another signer's is signed by it.
   */
  nonRootAuth?: boolean | undefined
  /**
   * The last ledger the transaction may be included in: it carries ledger bounds up to it, and
   * when it is not in by then it is neither rebuilt nor resent (`LedgerMissedError`). For a
   * transaction valued for one ledger, which should not land in a later one on older figures.
   */
  lastLedger?: number | undefined
}

export interface SubmitResult {
  /** The hash that was included: the fee bump's when the bump landed. */
  hash: string
  /** Ledger that included the transaction. */
  ledger: number
  /** The host function's return value (Soroban operations only). */
  returnValue: xdr.ScVal | undefined
  /**
   * The contract events the transaction emitted, in order (Soroban operations; empty when the
   * node's answer carried none). Optional so that results made elsewhere stay valid.
   */
  events?: xdr.ContractEvent[]
  /** Total fee offered by the transaction sent: inclusion fee + simulated resource fee (stroops). */
  fee: bigint
  /** Simulated resource fee part of `fee` (0 for classic operations). */
  resourceFee: bigint
  // The fee fields below are always set by `submit` and `sendSigned`; optional so that results
  // made elsewhere (a wallet flow's fakes) stay valid.
  /** Inclusion fee bid per operation of the transaction sent (stroops); a fee bump's is in `feeBump`. */
  inclusionFee?: number
  /**
   * The fee the network charged for the included transaction (the result's `feeCharged`,
   * stroops: inclusion fee at the ledger's rate + resource fee, less the refund); undefined when
   * the node's answer carried no result.
   */
  feeCharged?: bigint | undefined
  /** Latest ledger when the transaction was sent (it could land in the next); undefined when unknown. */
  sentLedger?: number | undefined
  /** True when what landed is the fee bump (`feeBump`), false when the transaction itself did. */
  bumped?: boolean
  /** The fee bump sent for the transaction, if one was (accepted, refused or unanswered). */
  feeBump?: FeeBumpRecord | undefined
  /** Envelopes built and sent (1 unless a submission expired or hit txBAD_SEQ). */
  attempts: number
}

const SOROBAN_OPS = new Set(['invokeHostFunction', 'extendFootprintTtl', 'restoreFootprint'])

function isSoroban(op: xdr.Operation): boolean {
  return SOROBAN_OPS.has(op.body.type)
}

/**
 * Builds, simulates, assembles, signs, sends and polls one transaction from `source`:
 * simulate → assemble (fee = inclusion fee + simulated resource fee) → sign → send → poll.
 *
 * Retries are explicit and bounded: TRY_AGAIN_LATER (the source account already has a transaction
 * in the node's queue) resends the same envelope once the next ledger has closed
 * (`retry.tryAgainLater` times; send.ts). A submission that is still unknown when its maxTime has
 * passed is first looked up by hash once more — only when the network has closed a ledger past
 * maxTime and the hash is still unknown (so it can never be included) is the transaction rebuilt
 * with a fresh sequence number (`retry.rebuilds` times). txBAD_SEQ also rebuilds. A send that
 * got no answer is followed by hash like a PENDING one; failed polls are retried until maxTime.
 *
 * Classic operations (one or more) skip simulation and pay the inclusion fee per operation.
 * The inclusion fee is `options.inclusionFee`, else the chain's (`chain.fees`, `chain.inclusionFee`);
 * with a fee-bump policy (`options.feeBump`, else `chain.fees.feeBump`) a transaction not included
 * in time is fee-bumped once (send.ts).
 * Concurrent calls for one source account through one `Chain` are queued, one at a time.
 *
 * @throws ContractError when simulation or execution reports `Error(Contract, #code)`
 * @throws SimulationError, TransactionRejectedError, TransactionFailedError, RetriesExhaustedError
 *
 * @example
 * import { submit } from './index.js'
 * const res = await submit(chain, keypair, Operation.invokeContractFunction({ contract, function: 'draw', args }))
 */
export async function submit(
  chain: Chain,
  source: Keypair,
  operation: xdr.Operation | readonly xdr.Operation[],
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  return serialized(chain, source.publicKey(), () => submitNow(chain, source, operation, options))
}

// Submissions from one account through one node client run one at a time: each reads the
// sequence number from the network, so concurrent ones would race for it (txBAD_SEQ). Keyed by
// the client, not the Chain, so that Chains derived from one (`{ ...chain, fees }`) share it.
const queues = new WeakMap<object, Map<string, Promise<unknown>>>()

async function serialized<T>(chain: Chain, account: string, f: () => Promise<T>): Promise<T> {
  let byAccount = queues.get(chain.server)
  if (!byAccount) queues.set(chain.server, (byAccount = new Map()))
  const previous = byAccount.get(account) ?? Promise.resolve()
  const run = previous.then(f, f)
  const tail = run.catch(() => undefined)
  byAccount.set(account, tail)
  try {
    return await run
  } finally {
    if (byAccount.get(account) === tail) byAccount.delete(account)
  }
}

async function submitNow(
  chain: Chain,
  source: Keypair,
  operation: xdr.Operation | readonly xdr.Operation[],
  options: SubmitOptions,
): Promise<SubmitResult> {
  const ops = Array.isArray(operation) ? (operation as readonly xdr.Operation[]) : [operation as xdr.Operation]
  const soroban = ops.length === 1 && isSoroban(ops[0]!)
  if (!soroban && ops.some(isSoroban)) {
    throw new ChainError('a Soroban operation must be alone in its transaction')
  }
  let lastReason = ''
  const feeBump = options.feeBump === null ? undefined : (options.feeBump ?? chain.fees?.feeBump)
  for (let attempt = 1; attempt <= chain.retry.rebuilds + 1; attempt++) {
    // A bounded transaction whose last ledger has closed (it waited for its account) cannot land.
    const seen = options.lastLedger === undefined ? undefined : chain.latestLedger?.()
    if (options.lastLedger !== undefined && seen !== undefined && seen >= options.lastLedger) {
      throw new LedgerMissedError(options.lastLedger, { details: `latest ledger ${seen}` })
    }
    const inclusionFee = options.inclusionFee ?? (await chain.fees?.inclusionFee?.()) ?? chain.inclusionFee
    const prepared = soroban
      ? await prepareSoroban(chain, source, ops[0]!, options, inclusionFee)
      : await prepareClassic(chain, source, ops, inclusionFee, options.lastLedger)
    prepared.tx.sign(source)
    const outcome = await sendAndPoll(chain, prepared.tx, { feeBump, feeSource: source })
    if (outcome.kind === 'included') {
      return {
        hash: outcome.hash,
        ledger: outcome.ledger,
        returnValue: outcome.returnValue,
        events: outcome.events,
        fee: BigInt(prepared.tx.fee),
        resourceFee: prepared.resourceFee,
        inclusionFee,
        feeCharged: outcome.feeCharged,
        sentLedger: outcome.sentLedger,
        bumped: outcome.bumped,
        feeBump: outcome.feeBump,
        attempts: attempt,
      }
    }
    if (outcome.kind === 'missed') throw new LedgerMissedError(outcome.lastLedger)
    lastReason = outcome.reason
  }
  throw new RetriesExhaustedError('submission retries exhausted', { details: lastReason })
}

interface Prepared {
  tx: Transaction
  resourceFee: bigint
}

async function newBuilder(chain: Chain, source: Keypair, fee: number, lastLedger: number | undefined): Promise<TransactionBuilder> {
  const account = await chain.server.getAccount(source.publicKey())
  return bounded(new TransactionBuilder(account, { fee: String(fee), networkPassphrase: chain.networkPassphrase }), lastLedger)
}

/** Ledger bounds up to `lastLedger` (the XDR's upper bound is exclusive). */
function bounded(builder: TransactionBuilder, lastLedger: number | undefined): TransactionBuilder {
  return lastLedger === undefined ? builder : builder.setLedgerbounds(0, lastLedger + 1)
}

async function prepareClassic(chain: Chain, source: Keypair, ops: readonly xdr.Operation[], inclusionFee: number, lastLedger: number | undefined): Promise<Prepared> {
  const builder = await newBuilder(chain, source, inclusionFee, lastLedger)
  for (const op of ops) builder.addOperation(op)
  return { tx: builder.setTimebounds(0, maxTimeOf(chain)).build(), resourceFee: 0n }
}

async function prepareSoroban(
  chain: Chain,
  source: Keypair,
  op: xdr.Operation,
  options: SubmitOptions,
  inclusionFee: number,
): Promise<Prepared> {
  const { lastLedger } = options
  let raw = (await newBuilder(chain, source, inclusionFee, lastLedger)).addOperation(op).setTimebounds(0, maxTimeOf(chain)).build()
  const sim = await simulateOrThrow(chain, raw, options.nonRootAuth === true ? 'record_allow_nonroot' : undefined)
  // The simulation ran after the last ledger closed: sending could only be refused.
  if (lastLedger !== undefined && sim.latestLedger >= lastLedger) throw new LedgerMissedError(lastLedger, { details: `latest ledger ${sim.latestLedger}` })

  const auth = sim.result?.auth ?? []
  const needsSigning = auth.some(hasAddressCredentials)
  if (needsSigning) {
    // Four times the ledgers the transaction's timeout spans at the network's ledger time, at least 60.
    const validUntil = sim.latestLedger + Math.max(60, ledgersFor(chain.txTimeoutSeconds, chain.ledgerMs ?? DEFAULT_LEDGER_MS) * 4)
    const signed: xdr.SorobanAuthorizationEntry[] = []
    for (const entry of auth) {
      if (!hasAddressCredentials(entry)) {
        signed.push(entry)
        continue
      }
      const addr = addressOfCredentials(entry)
      const signer = [source, ...(options.authSigners ?? [])].find((k) => k.publicKey() === addr)
      if (!signer) throw new ChainError('missing signer for authorization', { details: addr })
      signed.push(await authorizeEntry(entry, signer, validUntil, chain.networkPassphrase))
    }
    // No second simulation: the recording one already holds each entry's nonce in its footprint
    // (signing keeps the recorded nonce) and charges an emulated signature check for every
    // address it recorded, and its size estimate leaves room for the signatures
    // (soroban-simulation's default adjustment). The signed entries replace the recorded ones.
    const invoke = xdr.expectUnionVariant(op.body, 'invokeHostFunction').invokeHostFunctionOp
    const withAuth = Operation.invokeHostFunction({ func: invoke.hostFunction, auth: signed })
    // The same sequence number as the transaction simulated (its account as read then).
    const account = new Account(source.publicKey(), (BigInt(raw.sequence) - 1n).toString())
    raw = bounded(new TransactionBuilder(account, { fee: String(inclusionFee), networkPassphrase: chain.networkPassphrase }), lastLedger)
      .addOperation(withAuth)
      .setTimebounds(0, maxTimeOf(chain))
      .build()
  }
  const tx = rpc.assembleTransaction(raw, sim).build()
  return { tx, resourceFee: BigInt(sim.minResourceFee) }
}

/**
 * Address credentials to sign: the legacy `ADDRESS` arm and CAP-71's `ADDRESS_V2`, which
 * `rpc.Server.simulateTransaction` asks the node to record by default (its `useUpgradedAuth`
 * argument); `authorizeEntry` builds the right signature payload for either.
 */
function hasAddressCredentials(entry: xdr.SorobanAuthorizationEntry): boolean {
  return entry.credentials.type === 'sorobanCredentialsAddress' || entry.credentials.type === 'sorobanCredentialsAddressV2'
}

function addressOfCredentials(entry: xdr.SorobanAuthorizationEntry): string {
  const c = entry.credentials
  if (c.type !== 'sorobanCredentialsAddress' && c.type !== 'sorobanCredentialsAddressV2') throw new ChainError('not address credentials', { details: c.type })
  const a = c.value.address
  return a.type === 'scAddressTypeAccount'
    ? StrKey.encodeEd25519PublicKey(a.accountId.ed25519.toBytes())
    : Address.fromScAddress(a).toString()
}
