/**
 * The frame every strategy agent runs in: a registered keeper of the run's vault that is not our
 * daemon. It reads the pool with the production scanner on its own SimRpc (its seeded latency
 * and faults, the scheduler ordering its answers), bids by the daemon's own fee strategy
 * (`KeeperFees` from the scenario's fee settings), sends from its operator alone (one
 * transaction at a time, as the node queues them per account), and keeps the record the report
 * reads of every keeper: its answers per auction (as agents/probe.ts records the daemon's), its
 * failed transactions by reason (the daemon's `failedTransaction` rule) and its finished
 * executions.
 *
 * One piece of work at a time: a poll cycle (every POLL_INTERVAL, at the keeper's seeded phase)
 * or a fire a subclass has due. While it runs (a transaction waiting for its ledger included)
 * the agent is busy and the lockstep does not fast-forward.
 */
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import type { Logger } from 'pino'
import { addr, ContractError, invoke, u32, type Chain } from '../../../../src/chain/index.js'
import { PoolErrorCode } from '../../../../src/keeper/adapters/blend/adapter.js'
import { failedTransaction } from '../../../../src/keeper/adapters/blend/failureBudget.js'
import { loadAuction } from '../../../../src/keeper/adapters/blend/loadPool.js'
import { PoolScanner, type PoolReader, type ScanResult } from '../../../../src/keeper/adapters/blend/scan.js'
import { AuctionType, type AuctionData } from '../../../../src/keeper/adapters/blend/storage.js'
import type { KeeperFees } from '../../../../src/keeper/fees/index.js'
import type { World } from '../../../../src/world/index.js'
import type { AliveSpan, FailedTransactions, KeeperSpec, ScenarioKeeper } from '../keepers.js'
import type { DecisionKind, KeeperDecision } from '../probe.js'
import { pollsAt, type OracleView } from './rules.js'

/** What a strategy agent sees of the run and how it reaches the chain. */
export interface StrategyEnv {
  world: World
  /** Its client: its own SimRpc, the daemon's fee strategy on every transaction. */
  chain: Chain
  /** The same SimRpc, as the scanner reads it. */
  reader: PoolReader
  fees: KeeperFees
  /** The ledger being built. */
  building: () => number
  /** Close time of the latest ledger (ms). */
  nowMs: () => number
  logger: Logger
  /** Borrowers scanned whatever the events say (WATCH_ADDRESSES). */
  watch: readonly string[]
  pool: string
  vault: string
  usdc: string
  /** The router it sells on (PRIMARY_DEX_ROUTER). */
  router: string
  /** MIN_PROFIT, 7 decimals. */
  minProfit: bigint
  slippageBps: number
}

export abstract class StrategyKeeper implements ScenarioKeeper {
  readonly aliveSpans: AliveSpan[] = []
  readonly decisions: KeeperDecision[] = []
  readonly crashed = false
  startBalance = 0n
  readonly spec: KeeperSpec
  protected readonly log: Logger
  protected readonly finished = { returned: 0, lost: 0, abandoned: 0 }
  private readonly failed: FailedTransactions = { total: 0, byReason: {}, feesStroops: 0n }
  private readonly scanner: PoolScanner
  private last: { ledger: number; scan: ScanResult } | undefined
  /** The last answer recorded per user (a decision is recorded when it changes). */
  private readonly answered = new Map<string, string>()
  private work: Promise<void> | undefined
  private stopped = false

  constructor(
    spec: KeeperSpec,
    path: KeeperSpec['path'],
    protected readonly keypair: Keypair,
    readonly address: string,
    protected readonly env: StrategyEnv,
  ) {
    this.spec = { ...spec, path }
    this.log = env.logger.child({ keeper: spec.name, strategy: spec.strategy })
    this.scanner = new PoolScanner(env.pool, { now: env.nowMs })
    this.scanner.addBorrowers(env.watch)
    this.aliveSpans.push({ from: env.building(), to: null })
  }

  get operator(): string {
    return this.keypair.publicKey()
  }

  /** One cycle's work, started in the ledger being built (`ledger`). */
  protected abstract run(ledger: number): Promise<void>

  /** Whether it has work in `ledger` besides its poll (a fire due). */
  protected dueAt(_ledger: number): boolean {
    return false
  }

