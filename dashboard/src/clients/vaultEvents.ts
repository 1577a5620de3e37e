/**
 * The vault's books and event history for the dashboard, through the RPC node's getEvents and
 * one simulated `get_state` (and `get_config` once: the keeper fee and the profit unlock period
 * never change). The decoding of the events (src/audit/events.ts) and the reads of the books and
 * the config (src/audit/reads.ts) are the auditor's, imported as they are (both browser-safe); what
 * this adds is each event's ledger close time (for the share-price history) and transaction hash
 * (for a depositor's own history), and incremental
 * reading: a reader remembers the ledger it has read through, so a refresh asks only for the
 * ledgers since.
 */
import type { rpc } from '@stellar/stellar-sdk'
import { decodeVaultEvent, type VaultEvent } from '../../../src/audit/events.js'
import { eventPages } from '../../../src/chain/events.js'
import { readBooks, readVaultSettings, type VaultBooks, type VaultSettings } from '../../../src/audit/reads.js'
import type { AuditConnection } from '../../../src/audit/rpc.js'

export type { VaultBooks, VaultEvent, VaultSettings }

/** The node calls the reader makes. */
export type VaultEventsRpc = Pick<rpc.Server, 'getEvents' | 'getHealth' | 'getLatestLedger' | 'simulateTransaction'>

/** A vault event and the close time of its ledger. */
export interface TimedVaultEvent {
  event: VaultEvent
  /** Unix seconds (the event's `ledgerClosedAt`). */
  closeTime: number
  /** The hash of the transaction that emitted it ('' when the node did not say). */
  txHash: string
}

export interface VaultRead {
  /** `get_state` as simulated at `ledger`. */
  books: VaultBooks
  /** `get_config`: the keeper fee, the unlock period, the caps. */
  config: VaultSettings
  ledger: number
  /** Close time (unix s) of the node's latest ledger when the books were read. */
  closeTime: number
  /** Every vault event read so far, in chain order, through `ledger`. */
  events: readonly TimedVaultEvent[]
  /** First ledger whose events were read (the node's oldest when the reader started). */
  fromLedger: number
  /** The events start at the vault's `registry` event: the whole history is there. */
  complete: boolean
}

const PAGE = 1000

/**
 * One vault's reader. `read()` simulates `get_state` (which says the ledger it read at), then
 * reads the vault's events from the ledger after the last one read through that ledger, so the
 * events and the books always describe the same ledger.
 */
export class VaultEventsReader {
  private events: TimedVaultEvent[] = []
  private readThrough: number | undefined
  private firstLedger: number | undefined
  private inflight: Promise<VaultRead> | undefined
  private config: Promise<VaultSettings> | undefined

  constructor(
    private readonly server: VaultEventsRpc,
    private readonly networkPassphrase: string,
    private readonly vault: string,
  ) {}

  /** Overlapping calls share one read (two at once would append the same events twice). */
  read(): Promise<VaultRead> {
    this.inflight ??= this.readOnce().finally(() => {
      this.inflight = undefined
    })
    return this.inflight
  }

  private async readOnce(): Promise<VaultRead> {
    const conn = { server: this.server, networkPassphrase: this.networkPassphrase } as unknown as AuditConnection
    this.config ??= readVaultSettings(conn, this.vault).catch((err: unknown) => {
      this.config = undefined
      throw err
    })
    const [books, latest, config] = await Promise.all([readBooks(conn, this.vault), this.server.getLatestLedger(), this.config])
    const ledger = books.ledger
    let from = this.readThrough === undefined ? undefined : this.readThrough + 1
    if (from === undefined) {
      const health = await this.server.getHealth()
      from = health.oldestLedger
      this.firstLedger = from
    }
    if (from <= ledger) {
      const fresh = await readEvents(this.server, this.vault, from, ledger)
      this.events = [...this.events, ...fresh]
      this.readThrough = ledger
    }
    const closeTime = Number((latest as { closeTime?: string | number }).closeTime ?? 0)
    return {
      books: books.value,
      config,
      ledger,
      closeTime: Number.isFinite(closeTime) && closeTime > 0 ? closeTime : Math.floor(Date.now() / 1000),
      events: this.events,
      fromLedger: this.firstLedger ?? from,
      complete: this.events.some((e) => e.event.kind === 'registry'),
    }
  }
}

/** A reader for the `rpc.Server` of a `Chain` (typed narrower there; it is a full rpc.Server). */
export function vaultEventsReader(server: unknown, networkPassphrase: string, vault: string): VaultEventsReader {
  const s = server as Partial<VaultEventsRpc>
  for (const m of ['getEvents', 'getHealth', 'getLatestLedger', 'simulateTransaction'] as const)
    if (typeof s[m] !== 'function') throw new Error(`the RPC client cannot ${m}: vault history needs a Stellar RPC server`)
  return new VaultEventsReader(s as VaultEventsRpc, networkPassphrase, vault)
}

/** Every decodable vault event of ledgers `from..to`, paging with the node's cursor. */
export async function readEvents(server: Pick<rpc.Server, 'getEvents'>, vault: string, from: number, to: number): Promise<TimedVaultEvent[]> {
  const filters: rpc.Api.EventFilter[] = [{ type: 'contract', contractIds: [vault] }]
  const out: TimedVaultEvent[] = []
  // Pages on to `to` whatever the page sizes (src/chain/events.ts: a short page may be the
  // node's 10 000-ledger scan window, not the end).
  for await (const page of eventPages((req) => server.getEvents(req), { filters, from: { startLedger: from }, endLedger: to + 1, limit: PAGE })) {
    for (const raw of page.events) {
      if (!raw.inSuccessfulContractCall) continue
      const event = decodeVaultEvent(raw)
      if (event !== undefined) out.push({ event, closeTime: Math.floor(Date.parse(raw.ledgerClosedAt) / 1000), txHash: raw.txHash ?? '' })
    }
  }
  return out
}
