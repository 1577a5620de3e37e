import { Account, Keypair, rpc, xdr } from '@stellar/stellar-sdk'
import { ConnectionError, connectionFailureReason, isSocketErrorCode } from './errors.js'
import type { ChainFees } from './fees.js'
import { withLazyLatestLedger } from './latestLedger.js'
import { redactUrl } from './redact.js'

/** The subset of `rpc.Server` the pipeline uses (lets unit tests substitute a fake node). */
export type RpcLike = Pick<
  rpc.Server,
  'getAccount' | 'simulateTransaction' | 'sendTransaction' | 'getTransaction' | 'getLatestLedger' | 'getNetwork'
>

/** Bounded retry policy of the submission pipeline. */
export interface RetryPolicy {
  /** sendTransaction TRY_AGAIN_LATER answers resent (each after the next ledger) before giving up. */
  tryAgainLater: number
  /** Full rebuilds (fresh sequence number and simulation) after an expired submission or txBAD_SEQ. */
  rebuilds: number
  /** Wait after a TRY_AGAIN_LATER before the first look at the latest ledger (ms). */
  backoffMs: number
  /** getTransaction polling interval, and getLatestLedger's while a resend waits for the next ledger (ms). */
  pollIntervalMs: number
  /** Extra wait after a transaction's maxTime before declaring it expired (ms). */
  expiryGraceMs: number
}

export const DEFAULT_RETRY: RetryPolicy = {
  tryAgainLater: 5,
  rebuilds: 2,
  backoffMs: 500,
  pollIntervalMs: 500,
  expiryGraceMs: 3_000,
}

/**
 * The time a chain client lives in: transaction time bounds, resend backoff and result polling.
 * The wall clock by default; a simulation harness gives its clients the simulated one.
 */
export interface ChainClock {
  /** Milliseconds since the epoch. */
  now(): number
  sleep(ms: number): Promise<void>
}

export const WALL_CLOCK: ChainClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((r) => setTimeout(r, ms)),
}

/** A new transaction's maxTime (seconds): the chain's clock plus its timeout; 0 (none) without one. */
export function maxTimeOf(chain: Pick<Chain, 'clock' | 'txTimeoutSeconds'>): number {
  return chain.txTimeoutSeconds > 0 ? Math.floor(chain.clock.now() / 1000) + chain.txTimeoutSeconds : 0
}

/** Everything needed to talk to one network. */
export interface Chain {
  server: RpcLike
  networkPassphrase: string
  /**
   * Inclusion fee bid per operation, in stroops, when neither the submission nor `fees` names
   * one; the simulated resource fee is added on top.
   */
  inclusionFee: number
  /**
   * Fee defaults of every submission that names none: a dynamic inclusion fee and a fee-bump
   * policy (the keeper's FEE_STRATEGY and FEE_BUMP_LEDGERS). Absent: `inclusionFee`, no bump.
   */
  fees?: ChainFees | undefined
  /** Seconds a submitted transaction stays valid (its maxTime). */
  txTimeoutSeconds: number
  /**
   * The network's ledger time in ms (ledgerTime.ts), when read: it turns `txTimeoutSeconds` into
   * ledgers (auth signature expiry). Absent: DEFAULT_LEDGER_MS.
   */
  ledgerMs?: number | undefined
  friendbotUrl: string | undefined
  retry: RetryPolicy
  /**
   * CPU instructions added to every simulated invocation's estimate (stellar-rpc
   * `resourceConfig.instructionLeeway`); 0 = the node's own adjustment only.
   */
  instructionLeeway: number
  clock: ChainClock
  /**
   * Resolves when a ledger newer than the latest one known closes (a keeper's ledger clock);
   * rejects when `signal` aborts. A transaction lands only when a ledger closes, so result polls
   * wake then rather than waiting out `retry.pollIntervalMs` (which stays the longest wait).
   */
  nextClose?: ((signal: AbortSignal) => Promise<unknown>) | undefined
  /**
   * The latest ledger the caller's ledger clock has seen close (undefined before the first): a
   * transaction bounded to an earlier ledger (`SubmitOptions.lastLedger`) is given up without a
   * request to the node.
   */
  latestLedger?: (() => number | undefined) | undefined
  /**
   * Told of every TRY_AGAIN_LATER answer to a send (the node did not queue the envelope: its
   * source account already has a transaction queued): `tries` counts them for this envelope.
   */
  onTryAgainLater?: ((refusal: { hash: string; latestLedger: number | undefined; tries: number }) => void) | undefined
}

