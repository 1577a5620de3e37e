/**
 * What a run left on chain in a world, read back with getEvents: the Blend pool's auctions
 * (`new_auction`) and fills (`fill_auction`), the service vault's deposits, withdrawals, draws,
 * returns and write-offs, the registry's slashes. The sim's reports and core replay and the
 * benchmarks measure from these, not from what the keepers say about themselves.
 *
 * Blend v2 pool events: topics `[name, auction_type: u32, user: Address]`; `new_auction` data
 * `[percent: u32, AuctionData]`, `fill_auction` data `[filler: Address, fill_percent: i128,
 * AuctionData (the filled part)]`. Vault events (contracts/vault/src/events.rs): topics
 * `[name, address]`, data a map (`draw {amount}`, `return {amount, fee, profit, remaining,
 * response_time_ms}`, `flash {amount, fee, profit}` (the atomic path's flash draw), `wreq
 * {shares}` (a withdrawal request), `deposit`/`withdraw` {amount, shares}).
 */
import { Address, scValToNative, xdr, type rpc } from '@stellar/stellar-sdk'
import { eventPages } from '../chain/index.js'
import { AuctionType, decodeAuctionData, type AuctionData } from '../keeper/adapters/blend/storage.js'

export interface AuctionCreated {
  /** The lending pool that emitted it (RunEventLog always names it). */
  pool?: string
  type: number
  user: string
  ledger: number
  /** Close time of the creation ledger (unix seconds): the pool accrued its reserves to it. */
  closeTime: bigint
  percent: number
  auction: AuctionData
}

export interface AuctionFilled {
  /** The lending pool that emitted it (RunEventLog always names it). */
  pool?: string
  type: number
  user: string
  ledger: number
  filler: string
  percent: bigint
  /** The filled part as the pool scaled it (bid and lot at the fill's block). */
  filled: AuctionData
  txHash: string
}

export interface VaultFlow {
  kind: 'deposit' | 'withdraw' | 'draw' | 'return' | 'write_off' | 'flash' | 'wreq'
  /** The depositor or the keeper. */
  address: string
  ledger: number
  /** Close time of the ledger (unix seconds): the vault's `now` when it booked or priced it. */
  closeTime: bigint
  data: Record<string, bigint>
  /** The transaction that emitted it (an atomic fill's draw and return share the fill's). */
  txHash: string
}

export interface Slash {
  keeper: string
  ledger: number
  data: Record<string, bigint>
}

export interface RunEvents {
  auctions: AuctionCreated[]
  fills: AuctionFilled[]
  vault: VaultFlow[]
  slashes: Slash[]
}

export interface RunContracts {
  pool: string
  /** Every lending pool to follow (default: `pool` alone); at most 5. */
  pools?: readonly string[]
  vault: string
  /** Without one, no slashes are read. */
  registry?: string | undefined
}

type EventsReader = Pick<rpc.Server, 'getEvents'>

const sym = (v: xdr.ScVal | undefined) => (v?.type === 'scvSymbol' ? v.sym.toString() : undefined)
const address = (v: xdr.ScVal | undefined) => (v === undefined ? '' : Address.fromScAddress(xdr.expectUnionVariant(v, 'scvAddress').address).toString())
const VAULT_KINDS = new Set(['deposit', 'withdraw', 'draw', 'return', 'write_off', 'flash', 'wreq'])

function bigints(v: xdr.ScVal): Record<string, bigint> {
  const raw = scValToNative(v) as unknown
  const out: Record<string, bigint> = {}
  if (raw !== null && typeof raw === 'object') {
    for (const [k, x] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof x === 'bigint') out[k] = x
      else if (typeof x === 'number') out[k] = BigInt(x)
    }
  }
  return out
}

/**
 * Follows the pools', the vault's and the registry's events from `startLedger` on: each `poll`
 * reads the pages since the last one (cursor kept) up to the node's latest ledger (src/chain
 * `eventPages`: a short page is not the end) and folds them into `events`.
 */
export class RunEventLog {
  readonly events: RunEvents = { auctions: [], fills: [], vault: [], slashes: [] }
  private cursor: string | undefined

  private readonly pools: ReadonlySet<string>

  constructor(
    private readonly server: EventsReader,
    private readonly contracts: RunContracts,
    private readonly startLedger: number,
  ) {
    this.pools = new Set(contracts.pools ?? [contracts.pool])
    if (this.pools.size > 5) throw new RangeError(`at most 5 pools (an event filter names at most 5 contracts), got ${this.pools.size}`)
  }

