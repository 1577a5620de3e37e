/**
 * The vault's event history, read with getEvents: the depositors and keepers it names, the
 * profit its returns booked, and every change of the pool's books (for the share-price history).
 */
import { scValToNative, type rpc } from '@stellar/stellar-sdk'
import { eventPages, type EventsRequest } from '../chain/events.js'
import { ChainReadError } from './errors.js'
import { call, type AuditConnection } from './rpc.js'

interface EventBase {
  /** getEvents id (`%019d-%010d`): orders events within and across ledgers. */
  id: string
  ledger: number
  /**
   * Close time (unix s) of the event's ledger, the `env.ledger().timestamp()` the contract saw
   * (from `ledgerClosedAt`); absent when the node did not say.
   */
  time?: bigint
}

/** The vault events that move the books or name an account (contracts/vault/src/events.rs). */
export type VaultEvent = EventBase &
  (
    | { kind: 'registry'; registry: string }
    | { kind: 'deposit'; account: string; amount: bigint; shares: bigint; deadShares: bigint }
    | { kind: 'withdraw'; account: string; shares: bigint; amount: bigint }
    | { kind: 'draw'; account: string; amount: bigint }
    /** A two-step return: `amount` = principal repaid + gross profit; `profit` booked, `fee` paid to the keeper. */
    | { kind: 'return'; account: string; amount: bigint; profit: bigint; remaining: bigint; fee: bigint }
    /** A flash draw, repaid in the same call: `profit` booked, `fee` paid to the keeper (gross = profit + fee). */
    | { kind: 'flash'; account: string; amount: bigint; profit: bigint; fee: bigint }
    /** A depositor's withdrawal request, set to `shares`. */
    | { kind: 'wreq'; account: string; shares: bigint }
    | { kind: 'write_off'; account: string; writtenDown: bigint; recovered: bigint }
  )

export interface VaultHistory {
  /** In chain order. */
  events: VaultEvent[]
  /** First and last ledger read. */
  fromLedger: number
  toLedger: number
  /**
   * The range starts at or before the vault's `registry` event (`set_registry`, which every
   * deposit and draw needs first), so it holds the vault's whole history.
   */
  complete: boolean
}

export interface ReadHistoryOptions {
  /** Default: the oldest ledger the node has; clamped to it. */
  fromLedger?: number | undefined
  /** Last ledger to include (the snapshot ledger). */
  toLedger: number
  pageSize?: number | undefined
}

const big = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(v as number | string))

/** Unix seconds of an RFC 3339 close time, undefined when missing or unreadable. */
function closeTimeOf(at: unknown): bigint | undefined {
  if (typeof at !== 'string') return undefined
  const ms = Date.parse(at)
  return Number.isFinite(ms) ? BigInt(Math.floor(ms / 1000)) : undefined
}

/** Decodes one raw event; `undefined` for events the auditor does not use (pause, foreign ones). */
export function decodeVaultEvent(
  e: Pick<rpc.Api.EventResponse, 'id' | 'ledger' | 'topic' | 'value'> & { ledgerClosedAt?: string },
): VaultEvent | undefined {
  const name = e.topic[0] === undefined ? undefined : scValToNative(e.topic[0])
  const time = closeTimeOf(e.ledgerClosedAt)
  const base = time === undefined ? { id: e.id, ledger: e.ledger } : { id: e.id, ledger: e.ledger, time }
  const decoded: unknown = scValToNative(e.value)
  if (decoded === null || typeof decoded !== 'object') return undefined
  const data = decoded as Record<string, unknown>
  if (name === 'registry') return { ...base, kind: 'registry', registry: String(data.registry) }
  const account = e.topic[1] === undefined ? undefined : String(scValToNative(e.topic[1]))
  if (account === undefined) return undefined
  switch (name) {
    case 'deposit':
      return { ...base, kind: 'deposit', account, amount: big(data.amount), shares: big(data.shares), deadShares: big(data.dead_shares) }
    case 'withdraw':
      return { ...base, kind: 'withdraw', account, shares: big(data.shares), amount: big(data.amount) }
    case 'draw':
      return { ...base, kind: 'draw', account, amount: big(data.amount) }
    case 'return':
      return {
        ...base,
        kind: 'return',
        account,
        amount: big(data.amount),
        profit: big(data.profit),
        remaining: big(data.remaining),
        fee: data.fee === undefined ? 0n : big(data.fee),
      }
    case 'flash':
      return { ...base, kind: 'flash', account, amount: big(data.amount), profit: big(data.profit), fee: big(data.fee) }
    case 'wreq':
      return { ...base, kind: 'wreq', account, shares: big(data.shares) }
    case 'write_off':
      return { ...base, kind: 'write_off', account, writtenDown: big(data.written_down), recovered: big(data.recovered) }
    default:
      return undefined
  }
}

/**
 * Every vault event from `fromLedger` through `toLedger`, paging with the node's cursor.
 *
 * @throws ChainReadError when getHealth or getEvents fails or an event cannot be decoded
 */
export async function readVaultHistory(conn: AuditConnection, vault: string, opts: ReadHistoryOptions): Promise<VaultHistory> {
  const health = await call('getHealth', () => conn.server.getHealth())
  const fromLedger = Math.max(opts.fromLedger ?? health.oldestLedger, health.oldestLedger)
  const toLedger = opts.toLedger
  const events: VaultEvent[] = []
  if (fromLedger > toLedger) return { events, fromLedger, toLedger, complete: false }
  const limit = opts.pageSize ?? 1000
  const filters: rpc.Api.EventFilter[] = [{ type: 'contract', contractIds: [vault] }]
  // Pages on to `toLedger` whatever the page sizes: stellar-rpc ends a page 10 000 ledgers after
  // its start with a cursor there, short of the end (../chain/events.ts).
  const getEvents = (req: EventsRequest<rpc.Api.EventFilter[]>) =>
    call(req.cursor === undefined ? `getEvents(vault from ledger ${req.startLedger})` : `getEvents(vault, cursor ${req.cursor})`, () => conn.server.getEvents(req))
  // The pager's own refusals (a cursor that does not advance) are ChainReadErrors too.
  await call(`getEvents(vault from ledger ${fromLedger})`, async () => {
    for await (const page of eventPages(getEvents, { filters, from: { startLedger: fromLedger }, endLedger: toLedger + 1, limit })) {
      for (const raw of page.events) {
        if (!raw.inSuccessfulContractCall) continue
        let ev: VaultEvent | undefined
        try {
          ev = decodeVaultEvent(raw)
        } catch (err) {
          throw new ChainReadError(`getEvents (vault event ${raw.id})`, `undecodable event: ${String(err)}`, { cause: err })
        }
        if (ev) events.push(ev)
      }
    }
  })
  return { events, fromLedger, toLedger, complete: events.some((e) => e.kind === 'registry') }
}
