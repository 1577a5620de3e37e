/**
 * The keeper's fee strategy at run time (FEE_STRATEGY, INCLUSION_FEE, MAX_FEE, FEE_BUMP_LEDGERS):
 * the inclusion fee each transaction bids and the fee bump of one the network left queued.
 *
 * - A fill bids `inclusionFeeBid` (src/core) from the execution's expected profit and the XLM
 *   price the adapter hands over (`fill`).
 * - Every other transaction (opening auctions, draws and returns, registration, channel accounts)
 *   bids through the chain's defaults (`chainFees`): INCLUSION_FEE under `fixed` and `profit`,
 *   the getFeeStats percentile under `feestats`.
 * - With FEE_BUMP_LEDGERS > 0 each transaction not included that many ledgers after it was sent
 *   is fee-bumped once, at `feeBumpBid` (src/core): the smallest bid stellar-core takes in its
 *   place, at least what the strategy bids now; none when that is above MAX_FEE.
 */
import type { ChainFees, FeeBumpPolicy, FeeBumpRecord, QueuedTransaction } from '../../chain/index.js'
import { feeBumpBid, inclusionFeeBid, type FeeStrategy } from '../../core/index.js'
import type { FeeSettings } from '../config/fees.js'
import { feeStrategyText } from '../config/fees.js'
import type { KeeperMetrics } from '../metrics.js'
import type { AdapterLogger, FillFeeInput, FillSubmitOptions } from '../sdk/index.js'
import { FeeStatsCache, type FeeStatsSource } from './feeStats.js'

export interface KeeperFeesParameters {
  settings: FeeSettings
  /** The node client getFeeStats is read from (feestats only). */
  server: FeeStatsSource
  /** The latest ledger the keeper has seen: getFeeStats is read at most once per ledger. */
  latestLedger: () => number
  logger: Pick<AdapterLogger, 'info' | 'warn'>
  metrics?: Pick<KeeperMetrics, 'feeBid' | 'feeBumps'>
}

const FIXED: FeeStrategy = { kind: 'fixed' }

/** The XLM price of a fill's input, read when it is a function (a failed read: none). */
async function xlmPriceOf(fill: FillFeeInput | undefined): Promise<bigint | undefined> {
  const p = fill?.xlmPrice
  if (typeof p !== 'function') return p
  return p().catch(() => undefined)
}

export class KeeperFees {
  readonly settings: FeeSettings
  private readonly stats: FeeStatsCache
  private readonly warned = new Set<string>()

  constructor(private readonly p: KeeperFeesParameters) {
    this.settings = p.settings
    this.stats = new FeeStatsCache(p.server, p.latestLedger, (err) =>
      this.warnOnce('feestats-error', { err: err instanceof Error ? err.message : String(err) }, 'getFeeStats failed: bidding INCLUSION_FEE until it answers'),
    )
  }

  /** FEE_STRATEGY as written (`fixed`, `feestats:p90`, `profit:500`). */
  get strategyText(): string {
    return feeStrategyText(this.settings.feeStrategy)
  }

  /**
   * The inclusion fee per operation to bid now: a fill's (`fill` given) or any other
   * transaction's, always within [INCLUSION_FEE, MAX_FEE].
   */
  async bid(fill?: FillFeeInput): Promise<number> {
    const { feeStrategy, inclusionFee, maxFee } = this.settings
    // Only fills have a profit to share: everything else bids INCLUSION_FEE under profit:BPS.
    const strategy = feeStrategy.kind === 'profit' && fill === undefined ? FIXED : feeStrategy
    const percentileFee = strategy.kind === 'feestats' ? await this.stats.percentile(strategy.percentile) : undefined
    if (strategy.kind === 'feestats' && percentileFee === undefined) {
      this.warnOnce('feestats-missing', { strategy: this.strategyText }, 'no Soroban fee statistics from the RPC: bidding INCLUSION_FEE')
    }
    // A price read lazily is read only here, when the strategy needs it.
    const xlmPrice = strategy.kind === 'profit' ? await xlmPriceOf(fill) : undefined
    if (strategy.kind === 'profit' && (xlmPrice === undefined || fill?.expectedProfit === undefined)) {
      const missing = xlmPrice === undefined ? 'XLM price' : 'expected profit'
      this.warnOnce(`profit-${missing}`, { strategy: this.strategyText }, `a fill without an ${missing}: FEE_STRATEGY ${this.strategyText} bids INCLUSION_FEE for it`)
    }
    const bid = inclusionFeeBid({ strategy, inclusionFee, maxFee, percentileFee, expectedProfit: fill?.expectedProfit, xlmPrice })
    this.p.metrics?.feeBid.set(bid)
    return bid
  }

  /** The submission options of a fill: its bid and the fee-bump policy. */
  async fill(input: FillFeeInput): Promise<FillSubmitOptions> {
    const inclusionFee = await this.bid(input)
    return { inclusionFee, feeBump: this.bumpPolicy(() => this.bid(input)) ?? null }
  }

  /** The defaults of every other submission (set on the keeper's Chain). */
  chainFees(): ChainFees {
    return { inclusionFee: () => this.bid(), feeBump: this.bumpPolicy(() => this.bid()) }
  }

  /** Bump once after FEE_BUMP_LEDGERS ledgers, at the smallest bid the network takes (at least `fresh`). */
  private bumpPolicy(fresh: () => Promise<number>): FeeBumpPolicy | undefined {
    const { feeBumpLedgers, maxFee } = this.settings
    if (feeBumpLedgers <= 0) return undefined
    return {
      afterLedgers: feeBumpLedgers,
      bid: async (queued) => feeBumpBid({ queuedInclusionFee: queued.inclusionFee, operations: queued.operations, freshBid: await fresh(), maxFee }) ?? undefined,
      onBump: (queued, bump) => this.onBump(queued, bump),
    }
  }

  private onBump(queued: QueuedTransaction, bump: FeeBumpRecord | 'skipped'): void {
    const waited = queued.latestLedger - queued.sentLedger
    if (bump === 'skipped') {
      this.p.logger.warn(
        { tx: queued.hash, waitedLedgers: waited, queuedInclusionFee: queued.inclusionFee.toString(), maxFee: this.settings.maxFee },
        'not included yet; no fee bump: the bid the network needs to replace it is above MAX_FEE',
      )
      return
    }
    this.p.metrics?.feeBid.set(bump.inclusionFee)
    if (bump.outcome !== 'unanswered') this.p.metrics?.feeBumps.inc({ outcome: bump.outcome })
    const line = { tx: queued.hash, bump: bump.hash, bid: bump.inclusionFee, waitedLedgers: waited, outcome: bump.outcome, ...(bump.reason ? { reason: bump.reason } : {}) }
    if (bump.outcome === 'refused') this.p.logger.warn(line, 'fee bump refused; the transaction stays queued at its bid')
    else this.p.logger.info(line, `fee bump sent (${bump.outcome})`)
  }

  private warnOnce(key: string, obj: object, msg: string): void {
    if (this.warned.has(key)) return
    this.warned.add(key)
    this.p.logger.warn(obj, msg)
  }
}
