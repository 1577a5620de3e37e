import { redactText } from '../../chain/redact.js'

/** Consecutive failed ledger polls after which the RPC counts as unreachable. */
export const RPC_FAILED_POLLS = 2

export interface ReadinessStatus {
  ready: boolean
  /** Why not, in words (null when ready). */
  reason: string | null
  cycles: { finished: number; consecutiveFailed: number; failedLimit: number; lastError: string | null }
  rpc: { reachable: boolean; consecutiveFailures: number; unreachableSince: string | null; lastError: string | null }
}

/**
 * What /readyz answers: ready once a poll cycle has finished, unless the last `failedCycles`
 * cycles all had errors or the RPC is unreachable (the ledger clock's last RPC_FAILED_POLLS polls
 * failed). It is ready again as soon as a cycle runs clean and a poll answers.
 */
export class Readiness {
  private finished = 0
  private consecutiveFailed = 0
  private lastCycleError: string | null = null
  private rpcFailures = 0
  private rpcDownSince: number | null = null
  private lastRpcError: string | null = null

  constructor(
    readonly failedCycles: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A poll cycle finished with `errors` errors (`lastError`: the cycle's error line). */
  cycle(errors: number, lastError: string | null = null): void {
    this.finished++
    if (errors > 0) {
      this.consecutiveFailed++
      this.lastCycleError = lastError === null ? `${errors} error(s)` : redactText(lastError)
    } else {
      this.consecutiveFailed = 0
      this.lastCycleError = null
    }
  }

  /** The RPC answered a poll. */
  rpcOk(): void {
    this.rpcFailures = 0
    this.rpcDownSince = null
  }

  /** A poll of the RPC failed. */
  rpcFailed(err: unknown): void {
    this.rpcFailures++
    this.rpcDownSince ??= this.now()
    this.lastRpcError = redactText(err instanceof Error ? err.message : String(err))
  }

  status(): ReadinessStatus {
    const rpcDown = this.rpcFailures >= RPC_FAILED_POLLS
    const cyclesFailed = this.consecutiveFailed >= this.failedCycles
    const reasons: string[] = []
    if (rpcDown) reasons.push(`RPC unreachable since ${new Date(this.rpcDownSince!).toISOString()} (${this.lastRpcError ?? 'no answer'})`)
    if (cyclesFailed) reasons.push(`the last ${this.consecutiveFailed} poll cycles failed (${this.lastCycleError ?? 'errors'})`)
    if (this.finished === 0 && reasons.length === 0) reasons.push('starting: no poll cycle has finished yet')
    return {
      ready: reasons.length === 0,
      reason: reasons.length === 0 ? null : reasons.join('; '),
      cycles: { finished: this.finished, consecutiveFailed: this.consecutiveFailed, failedLimit: this.failedCycles, lastError: this.lastCycleError },
      rpc: {
        reachable: !rpcDown,
        consecutiveFailures: this.rpcFailures,
        unreachableSince: this.rpcDownSince === null ? null : new Date(this.rpcDownSince).toISOString(),
        lastError: this.lastRpcError,
      },
    }
  }
}

/** `source` (a ledger clock's RPC) with every getLatestLedger answer or failure told to `readiness`. */
export function watchedLedgerSource<S extends { getLatestLedger(): Promise<unknown> }>(source: S, readiness: Readiness): S {
  return new Proxy(source, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown
      if (prop !== 'getLatestLedger' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value
      return async () => {
        try {
          const out = await (value as () => Promise<unknown>).call(target)
          readiness.rpcOk()
          return out
        } catch (err) {
          readiness.rpcFailed(err)
          throw err
        }
      }
    },
  })
}
