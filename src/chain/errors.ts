import { xdr } from '@stellar/stellar-sdk'

/**
 * Base class of every chain-access error: a short message plus optional details.
 */
export class ChainError extends Error {
  override name = 'ChainError'
  readonly details: string | undefined
  /**
   * Stroops the network charged for a transaction that was applied and failed; undefined when
   * nothing was applied (a failed simulation, a rejected envelope) and nothing was paid.
   */
  readonly feeCharged: bigint | undefined
  constructor(message: string, options: { details?: string; cause?: unknown; feeCharged?: bigint } = {}) {
    super(options.details ? `${message}: ${options.details}` : message, { cause: options.cause })
    this.details = options.details
    this.feeCharged = options.feeCharged
  }
}

/**
 * A contract returned `Error(Contract, #code)`, in simulation or on chain. `code` is the numeric
 * `#[contracterror]` value (the Stellar Asset Contract 1-15, vault 100-199, registry 200-299,
 * Blend pool 1200+).
 */
export class ContractError extends ChainError {
  override name = 'ContractError'
  readonly code: number
  constructor(code: number, options: { details?: string; cause?: unknown; feeCharged?: bigint } = {}) {
    super(`contract error #${code}`, options)
    this.code = code
  }
}

/** Simulation failed without a contract error code (host trap, missing entry, bad args...). */
export class SimulationError extends ChainError {
  override name = 'SimulationError'
}

/** sendTransaction answered ERROR (the network refused the envelope). `result` is the XDR code name. */
export class TransactionRejectedError extends ChainError {
  override name = 'TransactionRejectedError'
  readonly result: string
  constructor(result: string, options: { details?: string; cause?: unknown } = {}) {
    super(`transaction rejected (${result})`, options)
    this.result = result
  }
}

/**
 * A transaction bounded to the ledgers up to `lastLedger` (`SubmitOptions.lastLedger`) was not
 * included by then, so it never can be: nothing was applied and no fee was charged.
 */
export class LedgerMissedError extends ChainError {
  override name = 'LedgerMissedError'
  readonly lastLedger: number
  constructor(lastLedger: number, options: { details?: string; cause?: unknown } = {}) {
    super(`transaction not included by its last ledger ${lastLedger}`, options)
    this.lastLedger = lastLedger
  }
}

/** The transaction was included in a ledger but failed. */
export class TransactionFailedError extends ChainError {
  override name = 'TransactionFailedError'
  readonly hash: string
  readonly result: string
  constructor(hash: string, result: string, options: { details?: string; cause?: unknown; feeCharged?: bigint } = {}) {
    super(`transaction ${hash} failed (${result})`, options)
    this.hash = hash
    this.result = result
  }
}

/** Every bounded retry was used up (TRY_AGAIN_LATER, expired submissions, bad sequence). */
export class RetriesExhaustedError extends ChainError {
  override name = 'RetriesExhaustedError'
}

/**
 * The RPC node could not be reached: the connection was refused, reset, timed out or the host
 * name did not resolve. `url` is the RPC URL; `reason` the system code when there is one
 * (`ECONNREFUSED`, `ENOTFOUND`, ...). Nothing was read, and nothing was sent.
 */
export class ConnectionError extends ChainError {
  override name = 'ConnectionError'
  readonly url: string
  readonly reason: string
  constructor(url: string, reason: string, options: { cause?: unknown } = {}) {
    super(`cannot reach the RPC at ${url} (${reason})`, options)
    this.url = url
    this.reason = reason
  }
}

/** System error codes that mean the node was not reached. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_NETWORK',
])

/**
 * The reason an error says the RPC node was not reached (`ECONNREFUSED`, ...), or `undefined`
 * when it is any other error (an answer from the node, a contract error, ...). Recognises Node's
 * system errors, HTTP-client errors that got no response, and `fetch failed` with such a cause.
 *
 * @example
 * import { connectionFailureReason } from './errors.js'
 * connectionFailureReason(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' })) // 'ECONNREFUSED'
 * connectionFailureReason(new Error('Account not found')) // undefined
 */
