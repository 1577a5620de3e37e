/**
 * getFeeStats, read at most once per ledger: the Soroban inclusion fees the network charged
 * recently, the input of FEE_STRATEGY=feestats:pNN.
 */
import type { rpc } from '@stellar/stellar-sdk'
import type { FeePercentile } from '../../core/index.js'

/** A node client that may answer getFeeStats (a fake or a harness node may not). */
export type FeeStatsSource = Partial<Pick<rpc.Server, 'getFeeStats'>>

export class FeeStatsCache {
  private cached: { ledger: number; soroban: rpc.Api.GetFeeStatsResponse['sorobanInclusionFee'] | undefined } | undefined
  private inflight: Promise<void> | undefined
  /** getFeeStats calls made (tests, logs). */
  reads = 0

  constructor(
    private readonly server: FeeStatsSource,
    /** The latest ledger the keeper has seen (its ledger clock). */
    private readonly latestLedger: () => number,
    /** Told once per failed read (a log line). */
    private readonly onError?: (err: unknown) => void,
  ) {}

  /**
   * The `percentile` of the Soroban inclusion fees getFeeStats reports, in stroops; undefined
   * when the node does not answer it. Read again only once a newer ledger has closed than the
   * one the last answer (or failure) was for.
   */
  async percentile(p: FeePercentile): Promise<number | undefined> {
    await this.refresh()
    const v = this.cached?.soroban?.[p]
    const n = v === undefined ? Number.NaN : Number(v)
    return Number.isFinite(n) && n >= 0 ? n : undefined
  }

  private async refresh(): Promise<void> {
    const now = this.latestLedger()
    if (this.cached !== undefined && this.cached.ledger >= now) return
    if (this.inflight === undefined) {
      this.inflight = this.read(now).finally(() => (this.inflight = undefined))
    }
    await this.inflight
  }

  private async read(now: number): Promise<void> {
    if (typeof this.server.getFeeStats !== 'function') {
      this.cached = { ledger: Number.POSITIVE_INFINITY, soroban: undefined }
      return
    }
    this.reads++
    try {
      const stats = await this.server.getFeeStats()
      this.cached = { ledger: Math.max(now, stats.latestLedger ?? 0), soroban: stats.sorobanInclusionFee }
    } catch (err) {
      this.cached = { ledger: now, soroban: undefined }
      this.onError?.(err)
    }
  }
}
