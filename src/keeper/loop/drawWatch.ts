/**
 * This keeper's outstanding vault draw, as the API and the metrics show it: the amount
 * (`outstandingDraw`, `service_draws_outstanding`) and the ledgers since it was taken
 * (`outstandingDrawLedgers`, `service_draw_outstanding_ledgers`).
 *
 * Three sources keep it current:
 * - the engine's own draws and returns, as they happen (`wrap` around the vault client);
 * - the vault's record, re-read every poll cycle (`refresh`: `get_keeper_draw` of the address
 *   the vault knows the keeper by), also while the engine holds the draw;
 * - every ledger close (`onLedger`) moves the age on.
 *
 * The age counts from the ledger of the vault's latest `draw` event for this keeper (getEvents,
 * looked up once per draw), so a draw left by an earlier process is aged correctly too. When the
 * node's event history does not reach back that far (or getEvents fails), it counts from the
 * ledger this process first saw the draw in, and looks again the next cycle.
 */
import { Address, scValToNative, type xdr } from '@stellar/stellar-sdk'
import { addr, eventPages, sym, type Chain, type EventsRequest } from '../../chain/index.js'
import { isMissingFunction } from '../clients/index.js'
import { toUnits, type KeeperMetrics } from '../metrics.js'
import type { VaultClient } from '../sdk/index.js'
import type { DashboardState } from '../state/dashboard.js'

/** The getEvents / getHealth calls the age lookup makes (an `rpc.Server` has them). */
interface EventSource {
  getHealth(): Promise<{ oldestLedger: number; latestLedger: number }>
  getEvents(
    req: EventsRequest<{ type: 'contract'; contractIds: string[]; topics: string[][] }[]>,
  ): Promise<{ events: { id: string; ledger: number; inSuccessfulContractCall?: boolean; topic?: xdr.ScVal[] }[]; cursor?: string; latestLedger: number }>
}

export interface DrawWatchParameters {
  state: DashboardState
  metrics: KeeperMetrics
  chain: Chain
  vaultContract: string
  /** The address the vault knows this keeper by (the operator, or its executor contract). */
  keeperAddress: string
  /** Reads the vault's record of this keeper's draw (0 when none). */
  readDraw: (keeper: string) => Promise<bigint>
  /** The latest closed ledger known (the engine's clock). */
  latestLedger: () => number
  /** Events per getEvents page (default 200). */
  pageSize?: number
}

export class DrawWatch {
  private amount = 0n
  /** Ledger the outstanding draw was taken in; undefined without a draw or while unknown. */
  private since: number | undefined
  /** True once `since` comes from the vault's `draw` event (not from first sight). */
  private exact = false
  /** Bumped by every local change, so a chain read that raced one is not applied over it. */
  private version = 0
  private lookingUp: Promise<void> | undefined

  constructor(private readonly p: DrawWatchParameters) {}

  /** The vault client the engine uses, reporting each draw and return here as it lands. */
  wrap(vault: VaultClient): VaultClient {
    return {
      draw: async (amount) => {
        await vault.draw(amount)
        this.version++
        this.set(this.amount + amount, this.amount > 0n ? this.since : this.firstSeen(), false)
        void this.lookUpSince()
      },
      returnProceeds: async (amount, responseTimeMs) => {
        const profit = await vault.returnProceeds(amount, responseTimeMs)
        this.returned(amount)
        return profit
      },
      ...(vault.returnProceedsWithFee === undefined
        ? {}
        : {
            returnProceedsWithFee: async (amount: bigint, responseTimeMs: number) => {
              const settled = await vault.returnProceedsWithFee!(amount, responseTimeMs)
              this.returned(amount)
              return settled
            },
          }),
    }
  }

  /** A return of the engine's landed. */
  private returned(amount: bigint): void {
    this.version++
    const left = this.amount > amount ? this.amount - amount : 0n
    this.set(left, left > 0n ? this.since : undefined, this.exact)
  }

  /** What the vault's record says now (stale-draw recovery's read, or a return it made). */
  observe(amount: bigint): void {
    this.version++
    this.apply(amount)
  }

