/**
 * The back half of the submission pipeline: simulate for submission, send a signed envelope and
 * follow it to its outcome. Shared by `submit` (keys held here) and `sendSigned` (a wallet signs).
 * Browser-safe: only `@stellar/stellar-sdk`, ./errors.js, ./fees.js and ./dryRun.js.
 */
import { rpc, xdr, type Keypair, type Transaction } from '@stellar/stellar-sdk'
import type { Chain } from './connection.js'
import { DryRunRefusal } from './dryRun.js'
import { inclusionFeeOf, signedFeeBump, type FeeBumpPolicy, type FeeBumpRecord, type QueuedTransaction } from './fees.js'
import {
  ChainError,
  ContractError,
  RetriesExhaustedError,
  TransactionFailedError,
  TransactionRejectedError,
  contractErrorCodeInEvents,
  hostErrorsInEvents,
  simulationFailure,
} from './errors.js'

/**
 * Simulates `tx` for submission (with the chain's instruction leeway). `authMode`
 * `record_allow_nonroot` records a `require_auth` made below the transaction's root call (an
 * executor's `on_flash`, called back by the vault, requiring its owner); the node's default
 * records only those of the root call (and enforces the entries a transaction already carries).
 * @throws ContractError, SimulationError, or ChainError when the footprint needs a restore
 */
export async function simulateOrThrow(
  chain: Chain,
  tx: Transaction,
  authMode?: 'record_allow_nonroot',
): Promise<rpc.Api.SimulateTransactionSuccessResponse> {
  const leeway = chain.instructionLeeway > 0 ? { cpuInstructions: chain.instructionLeeway } : undefined
  const sim =
    authMode !== undefined
      ? await chain.server.simulateTransaction(tx, leeway, authMode)
      : leeway !== undefined
        ? await chain.server.simulateTransaction(tx, leeway)
        : await chain.server.simulateTransaction(tx)
  if (rpc.Api.isSimulationError(sim)) throw simulationFailure(sim.error, sim.events)
  if (rpc.Api.isSimulationRestore(sim)) {
    throw new ChainError('simulation needs a state restore first', { details: 'archived ledger entries in the footprint' })
  }
  return sim
}

export type Outcome =
  | {
      kind: 'included'
      /** The hash that was included: the fee bump's when the bump landed. */
      hash: string
      ledger: number
      returnValue: xdr.ScVal | undefined
      /** The contract events the transaction emitted, in order (empty when the node's answer has none). */
      events: xdr.ContractEvent[]
      /** The fee the network charged (the result's `feeCharged`, stroops); undefined when the answer has no result. */
      feeCharged: bigint | undefined
      /** Latest ledger when the transaction was sent; undefined when no answer told it. */
      sentLedger: number | undefined
      /** The fee bump sent for it, if any (whether or not it is what landed). */
      feeBump: FeeBumpRecord | undefined
      /** True when the fee bump is what was included. */
      bumped: boolean
    }
  | { kind: 'rebuild'; reason: string }
  /** Its upper ledger bound passed without it: it can never be included, and a rebuild would not help. */
  | { kind: 'missed'; lastLedger: number }

export interface SendOptions {
  /** Fee-bump `tx` once when it is not included in time; needs `feeSource`. */
  feeBump?: FeeBumpPolicy | undefined
  /** Pays and signs the fee bump (the transaction's source). */
  feeSource?: Keypair | undefined
}

/**
 * Sends `tx` and polls it: TRY_AGAIN_LATER is resent after the next ledger (sendWithRetry); an envelope that got no answer
 * is followed by hash; `rebuild` means it can never be included (expired or txBAD_SEQ). A
 * transaction with an upper ledger bound is `missed` once the node answers past its last ledger
 * without it (or refuses it as txTOO_LATE).
 *
 * With a fee-bump policy, once `feeBump.afterLedgers` ledgers have closed after the send without
 * the transaction (the latest ledger of the poll answers, else getLatestLedger, against the one
 * of the send's answer), one fee bump of it is sent at the policy's bid, paid and signed by
 * `feeSource`. From then on both hashes are followed: the bump may be refused (the original can
 * still land) or the original may land first.
 */