  async poll(): Promise<RunEvents> {
    const { pool, vault, registry } = this.contracts
    const service = registry === undefined ? [vault] : [vault, registry]
    // One pool: the one filter as always; more: the pools' own filter (5 contracts at most each).
    const filters: rpc.Api.EventFilter[] =
      this.pools.size <= 1
        ? [{ type: 'contract', contractIds: [pool, ...service] }]
        : [
            { type: 'contract', contractIds: [...this.pools] },
            { type: 'contract', contractIds: service },
          ]
    const from = this.cursor === undefined ? { startLedger: this.startLedger } : { cursor: this.cursor }
    for await (const page of eventPages((req) => this.server.getEvents(req), { filters, from, limit: 1000 })) {
      for (const e of page.events) this.fold(e)
      if (page.cursor !== undefined) this.cursor = page.cursor
    }
    return this.events
  }

  private fold(e: rpc.Api.EventResponse): void {
    if (!e.inSuccessfulContractCall) return
    const contract = e.contractId?.contractId()
    const name = sym(e.topic[0])
    if (name === undefined) return
    if (contract !== undefined && this.pools.has(contract) && (name === 'new_auction' || name === 'fill_auction')) {
      const type = e.topic[1] === undefined ? -1 : Number(scValToNative(e.topic[1]))
      const user = address(e.topic[2])
      const data = xdr.expectUnionVariant(e.value, 'scvVec').vec ?? []
      if (name === 'new_auction') {
        this.events.auctions.push({
          pool: contract,
          type,
          user,
          ledger: e.ledger,
          closeTime: BigInt(Math.floor(Date.parse(e.ledgerClosedAt) / 1000)),
          percent: Number(scValToNative(data[0]!)),
          auction: decodeAuctionData(data[1]!),
        })
      } else {
        this.events.fills.push({
          pool: contract,
          type,
          user,
          ledger: e.ledger,
          filler: address(data[0]),
          percent: BigInt(scValToNative(data[1]!) as bigint),
          filled: decodeAuctionData(data[2]!),
          txHash: e.txHash,
        })
      }
      return
    }
    if (contract === this.contracts.vault && VAULT_KINDS.has(name)) {
      this.events.vault.push({
        kind: name as VaultFlow['kind'],
        address: address(e.topic[1]),
        ledger: e.ledger,
        closeTime: BigInt(Math.floor(Date.parse(e.ledgerClosedAt) / 1000)),
        data: bigints(e.value),
        txHash: e.txHash,
      })
      return
    }
    if (contract !== undefined && contract === this.contracts.registry && name === 'slash') {
      this.events.slashes.push({ keeper: address(e.topic[1]), ledger: e.ledger, data: bigints(e.value) })
    }
  }
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

/** A liquidation run's events: user-liquidation auctions and fills, the vault's draws and returns. */
export interface LiquidationEvents {
  auctions: AuctionCreated[]
  fills: AuctionFilled[]
  draws: VaultDraw[]
  returns: VaultReturn[]
}

/** The user-liquidation auctions and their fills (bad-debt and interest auctions left out), the vault's draws and returns. */
export function liquidationEvents(events: RunEvents): LiquidationEvents {
  // A flash draw is a draw and its closing return in one call: both in its ledger.
  const lent = events.vault.filter((v) => v.kind === 'draw' || v.kind === 'flash')
  const settled = events.vault.filter((v) => v.kind === 'return' || v.kind === 'flash')
  return {
    auctions: events.auctions.filter((a) => a.type === AuctionType.UserLiquidation),
    fills: events.fills.filter((f) => f.type === AuctionType.UserLiquidation),
    draws: lent.map((v) => ({ keeper: v.address, ledger: v.ledger, amount: v.data.amount ?? 0n })),
    returns: settled.map((v) => {
      const flash = v.kind === 'flash'
      const profit = v.data.profit ?? 0n
      return {
        keeper: v.address,
        ledger: v.ledger,
        // What came back: a flash draw's principal with its gross profit (the keeper's fee included).
        amount: flash ? (v.data.amount ?? 0n) + profit + (v.data.fee ?? 0n) : (v.data.amount ?? 0n),
        profit,
        remaining: flash ? 0n : (v.data.remaining ?? 0n),
        responseTimeMs: Number(v.data.response_time_ms ?? 0n),
      }
    }),
  }
}