  /** Re-reads the vault's record (a poll-cycle step). A vault without get_keeper_draw is left alone. */
  async refresh(): Promise<void> {
    const before = this.version
    let amount: bigint
    try {
      amount = await this.p.readDraw(this.p.keeperAddress)
    } catch (err) {
      if (isMissingFunction(err)) return
      throw err
    }
    // A draw or return of the engine landed meanwhile: it is newer than this read.
    if (this.version !== before) return
    this.apply(amount)
    if (!this.exact && this.amount > 0n) await this.lookUpSince()
  }

  /** A ledger closed: the age moves on. */
  onLedger(sequence: number): void {
    if (this.amount <= 0n) return
    // Seen before the clock knew any ledger: it counts from this one.
    if (this.since === undefined) this.since = sequence
    const age = this.ageAt(sequence)
    this.p.state.outstandingDrawLedgers = age
    this.p.metrics.drawOutstandingLedgers.set(age)
  }

  /** Ledgers since the outstanding draw was taken (0 without one). */
  get ledgers(): number {
    return this.since === undefined ? 0 : this.ageAt(this.p.latestLedger())
  }

  private apply(amount: bigint): void {
    if (amount <= 0n) this.set(0n, undefined, false)
    else if (this.amount > 0n && this.since !== undefined) this.set(amount, this.since, this.exact)
    else this.set(amount, this.firstSeen(), false)
  }

  /** The latest ledger the clock knows, undefined before it knows any. */
  private firstSeen(): number | undefined {
    const latest = this.p.latestLedger()
    return latest > 0 ? latest : undefined
  }

  private ageAt(sequence: number): number {
    return this.since === undefined || sequence <= 0 ? 0 : Math.max(0, sequence - this.since)
  }

  private set(amount: bigint, since: number | undefined, exact: boolean): void {
    this.amount = amount
    this.since = amount > 0n ? since : undefined
    this.exact = amount > 0n && exact
    this.p.state.outstandingDraw = amount
    this.p.state.outstandingDrawLedgers = this.ledgers
    this.p.metrics.drawsOutstanding.set(toUnits(amount))
    this.p.metrics.drawOutstandingLedgers.set(this.ledgers)
  }

  /** Finds the ledger of the vault's latest `draw` event for this keeper (one lookup at a time). */
  private lookUpSince(): Promise<void> {
    this.lookingUp ??= this.findDrawLedger()
      .then((ledger) => {
        if (ledger !== undefined && this.amount > 0n) this.set(this.amount, ledger, true)
      })
      .catch(() => undefined)
      .finally(() => {
        this.lookingUp = undefined
      })
    return this.lookingUp
  }

  private async findDrawLedger(): Promise<number | undefined> {
    const server = this.p.chain.server as unknown as Partial<EventSource>
    if (typeof server.getEvents !== 'function' || typeof server.getHealth !== 'function') return undefined
    const health = await server.getHealth()
    const topics = [[sym('draw').toXdr('base64'), addr(this.p.keeperAddress).toXdr('base64')]]
    const filters = [{ type: 'contract' as const, contractIds: [this.p.vaultContract], topics }]
    const limit = this.p.pageSize ?? 200
    let last: number | undefined
    const getEvents = server.getEvents.bind(server)
    for await (const page of eventPages(getEvents, { filters, from: { startLedger: health.oldestLedger }, limit })) {
      for (const ev of page.events) {
        if (ev.inSuccessfulContractCall === false) continue
        if (!this.isDrawOfKeeper(ev.topic)) continue
        last = ev.ledger
      }
    }
    return last
  }

  /** The node filtered by topic already; this guards against a node that does not. */
  private isDrawOfKeeper(topic: xdr.ScVal[] | undefined): boolean {
    if (topic === undefined || topic.length < 2) return true
    try {
      return scValToNative(topic[0]!) === 'draw' && Address.fromScVal(topic[1]!).toString() === this.p.keeperAddress
    } catch {
      return false
    }
  }
}