export interface CreateChainParameters {
  rpcUrl: string
  networkPassphrase: string
  /** Defaults to true for http:// URLs (local networks). */
  allowHttp?: boolean
  inclusionFee?: number
  txTimeoutSeconds?: number
  friendbotUrl?: string
  retry?: Partial<RetryPolicy>
  instructionLeeway?: number
  /** The network's ledger time in ms, when the caller knows it (ledgerTime.ts reads it). */
  ledgerMs?: number
  /** Use this node client instead of building an `rpc.Server` (tests). It is used as given. */
  server?: RpcLike
  /** Default: the wall clock. */
  clock?: ChainClock
}

function mapConnectionError(label: string, err: unknown): unknown {
  const reason = connectionFailureReason(err)
  return reason === undefined || err instanceof ConnectionError ? err : new ConnectionError(label, reason, { cause: err })
}

/**
 * The SDK's fetch transport reports an unreachable node as a bare `fetch failed`, without the
 * socket's error code. One direct request to `url` tells which it is (ECONNREFUSED, ENOTFOUND,
 * ETIMEDOUT...); undefined when the node answers now or the probe says nothing more.
 */
export async function probeConnection(url: string, timeoutMs = 2_000): Promise<string | undefined> {
  try {
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}',
      signal: AbortSignal.timeout(timeoutMs),
    })
    return undefined
  } catch (err) {
    if ((err as Error | undefined)?.name === 'TimeoutError') return 'ETIMEDOUT'
    const reason = connectionFailureReason(err)
    return reason !== undefined && isSocketErrorCode(reason) ? reason : undefined
  }
}

async function mapConnectionErrorAsync(url: string, label: string, err: unknown): Promise<unknown> {
  const mapped = mapConnectionError(label, err)
  if (!(mapped instanceof ConnectionError) || mapped === err || isSocketErrorCode(mapped.reason)) return mapped
  const code = await probeConnection(url)
  return code === undefined ? mapped : new ConnectionError(label, code, { cause: err })
}

/**
 * `server` with every call that could not reach the node failing as a `ConnectionError` naming
 * `url` (instead of the HTTP client's `connect ECONNREFUSED 127.0.0.1:8000`), and a `getAccount`
 * that tells a node it cannot reach from a missing account: the SDK's own `getAccount` turns any
 * failure into `Account not found: G...`. Other errors and every answer pass through unchanged.
 */
export function withConnectionErrors<S extends object>(server: S, url: string, opts: { label?: string } = {}): S {
  const label = opts.label ?? url
  const getAccount = async (address: string): Promise<Account> => {
    const s = server as unknown as Pick<rpc.Server, 'getLedgerEntries'>
    const key = xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(address).xdrPublicKey() }))
    let res: rpc.Api.GetLedgerEntriesResponse
    try {
      res = await s.getLedgerEntries(key)
    } catch (err) {
      throw await mapConnectionErrorAsync(url, label, err)
    }
    const entry = res.entries[0]
    if (entry === undefined) throw new Error(`Account not found: ${address}`)
    return new Account(address, xdr.expectUnionVariant(entry.val, 'account').account.seqNum.toString())
  }
  return new Proxy(server, {
    get(target, prop, receiver) {
      if (prop === 'getAccount' && typeof (target as { getLedgerEntries?: unknown }).getLedgerEntries === 'function') return getAccount
      const value = Reflect.get(target, prop, receiver) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        let out: unknown
        try {
          out = (value as (...a: unknown[]) => unknown).apply(target, args)
        } catch (err) {
          throw mapConnectionError(label, err)
        }
        if (out instanceof Promise) return out.catch(async (err: unknown) => Promise.reject(await mapConnectionErrorAsync(url, label, err)))
        return out
      }
    },
  })
}

/**
 * Connects to a Stellar RPC endpoint. A call that cannot reach it fails with a `ConnectionError`
 * naming `rpcUrl`, its credentials masked (redact.ts; see `withConnectionErrors`; a `server` passed in is used as given).
 *
 * @example
 * import { createChain } from './index.js'
 * const chain = createChain({ rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase })
 */
export function createChain(p: CreateChainParameters): Chain {
  const server =
    p.server ??
    withConnectionErrors(withLazyLatestLedger(new rpc.Server(p.rpcUrl, { allowHttp: p.allowHttp ?? p.rpcUrl.startsWith('http://') })), p.rpcUrl, {
      label: redactUrl(p.rpcUrl),
    })
  return {
    server,
    networkPassphrase: p.networkPassphrase,
    inclusionFee: p.inclusionFee ?? 100,
    txTimeoutSeconds: p.txTimeoutSeconds ?? 30,
    friendbotUrl: p.friendbotUrl,
    retry: { ...DEFAULT_RETRY, ...p.retry },
    instructionLeeway: p.instructionLeeway ?? 0,
    clock: p.clock ?? WALL_CLOCK,
    ...(p.ledgerMs === undefined ? {} : { ledgerMs: p.ledgerMs }),
  }
}