/** Whether `reason` is a socket error code (ECONNREFUSED, ENOTFOUND...) rather than a generic one. */
export function isSocketErrorCode(reason: string): boolean {
  return CONNECTION_CODES.has(reason)
}

export function connectionFailureReason(err: unknown): string | undefined {
  if (err instanceof ConnectionError) return err.reason
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const o = e as { code?: unknown; cause?: unknown }
    if (typeof o.code === 'string' && CONNECTION_CODES.has(o.code)) return o.code
    e = o.cause
  }
  const o = err as { isAxiosError?: unknown; response?: unknown; code?: unknown; message?: unknown } | null
  if (o !== null && typeof o === 'object') {
    // An HTTP client error without a response (a cancelled request aside): no answer came.
    if (o.isAxiosError === true && o.response === undefined && o.code !== 'ERR_CANCELED') {
      return typeof o.code === 'string' ? o.code : 'no response'
    }
    if (o instanceof TypeError && o.message === 'fetch failed') return 'fetch failed'
  }
  return undefined
}

const CONTRACT_ERROR_TEXT = /Error\(Contract, #(\d+)\)/

/**
 * The contract error code in a host error text such as `HostError: Error(Contract, #201)`, or
 * `undefined` when the text names no contract error.
 *
 * @example
 * import { contractErrorCode } from './errors.js'
 * contractErrorCode('HostError: Error(Contract, #201)') // 201
 */
export function contractErrorCode(text: string): number | undefined {
  const m = CONTRACT_ERROR_TEXT.exec(text)
  return m?.[1] === undefined ? undefined : Number(m[1])
}

/**
 * The first contract error code carried by diagnostic events (an `ScVal::Error` of type
 * Contract in the topics or data), or `undefined`.
 */
export function contractErrorCodeInEvents(events: readonly xdr.DiagnosticEvent[] | undefined): number | undefined {
  for (const ev of events ?? []) {
    try {
      const body = ev.event.body.v0
      for (const v of [...body.topics, body.data]) {
        const code = contractCodeOfScVal(v)
        if (code !== undefined) return code
      }
    } catch {
      // A malformed event carries nothing we can use.
    }
  }
  return undefined
}

/**
 * The host errors a failed transaction's diagnostic events name, as `Error(Type, Code)` plus the
 * event's message when it has one (e.g. `Error(Budget, ExceededLimit): ...`), first one first.
 */
export function hostErrorsInEvents(events: readonly xdr.DiagnosticEvent[] | undefined): string[] {
  const out: string[] = []
  for (const ev of events ?? []) {
    try {
      const body = ev.event.body.v0
      const err = body.topics.find((t) => t.type === 'scvError')
      if (err === undefined) continue
      const e = err.error
      const code = e.type === 'sceContract' ? `#${e.contractCode}` : e.code.name.replace(/^scec/, '')
      const data = body.data
      const first = data.type === 'scvVec' ? data.vec?.[0] : data
      const msg = first?.type === 'scvString' ? `: ${first.str.toString()}` : ''
      out.push(`Error(${e.type.replace(/^sce/, '')}, ${code})${msg}`)
    } catch {
      // A malformed event carries nothing we can use.
    }
  }
  return out
}

function contractCodeOfScVal(v: xdr.ScVal): number | undefined {
  if (v.type === 'scvError') {
    const err = v.error
    if (err.type === 'sceContract') return err.contractCode
    return undefined
  }
  if (v.type === 'scvVec') {
    for (const item of v.vec ?? []) {
      const code = contractCodeOfScVal(item)
      if (code !== undefined) return code
    }
  }
  return undefined
}

/**
 * A typed error for a failed simulation: `ContractError` when the text or the events carry a
 * contract error code, `SimulationError` otherwise.
 */
export function simulationFailure(text: string, events?: readonly xdr.DiagnosticEvent[]): ChainError {
  const code = contractErrorCode(text) ?? contractErrorCodeInEvents(events)
  const details = text.split('\n')[0] ?? text
  return code === undefined ? new SimulationError('simulation failed', { details }) : new ContractError(code, { details })
}
