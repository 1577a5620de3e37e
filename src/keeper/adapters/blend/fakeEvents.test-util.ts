/**
 * Test helper: an in-memory Stellar RPC event store (getHealth, getEvents) over ledgers
 * [oldest, latest], with cursors as stellar-rpc forms them. Used by unit tests only.
 */
import { Address, xdr, type rpc } from '@stellar/stellar-sdk'
import { randomContract } from './fakeLedger.test-util.js'
import { eventId as rpcEventId, scanEndCursor } from '../../../chain/events.js'

export interface FakeEvent {
  id: string
  ledger: number
  topic: xdr.ScVal[]
}

/** Event `i` of `ledger`'s first operation, with the id stellar-rpc gives it. */
export function eventId(ledger: number, i: number): string {
  return rpcEventId(ledger, i, 1, 1)
}

/** The cursor stellar-rpc gives a short page whose scan ended after `ledger`: its largest id. */
export const endCursor = scanEndCursor

export function borrowEvent(ledger: number, i: number, name: string, user: string): FakeEvent {
  return {
    id: eventId(ledger, i),
    ledger,
    topic: [xdr.ScVal.scvSymbol(name), new Address(randomContract()).toScVal(), new Address(user).toScVal()],
  }
}

/** A node holding events in ledgers [oldest, latest]; cursor = id of the last event returned. */
export class FakeEvents {
  events: FakeEvent[] = []
  oldest = 100
  latest = 500
  requests: rpc.Api.GetEventsRequest[] = []
  healthCalls = 0
  forgetBefore: string | undefined
  /** Every call fails with this error while set (an unreachable node). */
  down: Error | undefined
  /** Fail the n-th getEvents call (1-based) once. */
  failCall: number | undefined

  getHealth = async (): Promise<rpc.Api.GetHealthResponse> => {
    this.healthCalls += 1
    if (this.down) throw this.down
    return { status: 'healthy', latestLedger: this.latest, oldestLedger: this.oldest, ledgerRetentionWindow: this.latest - this.oldest }
  }

  getEvents = async (req: rpc.Api.GetEventsRequest): Promise<rpc.Api.GetEventsResponse> => {
    if (this.down) throw this.down
    this.requests.push(req)
    if (this.failCall === this.requests.length) {
      this.failCall = undefined
      throw new Error('socket hang up')
    }
    let candidates: FakeEvent[]
    let end = this.latest + 1
    if (req.cursor !== undefined) {
      if (this.forgetBefore !== undefined && req.cursor < this.forgetBefore) throw new Error('cursor out of retention')
      candidates = this.events.filter((e) => e.id > req.cursor!)
    } else {
      if (req.startLedger! < this.oldest || req.startLedger! > this.latest) throw new Error('startLedger must be between the oldest and the latest ledger')
      end = Math.min(end, req.endLedger ?? end)
      candidates = this.events.filter((e) => e.ledger >= req.startLedger! && e.ledger < end)
    }
    const page = candidates.slice(0, req.limit ?? 100)
    const full = page.length === (req.limit ?? 100)
    const cursor = full ? page[page.length - 1]!.id : endCursor(end - 1)
    return {
      events: page as unknown as rpc.Api.EventResponse[],
      cursor,
      latestLedger: this.latest,
      oldestLedger: this.oldest,
      latestLedgerCloseTime: '0',
      oldestLedgerCloseTime: '0',
    }
  }
}