export async function sendAndPoll(chain: Chain, tx: Transaction, opts: SendOptions = {}): Promise<Outcome> {
  const hash = xdr.encodeBytes(tx.hash(), 'hex')
  const sent = await sendWithRetry(chain, tx, hash)
  if (sent.kind !== 'sent') return sent
  let sentLedger = sent.latestLedger
  const policy = opts.feeBump !== undefined && opts.feeSource !== undefined && opts.feeBump.afterLedgers > 0 ? opts.feeBump : undefined
  let feeBump: FeeBumpRecord | undefined
  let bumpDone = policy === undefined
  // Newest first: a landed fee bump is reported under its own hash.
  const followed = [hash]
  const included = (h: string, res: rpc.Api.GetTransactionResponse): Outcome | undefined => {
    if (followed.length > 1 && isBadSeq(res)) {
      // The other of the two took the sequence number: follow that one.
      followed.splice(followed.indexOf(h), 1)
      return undefined
    }
    return settle(h, res, { sentLedger, feeBump, bumped: h !== hash })
  }

  const maxTime = Number(tx.timeBounds?.maxTime ?? 0)
  const deadline = maxTime > 0 ? maxTime * 1000 + chain.retry.expiryGraceMs : chain.clock.now() + 60_000
  const lastLedger = lastLedgerOf(tx)
  while (chain.clock.now() < deadline) {
    let latest: number | undefined
    // How many of the followed hashes were answered "not found" by a node past the last ledger.
    let pastLast = 0
    for (const h of [...followed]) {
      // A failed poll is retried until the deadline: a transient RPC error says nothing about
      // the transaction.
      const res = await chain.server.getTransaction(h).catch(() => undefined)
      if (res === undefined) continue
      if (res.status !== rpc.Api.GetTransactionStatus.NOT_FOUND) {
        const out = included(h, res)
        if (out !== undefined) return out
      }
      if (typeof res.latestLedger === 'number') {
        latest = Math.max(latest ?? 0, res.latestLedger)
        if (lastLedger !== undefined && res.status === rpc.Api.GetTransactionStatus.NOT_FOUND && res.latestLedger >= lastLedger) pastLast++
      }
    }
    if (lastLedger !== undefined && pastLast === followed.length) return { kind: 'missed', lastLedger }
    sentLedger ??= latest
    if (!bumpDone && policy !== undefined) {
      latest ??= await chain.server.getLatestLedger().then((l) => l.sequence, () => undefined)
      if (latest !== undefined && sentLedger !== undefined && latest - sentLedger >= policy.afterLedgers) {
        bumpDone = true
        feeBump = await bumpOnce(chain, tx, hash, policy, opts.feeSource!, sentLedger, latest)
        if (feeBump !== undefined && feeBump.outcome !== 'refused') followed.unshift(feeBump.hash)
      }
    }
    await untilNextPoll(chain)
  }
  // Timed out: resolve by hash before anything is retried.
  let latest: rpc.Api.GetLatestLedgerResponse
  try {
    latest = await chain.server.getLatestLedger()
    for (const h of [...followed]) {
      const again = await chain.server.getTransaction(h)
      if (again.status !== rpc.Api.GetTransactionStatus.NOT_FOUND) {
        const out = included(h, again)
        if (out !== undefined) return out
      }
    }
  } catch (err) {
    throw new ChainError('submission unresolved', { details: `${hash}: cannot look it up`, cause: err })
  }
  const closeTime = Number(latest.closeTime ?? 0)
  if (maxTime > 0 && closeTime > 0 && closeTime <= maxTime) {
    // The network has not moved past maxTime: the envelope could still be included, so a new
    // one could double-apply. Give up instead of rebuilding.
    throw new ChainError('submission unresolved', { details: `${hash} still pending at ledger ${latest.sequence}` })
  }
  return { kind: 'rebuild', reason: `expired ${hash}` }
}

/**
 * Sends `tx`, resending it on TRY_AGAIN_LATER; the latest ledger of the answer when there was one.
 *
 * TRY_AGAIN_LATER means the node did not take the envelope: stellar-core's queue holds one
 * transaction per source account (src/herder/TransactionQueue.cpp, `canAdd`: a second one from an
 * account that already has one queued, or a fee bump of another sequence number, gets
 * ADD_STATUS_TRY_AGAIN_LATER). The account's queued transaction leaves the queue at a ledger close
 * at the earliest, so the same envelope is resent only once the latest ledger has moved past the
 * one the refusal named: after `retry.backoffMs`, then every `retry.pollIntervalMs`, on the
 * chain's clock. Since nothing was queued, an envelope whose maxTime passes while it waits is
 * rebuilt (a fresh one cannot double-apply). At most `retry.tryAgainLater` resends.
 */
