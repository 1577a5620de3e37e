import type { KeeperInfo, VaultState } from '../clients/index.js'
import type { ExecutionView } from '../engine/index.js'
import type { Position, Result } from '../sdk/index.js'
import { PoolBooks } from './pools.js'
import type { ShadowBook } from './shadow.js'

export interface LiquidationRecord {
  /** ISO-8601 time the result was folded in. */
  at: string
  adapter: string
  /** The lending pool of the work, when it was in one. */
  pool?: string
  label: string
  drew: bigint
  proceeds: bigint
  profit: bigint
  /** The keeper's fee the vault paid for this work (0 when none). */
  reward: bigint
  responseTimeMs: number
  success: boolean
  txHash?: string
  /** The typed error behind an unsuccessful result (e.g. `ErrAlreadyFilled`), when the adapter gave one. */
  error?: Error
  /** False for work that is not a liquidation (a rebalance). */
  liquidation: boolean
  /** The swaps a landed fill sold its lot with (Result.sales). */
  sales?: Result['sales']
}

export interface DepositorView {
  address: string
  /** USDC value of the shares (vault.balance), 7 decimals. */
  balance: bigint
  shares: bigint
  costBasis: bigint
}

/** The last stale-draw recovery: what was owed, returned and is still short. */
export interface RecoveryRecord {
  at: string
  draw: bigint
  returned: bigint
  shortfall: bigint
  /** Assets that could not be sold for USDC. */
  held: string[]
}

export interface CycleStats {
  count: number
  overruns: number
  lastStartedAt: string | null
  lastDurationMs: number | null
  /**
   * The last completed cycle's error (`stage: message`, `(+N more)` when it had several), null
   * after a clean cycle.
   */
  lastError: string | null
  /** When a cycle last had an error (kept after clean cycles); null when none ever had. */
  lastErrorAt: string | null
}

/**
 * What the API shows. Rebuilt from chain each cycle (the keeper keeps no persistent state);
 * only the recent liquidation history is process-local.
 */
export class DashboardState {
  mode: 'monitor-only' | 'liquidating' = 'monitor-only'
  operator = ''
  keeperName = ''
  vault: VaultState | null = null
  keepers: KeeperInfo[] = []
  self: KeeperInfo | null = null
  positions: Position[] = []
  /** The lending pools the keeper watches (LENDING_POOLS), in their configured order. */
  lendingPools: string[] = []
  /** What this process filled in each pool since start. */
  readonly poolBooks = new PoolBooks()
  depositors: DepositorView[] = []
  history: LiquidationRecord[] = []
  outstandingDraw = 0n
  /** Ledgers since the outstanding draw was taken (0 without one). */
  outstandingDrawLedgers = 0
  /** The operator account's XLM balance in stroops (7 decimals); null until first read. */
  operatorXlm: bigint | null = null
  /** Registration with the keeper registry: retried each cycle while 'failed'. */
  registration: 'registered' | 'skipped' | 'failed' | 'not attempted' = 'not attempted'
  recovery: RecoveryRecord | null = null
  /**
   * The keeper's rewards since this process started: the fees the vault paid the registered
   * keeper (keeper_fee_bps of each fill's gross profit; the `fee` of its `flash` and closing
   * `return` events), USDC 7 decimals, and how many payments they were.
   */
  rewards: { total: bigint; payments: number } = { total: 0n, payments: 0 }
  /** The execution engine's book: planned, in-flight and recently finished work. */
  executions: ExecutionView[] = []
  /** Transactions this process tried that failed (refused in simulation or failed on the ledger). */
  failedTransactions: { total: number; byReason: Record<string, number>; feesStroops: bigint } = { total: 0, byReason: {}, feesStroops: 0n }
  /** DRY_RUN=true: what the keeper would have filled and earned; null when it runs for real. */
  shadow: ShadowBook | null = null
  cycles: CycleStats = { count: 0, overruns: 0, lastStartedAt: null, lastDurationMs: null, lastError: null, lastErrorAt: null }
  updatedAt: string | null = null

  constructor(private readonly historyCapacity = 500) {}

  /** A keeper fee the vault paid (an execution's reward, or a return recovery made). */
  bookReward(fee: bigint): void {
    if (fee <= 0n) return
    this.rewards.total += fee
    this.rewards.payments++
  }

  /** Folds one adapter result into the history (its reward into `rewards`). */
  fold(adapter: string, label: string, r: Result, pool?: string | null): LiquidationRecord {
    const rec: LiquidationRecord = {
      at: new Date().toISOString(),
      adapter,
      ...(pool === undefined || pool === null ? {} : { pool }),
      label,
      drew: r.drew,
      proceeds: r.proceeds,
      profit: r.profit,
      reward: r.reward ?? 0n,
      responseTimeMs: r.responseTimeMs,
      success: r.success ?? true,
      ...(r.txHash ? { txHash: r.txHash } : {}),
      ...(r.error ? { error: r.error } : {}),
      liquidation: r.liquidation ?? true,
      ...(r.sales === undefined ? {} : { sales: r.sales }),
    }
    if (r.failedTransaction !== undefined) {
      const f = this.failedTransactions
      f.total++
      f.byReason[r.failedTransaction.reason] = (f.byReason[r.failedTransaction.reason] ?? 0) + 1
      f.feesStroops += r.failedTransaction.feeCharged
    }
    if (rec.reward > 0n) this.bookReward(rec.reward)
    this.poolBooks.fold(pool, rec)
    this.history.push(rec)
    if (this.history.length > this.historyCapacity) this.history.splice(0, this.history.length - this.historyCapacity)
    return rec
  }
}