  /** The lockstep reached a new ledger: starts a cycle when one is due and none runs. */
  act(): void {
    if (this.stopped || this.work !== undefined) return
    const ledger = this.env.building()
    if (!pollsAt(ledger, this.spec.phase, this.spec.pollLedgers) && !this.dueAt(ledger)) return
    this.work = this.run(ledger)
      .catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err), ledger }, 'cycle failed'))
      .finally(() => {
        this.work = undefined
      })
  }

  /** Whether it must act in `ledger` (no fast-forward over it). */
  decisive(ledger: number): boolean {
    return !this.stopped && this.dueAt(ledger)
  }

  /** Between two waits of a cycle (a read or a transaction out). */
  busy(): boolean {
    return this.work !== undefined
  }

  stop(): void {
    if (this.stopped) return
    this.stopped = true
    const span = this.aliveSpans[this.aliveSpans.length - 1]
    if (span !== undefined && span.to === null) span.to = this.env.building()
  }

  failedTransactions(): FailedTransactions {
    return { total: this.failed.total, byReason: { ...this.failed.byReason }, feesStroops: this.failed.feesStroops }
  }

  finishedCounts(): { returned: number; lost: number; abandoned: number } {
    return { ...this.finished }
  }

  laneAccounts(): string[] {
    return [this.operator]
  }

  /** The production scanner's view of the pool, read once per ledger. */
  protected async scan(): Promise<ScanResult> {
    const ledger = this.env.building()
    if (this.last?.ledger === ledger) return this.last.scan
    const scan = await this.scanner.scan(this.env.reader, this.env.chain)
    this.last = { ledger, scan }
    return scan
  }

  protected view(scan: ScanResult, auction: AuctionData): OracleView {
    return { auction, reserves: scan.valuation.reserves, prices: scan.prices.prices, minProfit: this.env.minProfit, usdc: this.env.usdc }
  }

  /** Records an answer about `user`'s auction (planning answers only when they change). */
  protected decide(user: string, kind: DecisionKind, target: number | null = null): void {
    const planning = kind === 'planned' || kind === 'unprofitable' || kind === 'skipped'
    const key = `${kind}:${target ?? ''}`
    if (planning && this.answered.get(user) === key) return
    this.answered.set(user, planning ? key : '')
    this.decisions.push({ ledger: this.env.building(), type: AuctionType.UserLiquidation, user, kind, target })
  }

  /** A transaction of its execution failed (refused in simulation or on the ledger); `lost` when another keeper's fill got there first. */
  protected failure(err: unknown, lost: boolean, reason?: string): void {
    const f = failedTransaction(err, lost)
    const r = reason ?? f.reason
    this.failed.total++
    this.failed.byReason[r] = (this.failed.byReason[r] ?? 0) + 1
    this.failed.feesStroops += f.feeCharged
  }

  /** The user's auction as stored now (undefined: none). */
  protected auctionNow(user: string): Promise<AuctionData | undefined> {
    return loadAuction(this.env.reader, this.env.pool, AuctionType.UserLiquidation, user)
  }

  /**
   * Opens a user-liquidation auction of `percent` for a borrower of `scan` (bid: its liabilities,
   * lot: its collateral, as the daemon opens one). False when the pool refuses it.
   */
  protected async openAuction(scan: ScanResult, user: string, percent: number): Promise<boolean> {
    const b = scan.borrowers.find((x) => x.user === user)
    if (b === undefined) return false
    const list = scan.snapshot.reserveList
    const bid = [...b.positions.liabilities.keys()].map((i) => list[i]!)
    const lot = [...b.positions.collateral.keys()].map((i) => list[i]!)
    const args = [u32(AuctionType.UserLiquidation), addr(user), xdr.ScVal.scvVec(bid.map(addr)), xdr.ScVal.scvVec(lot.map(addr)), u32(percent)]
    try {
      await invoke(this.env.chain, this.keypair, this.env.pool, 'new_auction', args)
      this.log.info({ user, percent }, 'opened a liquidation auction')
      return true
    } catch (err) {
      const code = err instanceof ContractError ? err.code : undefined
      if (code !== PoolErrorCode.AuctionInProgress) this.log.info({ user, percent, code: code ?? null, err: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'auction not opened')
      return false
    }
  }
}