async function sendWithRetry(
  chain: Chain,
  tx: Transaction,
  hash: string,
): Promise<{ kind: 'sent'; latestLedger: number | undefined } | { kind: 'rebuild'; reason: string } | { kind: 'missed'; lastLedger: number }> {
  for (let tries = 0; ; tries++) {
    let sent: rpc.Api.SendTransactionResponse
    try {
      sent = await chain.server.sendTransaction(tx)
    } catch (err) {
      // A dry run's client refused it before any request: nothing to follow.
      if (err instanceof DryRunRefusal) throw err
      // No answer (connection reset, timeout): the envelope may have reached the network, so
      // the only safe next step is to follow it by hash, never to send a new one.
      return { kind: 'sent', latestLedger: undefined }
    }
    if (sent.status === 'PENDING' || sent.status === 'DUPLICATE') {
      return { kind: 'sent', latestLedger: typeof sent.latestLedger === 'number' ? sent.latestLedger : undefined }
    }
    if (sent.status === 'TRY_AGAIN_LATER') {
      const refusedAt = typeof sent.latestLedger === 'number' ? sent.latestLedger : undefined
      chain.onTryAgainLater?.({ hash, latestLedger: refusedAt, tries: tries + 1 })
      if (tries >= chain.retry.tryAgainLater) {
        throw new RetriesExhaustedError('network kept answering TRY_AGAIN_LATER', { details: hash })
      }
      if (!(await nextLedger(chain, tx, refusedAt))) return { kind: 'rebuild', reason: `expired waiting to resend ${hash}` }
      continue
    }
    // ERROR
    const code = sent.errorResult?.result.type ?? 'unknown'
    if (code === 'txBadSeq') return { kind: 'rebuild', reason: 'txBadSeq' }
    const lastLedger = lastLedgerOf(tx)
    if (code === 'txTooLate' && lastLedger !== undefined) return { kind: 'missed', lastLedger }
    const contractCode = contractErrorCodeInEvents(sent.diagnosticEvents)
    if (contractCode !== undefined) throw new ContractError(contractCode, { details: `rejected ${hash}` })
    throw new TransactionRejectedError(code, { details: hash })
  }
}

/** Until the next result poll: the next ledger close when the chain knows one, at most `retry.pollIntervalMs`. */
async function untilNextPoll(chain: Chain): Promise<void> {
  if (chain.nextClose === undefined) return chain.clock.sleep(chain.retry.pollIntervalMs)
  const stop = new AbortController()
  const closed = chain.nextClose(stop.signal).catch(() => undefined)
  await Promise.race([chain.clock.sleep(chain.retry.pollIntervalMs), closed])
  stop.abort()
}

/**
 * Waits until the latest ledger is past `after` (the one a TRY_AGAIN_LATER answer named; without
 * one, the first one read here): sleeps `retry.backoffMs`, then polls getLatestLedger every
 * `retry.pollIntervalMs`. A failed poll counts as no news. False when `tx`'s maxTime (plus the
 * grace) passed first, or after 60 s without one.
 */
async function nextLedger(chain: Chain, tx: Transaction, after: number | undefined): Promise<boolean> {
  const maxTime = Number(tx.timeBounds?.maxTime ?? 0)
  const deadline = maxTime > 0 ? maxTime * 1000 + chain.retry.expiryGraceMs : chain.clock.now() + 60_000
  let since = after
  await chain.clock.sleep(chain.retry.backoffMs)
  for (;;) {
    const latest = await chain.server.getLatestLedger().then(
      (l) => l.sequence,
      () => undefined,
    )
    if (latest !== undefined) {
      if (since !== undefined && latest > since) return true
      since ??= latest
    }
    if (chain.clock.now() >= deadline) return false
    await chain.clock.sleep(chain.retry.pollIntervalMs)
  }
}

