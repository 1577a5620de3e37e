/**
 * What a liquidation run left on chain, read back with getEvents: the pool's user-liquidation
 * auctions (`new_auction`) and fills (`fill_auction`), and the service vault's draws (`draw`) and
 * returns (`return`). Benchmarks measure from these, not from what the keepers say about
 * themselves.
 *
 * Blend v2 pool events: topics `[name, auction_type: u32, user: Address]`; `new_auction` data
 * `[percent: u32, AuctionData]`, `fill_auction` data `[filler: Address, fill_percent: i128,
 * AuctionData (the filled part)]`. Vault events (contracts/vault/src/events.rs): topics
 * `[name, keeper: Address]`, data a map (`draw {amount}`, `return {amount, profit, remaining,
 * response_time_ms}`).
 */
import { Address, scValToNative, xdr, type rpc } from '@stellar/stellar-sdk'
import { AuctionType, decodeAuctionData, type AuctionData } from '../../src/keeper/adapters/blend/storage.js'

export interface AuctionCreated {
  user: string
  ledger: number
  /** Close time of the creation ledger (unix seconds): the pool accrued its reserves to it. */
  closeTime: bigint
  percent: number
  auction: AuctionData
}

export interface AuctionFilled {
  user: string
  ledger: number
  filler: string
  percent: bigint
}

export interface VaultDraw {
  keeper: string
  ledger: number
  amount: bigint
}

export interface VaultReturn extends VaultDraw {
  profit: bigint
  remaining: bigint
  responseTimeMs: number
}

export interface RunEvents {
  auctions: AuctionCreated[]
  fills: AuctionFilled[]
  draws: VaultDraw[]
  returns: VaultReturn[]
}

type EventsReader = Pick<rpc.Server, 'getEvents'>

const sym = (v: xdr.ScVal | undefined) => (v?.type === 'scvSymbol' ? v.sym.toString() : undefined)
const address = (v: xdr.ScVal | undefined) => (v === undefined ? '' : Address.fromScAddress(xdr.expectUnionVariant(v, 'scvAddress').address).toString())

/**
 * Follows the pool's and the vault's events from `startLedger` on: each `poll` reads the pages
 * since the last one (cursor kept) and folds them into `events`.
 */
export class RunEventLog {
  readonly events: RunEvents = { auctions: [], fills: [], draws: [], returns: [] }
  private cursor: string | undefined

  constructor(
    private readonly server: EventsReader,
    private readonly pool: string,
    private readonly vault: string,
    private readonly startLedger: number,
  ) {}

  async poll(): Promise<RunEvents> {
    const filters: rpc.Api.EventFilter[] = [{ type: 'contract', contractIds: [this.pool, this.vault] }]
    const limit = 1000
    for (;;) {
      const res = await this.server.getEvents(
        this.cursor === undefined ? { filters, startLedger: this.startLedger, limit } : { filters, cursor: this.cursor, limit },
      )
      for (const e of res.events) this.fold(e)
      const last = res.events[res.events.length - 1]
      const next = res.cursor !== undefined && res.cursor !== '' ? res.cursor : last?.id
      if (next !== undefined) this.cursor = next
      if (res.events.length < limit) return this.events
    }
  }

  private fold(e: rpc.Api.EventResponse): void {
    if (!e.inSuccessfulContractCall) return
    const contract = e.contractId?.contractId()
    const name = sym(e.topic[0])
    if (contract === this.pool && (name === 'new_auction' || name === 'fill_auction')) {
      const type = e.topic[1] === undefined ? undefined : Number(scValToNative(e.topic[1]))
      if (type !== AuctionType.UserLiquidation) return
      const user = address(e.topic[2])
      const data = xdr.expectUnionVariant(e.value, 'scvVec').vec ?? []
      if (name === 'new_auction') {
        this.events.auctions.push({
          user,
          ledger: e.ledger,
          closeTime: BigInt(Math.floor(Date.parse(e.ledgerClosedAt) / 1000)),
          percent: Number(scValToNative(data[0]!)),
          auction: decodeAuctionData(data[1]!),
        })
      } else {
        this.events.fills.push({ user, ledger: e.ledger, filler: address(data[0]), percent: BigInt(scValToNative(data[1]!) as bigint) })
      }
      return
    }
    if (contract === this.vault && (name === 'draw' || name === 'return')) {
      const keeper = address(e.topic[1])
      const d = scValToNative(e.value) as Record<string, bigint>
      if (name === 'draw') this.events.draws.push({ keeper, ledger: e.ledger, amount: BigInt(d.amount ?? 0n) })
      else {
        this.events.returns.push({
          keeper,
          ledger: e.ledger,
          amount: BigInt(d.amount ?? 0n),
          profit: BigInt(d.profit ?? 0n),
          remaining: BigInt(d.remaining ?? 0n),
          responseTimeMs: Number(d.response_time_ms ?? 0),
        })
      }
    }
  }
}
