import { rpc } from '@stellar/stellar-sdk'

/** The subset of `rpc.Server` the pipeline uses (lets unit tests substitute a fake node). */
export type RpcLike = Pick<
  rpc.Server,
  'getAccount' | 'simulateTransaction' | 'sendTransaction' | 'getTransaction' | 'getLatestLedger' | 'getNetwork'
>

/** Bounded retry policy of the submission pipeline. */
export interface RetryPolicy {
  /** sendTransaction TRY_AGAIN_LATER answers resent before giving up. */
  tryAgainLater: number
  /** Full rebuilds (fresh sequence number and simulation) after an expired submission or txBAD_SEQ. */
  rebuilds: number
  /** First backoff after TRY_AGAIN_LATER, doubled each time (ms). */
  backoffMs: number
  /** getTransaction polling interval (ms). */
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

/** Everything needed to talk to one network. */
export interface Chain {
  server: RpcLike
  networkPassphrase: string
  /** Inclusion fee bid per transaction, in stroops; the simulated resource fee is added on top. */
  inclusionFee: number
  /** Seconds a submitted transaction stays valid (its maxTime). */
  txTimeoutSeconds: number
  friendbotUrl: string | undefined
  retry: RetryPolicy
  /**
   * CPU instructions added to every simulated invocation's estimate (stellar-rpc
   * `resourceConfig.instructionLeeway`); 0 = the node's own adjustment only.
   */
  instructionLeeway: number
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
  /** Use this node client instead of building an `rpc.Server` (tests). */
  server?: RpcLike
}

/**
 * Connects to a Stellar RPC endpoint.
 *
 * @example
 * import { createChain } from './index.js'
 * const chain = createChain({ rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase })
 */
export function createChain(p: CreateChainParameters): Chain {
  const server =
    p.server ?? new rpc.Server(p.rpcUrl, { allowHttp: p.allowHttp ?? p.rpcUrl.startsWith('http://') })
  return {
    server,
    networkPassphrase: p.networkPassphrase,
    inclusionFee: p.inclusionFee ?? 100,
    txTimeoutSeconds: p.txTimeoutSeconds ?? 30,
    friendbotUrl: p.friendbotUrl,
    retry: { ...DEFAULT_RETRY, ...p.retry },
    instructionLeeway: p.instructionLeeway ?? 0,
  }
}