/** Asks the policy for a bid and sends one fee bump of `tx` at it (never resent). */
async function bumpOnce(
  chain: Chain,
  tx: Transaction,
  hash: string,
  policy: FeeBumpPolicy,
  feeSource: Keypair,
  sentLedger: number,
  latestLedger: number,
): Promise<FeeBumpRecord | undefined> {
  const queued: QueuedTransaction = { hash, inclusionFee: inclusionFeeOf(tx), operations: tx.operations.length, sentLedger, latestLedger }
  const bid = await Promise.resolve()
    .then(() => policy.bid(queued))
    .catch(() => undefined)
  if (bid === undefined) {
    policy.onBump?.(queued, 'skipped')
    return undefined
  }
  let record: FeeBumpRecord
  try {
    const bump = signedFeeBump(tx, feeSource, bid, chain.networkPassphrase)
    const bumpHash = xdr.encodeBytes(bump.hash(), 'hex')
    try {
      const res = await chain.server.sendTransaction(bump)
      record =
        res.status === 'PENDING' || res.status === 'DUPLICATE'
          ? { hash: bumpHash, inclusionFee: bid, outcome: 'accepted' }
          : { hash: bumpHash, inclusionFee: bid, outcome: 'refused', reason: res.status === 'ERROR' ? (res.errorResult?.result.type ?? 'ERROR') : res.status }
    } catch (err) {
      if (err instanceof DryRunRefusal) throw err
      // No answer: it may have reached the network; follow it like the original.
      record = { hash: bumpHash, inclusionFee: bid, outcome: 'unanswered' }
    }
  } catch (err) {
    record = { hash: '', inclusionFee: bid, outcome: 'refused', reason: err instanceof Error ? err.message : String(err) }
  }
  policy.onBump?.(queued, record)
  return record
}

/** The last ledger `tx` may be included in, when it carries an upper ledger bound (exclusive in the XDR). */
export function lastLedgerOf(tx: Transaction): number | undefined {
  const max = tx.ledgerBounds?.maxLedger ?? 0
  return max > 0 ? max - 1 : undefined
}

/** A failed result whose (inner) code is txBadSeq: the sequence number went to the other envelope. */
function isBadSeq(res: rpc.Api.GetTransactionResponse): boolean {
  if (res.status !== rpc.Api.GetTransactionStatus.FAILED) return false
  return safe(() => innerResult(res.resultXdr).type) === 'txBadSeq'
}

function settle(
  hash: string,
  res: rpc.Api.GetTransactionResponse,
  info: { sentLedger: number | undefined; feeBump: FeeBumpRecord | undefined; bumped: boolean },
): Outcome {
  if (res.status === rpc.Api.GetTransactionStatus.SUCCESS) {
    const feeCharged = safe(() => BigInt(res.resultXdr.feeCharged.toString()))
    const events = safe(() => res.events?.contractEventsXdr?.flat() ?? []) ?? []
    return { kind: 'included', hash, ledger: res.ledger, returnValue: res.returnValue, events, feeCharged, ...info }
  }
  if (res.status === rpc.Api.GetTransactionStatus.FAILED) {
    const code = contractErrorCodeInEvents(failedEvents(res))
    const result = failureName(res.resultXdr)
    const feeCharged = BigInt(res.resultXdr.feeCharged.toString())
    if (code !== undefined) throw new ContractError(code, { details: `failed ${hash}`, feeCharged })
    const host = hostErrorsInEvents(failedEvents(res))
    throw new TransactionFailedError(hash, result, host.length > 0 ? { details: host.join('; '), feeCharged } : { feeCharged })
  }
  throw new ChainError('unexpected getTransaction status', { details: String(res.status) })
}

/** The result of the transaction itself: a fee bump's inner one, else the result as is. */
function innerResult(result: xdr.TransactionResult): xdr.TransactionResult['result'] | xdr.InnerTransactionResult['result'] {
  const r = result.result
  return r.type === 'txFeeBumpInnerSuccess' || r.type === 'txFeeBumpInnerFailed' ? r.innerResultPair.result.result : r
}

/** `txFailed/invokeHostFunctionTrapped`-style name of a failed transaction result. */
function failureName(result: xdr.TransactionResult): string {
  const tx = safe(() => innerResult(result).type) ?? 'txFailed'
  const op = safe(() => {
    const r = innerResult(result)
    const first = r.type === 'txSuccess' || r.type === 'txFailed' ? r.results[0] : undefined
    return first?.type === 'opInner' ? first.tr.value.type : undefined
  })
  return op ? `${tx}/${op}` : tx
}

function failedEvents(res: rpc.Api.GetFailedTransactionResponse): xdr.DiagnosticEvent[] {
  const out: xdr.DiagnosticEvent[] = [...(res.diagnosticEventsXdr ?? [])]
  const fromMeta = safe(() => {
    const meta = res.resultMetaXdr
    if (meta.type === 'v4') return meta.v4.diagnosticEvents
    if (meta.type === 'v3') return meta.v3.sorobanMeta?.diagnosticEvents ?? []
    return []
  })
  return out.concat(fromMeta ?? [])
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f()
  } catch {
    return undefined
  }
}
