/**
 * The back half of the submission pipeline: simulate for submission, send a signed envelope and
 * follow it to its outcome. Shared by `submit` (keys held here) and `sendSigned` (a wallet signs).
 * Browser-safe: only `@stellar/stellar-sdk` and ./errors.js.
 */
import { rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import type { Chain } from './connection.js'
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
 * Simulates `tx` for submission (with the chain's instruction leeway).
 * @throws ContractError, SimulationError, or ChainError when the footprint needs a restore
 */
export async function simulateOrThrow(chain: Chain, tx: Transaction): Promise<rpc.Api.SimulateTransactionSuccessResponse> {
  const sim =
    chain.instructionLeeway > 0
      ? await chain.server.simulateTransaction(tx, { cpuInstructions: chain.instructionLeeway })
      : await chain.server.simulateTransaction(tx)
  if (rpc.Api.isSimulationError(sim)) throw simulationFailure(sim.error, sim.events)
  if (rpc.Api.isSimulationRestore(sim)) {
    throw new ChainError('simulation needs a state restore first', { details: 'archived ledger entries in the footprint' })
  }
  return sim
}

export type Outcome =
  | { kind: 'included'; hash: string; ledger: number; returnValue: xdr.ScVal | undefined }
  | { kind: 'rebuild'; reason: string }

/**
 * Sends `tx` and polls it: TRY_AGAIN_LATER is resent with backoff; an envelope that got no answer
 * is followed by hash; `rebuild` means it can never be included (expired or txBAD_SEQ).
 */
export async function sendAndPoll(chain: Chain, tx: Transaction): Promise<Outcome> {
  const hash = xdr.encodeBytes(tx.hash(), 'hex')
  let backoff = chain.retry.backoffMs
  for (let tries = 0; ; tries++) {
    let sent: rpc.Api.SendTransactionResponse
    try {
      sent = await chain.server.sendTransaction(tx)
    } catch {
      // No answer (connection reset, timeout): the envelope may have reached the network, so
      // the only safe next step is to follow it by hash, never to send a new one.
      break
    }
    if (sent.status === 'PENDING' || sent.status === 'DUPLICATE') break
    if (sent.status === 'TRY_AGAIN_LATER') {
      if (tries >= chain.retry.tryAgainLater) {
        throw new RetriesExhaustedError('network kept answering TRY_AGAIN_LATER', { details: hash })
      }
      await chain.clock.sleep(backoff)
      backoff *= 2
      continue
    }
    // ERROR
    const code = sent.errorResult?.result.type ?? 'unknown'
    if (code === 'txBadSeq') return { kind: 'rebuild', reason: 'txBadSeq' }
    const contractCode = contractErrorCodeInEvents(sent.diagnosticEvents)
    if (contractCode !== undefined) throw new ContractError(contractCode, { details: `rejected ${hash}` })
    throw new TransactionRejectedError(code, { details: hash })
  }

  const maxTime = Number(tx.timeBounds?.maxTime ?? 0)
  const deadline = maxTime > 0 ? maxTime * 1000 + chain.retry.expiryGraceMs : chain.clock.now() + 60_000
  while (chain.clock.now() < deadline) {
    // A failed poll is retried until the deadline: a transient RPC error says nothing about
    // the transaction.
    const res = await chain.server.getTransaction(hash).catch(() => undefined)
    if (res && res.status !== rpc.Api.GetTransactionStatus.NOT_FOUND) return settle(hash, res)
    await chain.clock.sleep(chain.retry.pollIntervalMs)
  }
  // Timed out: resolve by hash before anything is retried.
  let latest: rpc.Api.GetLatestLedgerResponse
  let again: rpc.Api.GetTransactionResponse
  try {
    latest = await chain.server.getLatestLedger()
    again = await chain.server.getTransaction(hash)
  } catch (err) {
    throw new ChainError('submission unresolved', { details: `${hash}: cannot look it up`, cause: err })
  }
  if (again.status !== rpc.Api.GetTransactionStatus.NOT_FOUND) return settle(hash, again)
  const closeTime = Number(latest.closeTime ?? 0)
  if (maxTime > 0 && closeTime > 0 && closeTime <= maxTime) {
    // The network has not moved past maxTime: the envelope could still be included, so a new
    // one could double-apply. Give up instead of rebuilding.
    throw new ChainError('submission unresolved', { details: `${hash} still pending at ledger ${latest.sequence}` })
  }
  return { kind: 'rebuild', reason: `expired ${hash}` }
}

function settle(hash: string, res: rpc.Api.GetTransactionResponse): Outcome {
  if (res.status === rpc.Api.GetTransactionStatus.SUCCESS) {
    return { kind: 'included', hash, ledger: res.ledger, returnValue: res.returnValue }
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

/** `txFailed/invokeHostFunctionTrapped`-style name of a failed transaction result. */
function failureName(result: xdr.TransactionResult): string {
  const tx = safe(() => result.result.type) ?? 'txFailed'
  const op = safe(() => {
    const r = result.result
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
