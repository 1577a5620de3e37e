/**
 * Borrower discovery from pool events. Blend keeps no on-chain list of users, so the keeper
 * learns them from `borrow` / `flash_borrow` events (topics: name, asset, user).
 *
 * Cold start pages through the whole RPC retention window (startLedger = oldestLedger, then the
 * cursor); later cycles continue from the saved cursor and read only new events. A cursor that
 * fell out of the retention window (the keeper was down long) restarts discovery cold.
 */
import { Address, xdr, type rpc } from '@stellar/stellar-sdk'
import type { RpcStats } from './rpcStats.js'

export type EventsReader = Pick<rpc.Server, 'getEvents' | 'getHealth'>

/** Event names whose third topic is a user that now holds liabilities. */
export const BORROWER_EVENTS = ['borrow', 'flash_borrow'] as const

export interface DiscoveryState {
  borrowers: Set<string>
  cursor: string | undefined
  /** Used when the node returned no cursor and no events: resume from this ledger. */
  nextStartLedger: number | undefined
}

export interface PollResult {
  added: string[]
  /** Close time (unix seconds) of the latest ledger the node reported, when it said. */
  latestLedgerCloseTime: bigint | undefined
  pages: number
  coldStart: boolean
}

function topicFilter(name: string): string[] {
  return [xdr.ScVal.scvSymbol(name).toXdr('base64'), '*', '*']
}

/** The user of a borrower event, or undefined for anything else. */
export function borrowerOf(event: Pick<rpc.Api.EventResponse, 'topic'>): string | undefined {
  const [name, , user] = event.topic
  if (name === undefined || user === undefined) return undefined
  if (name.type !== 'scvSymbol') return undefined
  if (!(BORROWER_EVENTS as readonly string[]).includes(name.sym.toString())) return undefined
  if (user.type !== 'scvAddress') return undefined
  return Address.fromScAddress(user.address).toString()
}

export class BorrowerDiscovery {
  readonly pool: string
  readonly pageLimit: number
  readonly state: DiscoveryState = { borrowers: new Set(), cursor: undefined, nextStartLedger: undefined }

  constructor(pool: string, opts: { pageLimit?: number } = {}) {
    this.pool = pool
    this.pageLimit = opts.pageLimit ?? 1000
  }

  get borrowers(): string[] {
    return [...this.state.borrowers]
  }

  /** Read new events (all of the retention window on the first call). */
  async poll(server: EventsReader, stats?: RpcStats): Promise<PollResult> {
    const cold = this.state.cursor === undefined && this.state.nextStartLedger === undefined
    try {
      return await this.scan(server, cold, stats)
    } catch (err) {
      if (cold) throw err
      // The saved position is no longer served (outside retention): start over from the window.
      this.state.cursor = undefined
      this.state.nextStartLedger = undefined
      return await this.scan(server, true, stats)
    }
  }

  private async scan(server: EventsReader, cold: boolean, stats?: RpcStats): Promise<PollResult> {
    const filters: rpc.Api.EventFilter[] = [
      { type: 'contract', contractIds: [this.pool], topics: BORROWER_EVENTS.map(topicFilter) },
    ]
    let request: rpc.Api.GetEventsRequest
    if (cold) {
      const health = await server.getHealth()
      if (stats) {
        stats.other += 1
        stats.waves += 1
      }
      request = { filters, startLedger: Math.max(1, health.oldestLedger), limit: this.pageLimit }
    } else if (this.state.cursor !== undefined) {
      request = { filters, cursor: this.state.cursor, limit: this.pageLimit }
    } else {
      request = { filters, startLedger: this.state.nextStartLedger!, limit: this.pageLimit }
    }
    const added: string[] = []
    let pages = 0
    let closeTime: bigint | undefined
    for (;;) {
      const res = await server.getEvents(request)
      pages += 1
      if (stats) {
        stats.getEvents += 1
        stats.waves += 1
      }
      for (const ev of res.events) {
        const user = borrowerOf(ev)
        if (user !== undefined && user !== this.pool && !this.state.borrowers.has(user)) {
          this.state.borrowers.add(user)
          added.push(user)
        }
      }
      const t = (res as { latestLedgerCloseTime?: string | number }).latestLedgerCloseTime
      if (t !== undefined && /^\d+$/.test(String(t))) closeTime = BigInt(String(t))
      const last = res.events[res.events.length - 1]
      const cursor = res.cursor !== undefined && res.cursor !== '' ? res.cursor : last?.id
      if (cursor !== undefined) {
        this.state.cursor = cursor
        this.state.nextStartLedger = undefined
      } else if (this.state.cursor === undefined) {
        this.state.nextStartLedger = res.latestLedger
      }
      if (res.events.length < this.pageLimit || cursor === undefined) break
      request = { filters, cursor, limit: this.pageLimit }
    }
    return { added, pages, coldStart: cold, latestLedgerCloseTime: closeTime }
  }
}
