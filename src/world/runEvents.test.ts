import { Address, Contract, nativeToScVal, xdr, type rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { encodeAuctionData, randomAccount, randomContract } from '../keeper/adapters/blend/fakeLedger.test-util.js'
import { eventId, scanEndCursor } from '../chain/events.js'
import { liquidationEvents, RunEventLog } from './runEvents.js'

const pool = randomContract()
const vault = randomContract()
const registry = randomContract()
const user = randomAccount()
const keeper = randomAccount()
const usdc = randomContract()
const xlm = randomContract()
const auction = { bid: new Map([[usdc, 40n]]), lot: new Map([[xlm, 470n]]), block: 90 }

const sym = (s: string) => xdr.ScVal.scvSymbol(s)
const address = (a: string) => new Address(a).toScVal()
const u32 = (n: number) => xdr.ScVal.scvU32(n)
const amounts = (m: Record<string, bigint>) => nativeToScVal(m, { type: Object.fromEntries(Object.keys(m).map((k) => [k, ['symbol', 'i128']])) })

let n = 0
function event(contract: string, topic: xdr.ScVal[], value: xdr.ScVal, ledger: number, ok = true): rpc.Api.EventResponse {
  n++
  return {
    id: eventId(ledger, n, 1, 1),
    type: 'contract',
    ledger,
    ledgerClosedAt: new Date(1_700_000_000_000 + ledger * 5_000).toISOString(),
    contractId: new Contract(contract),
    topic,
    value,
    inSuccessfulContractCall: ok,
    txHash: `tx${ledger}`,
  } as unknown as rpc.Api.EventResponse
}

/** A node answering getEvents from `events` (ordered by id), at most `limit` per page, cursors as stellar-rpc's. */
function node(events: rpc.Api.EventResponse[], latest = 200) {
  const requests: rpc.Api.GetEventsRequest[] = []
  return {
    requests,
    async getEvents(req: rpc.Api.GetEventsRequest): Promise<rpc.Api.GetEventsResponse> {
      requests.push(req)
      const from = req.cursor === undefined ? events.filter((e) => e.ledger >= req.startLedger!) : events.filter((e) => e.id > req.cursor!)
      const page = from.slice(0, req.limit ?? 1000)
      // A full page's cursor is its last id; a short one's the end of the ledgers scanned.
      const cursor = page.length === (req.limit ?? 1000) ? page.at(-1)!.id : scanEndCursor(latest)
      return { events: page, cursor, latestLedger: latest, oldestLedger: 1 } as unknown as rpc.Api.GetEventsResponse
    },
  }
}

const chainEvents = () => [
  event(pool, [sym('new_auction'), u32(0), address(user)], xdr.ScVal.scvVec([u32(100), encodeAuctionData(auction)]), 100),
  event(pool, [sym('new_auction'), u32(1), address(pool)], xdr.ScVal.scvVec([u32(100), encodeAuctionData(auction)]), 100),
  event(vault, [sym('draw'), address(keeper)], amounts({ amount: 40n }), 101),
  event(pool, [sym('fill_auction'), u32(0), address(user)], xdr.ScVal.scvVec([address(keeper), nativeToScVal(100n, { type: 'i128' }), encodeAuctionData(auction)]), 102),
  event(vault, [sym('return'), address(keeper)], amounts({ amount: 40n, profit: 3n, remaining: 0n, response_time_ms: 1200n }), 102),
  event(vault, [sym('draw'), address(keeper)], amounts({ amount: 9n }), 103, false),
  event(registry, [sym('slash'), address(keeper)], amounts({ amount: 5n }), 104),
  event(randomContract(), [sym('draw'), address(keeper)], amounts({ amount: 1n }), 104),
  event(vault, [sym('flash'), address(keeper)], amounts({ amount: 40n, fee: 1n, profit: 9n }), 105),
  event(vault, [sym('wreq'), address(user)], amounts({ shares: 70n }), 105),
]

describe('RunEventLog', () => {
  it('reads the pool, vault and registry events page by page, keeping its cursor between polls', async () => {
    const all = chainEvents()
    // A full page (1,000 events, most of another contract's) makes it read the next page at once.
    const other = randomContract()
    const noise = Array.from({ length: 1_000 }, () => event(other, [sym('transfer')], u32(0), 101))
    const first = [...all.slice(0, 2), ...noise, ...all.slice(2, 5)].sort((a, b) => (a.id < b.id ? -1 : 1))
    // The node's latest ledger is 102 at the first poll, 105 at the second.
    const rpcNode = node(first, 102)
    const log = new RunEventLog(rpcNode, { pool, vault, registry }, 100)
    let ev = await log.poll()
    expect(ev.auctions.map((a) => [a.type, a.user, a.percent, a.ledger])).toEqual([
      [0, user, 100, 100],
      [1, pool, 100, 100],
    ])
    expect(ev.auctions[0]!.auction).toEqual(auction)
    expect(ev.auctions[0]!.closeTime).toBe(BigInt(1_700_000_000 + 100 * 5))
    expect(ev.fills).toEqual([{ pool, type: 0, user, ledger: 102, filler: keeper, percent: 100n, filled: auction, txHash: 'tx102' }])
    expect(ev.auctions.map((a) => a.pool)).toEqual([pool, pool])
    expect(ev.vault.map((v) => [v.kind, v.address, v.ledger, v.data])).toEqual([
      ['draw', keeper, 101, { amount: 40n }],
      ['return', keeper, 102, { amount: 40n, profit: 3n, remaining: 0n, response_time_ms: 1200n }],
    ])
    expect(rpcNode.requests[0]).toMatchObject({ startLedger: 100, filters: [{ type: 'contract', contractIds: [pool, vault, registry] }] })
    expect(rpcNode.requests.map((r) => r.cursor)).toEqual([undefined, first[999]!.id])

    const later = node(all, 105)
    ;(log as unknown as { server: unknown }).server = later
    ev = await log.poll()
    // Where the first poll's scan ended: the end of ledger 102.
    expect(later.requests[0]!.cursor).toBe(scanEndCursor(102))
    // A failed call's event and another contract's are left out; the registry's slash is read;
    // the vault's flash draws and withdrawal requests are vault flows, with their close time.
    expect(ev.vault.slice(2).map((v) => [v.kind, v.address, v.ledger, v.closeTime, v.data])).toEqual([
      ['flash', keeper, 105, BigInt(1_700_000_000 + 105 * 5), { amount: 40n, fee: 1n, profit: 9n }],
      ['wreq', user, 105, BigInt(1_700_000_000 + 105 * 5), { shares: 70n }],
    ])
    expect(ev.slashes).toEqual([{ keeper, ledger: 104, data: { amount: 5n } }])
  })

  it('follows every pool of a multi-pool world, each auction and fill naming its pool', async () => {
    const second = randomContract()
    const other = randomAccount()
    const events = [
      ...chainEvents().slice(0, 4),
      event(second, [sym('new_auction'), u32(0), address(other)], xdr.ScVal.scvVec([u32(50), encodeAuctionData(auction)]), 103),
      event(second, [sym('fill_auction'), u32(0), address(other)], xdr.ScVal.scvVec([address(keeper), nativeToScVal(100n, { type: 'i128' }), encodeAuctionData(auction)]), 104),
    ]
    const rpcNode = node(events)
    const ev = await new RunEventLog(rpcNode, { pool, pools: [pool, second], vault, registry }, 100).poll()
    // The pools in a filter of their own, the vault and the registry in another.
    expect(rpcNode.requests[0]).toMatchObject({ filters: [{ type: 'contract', contractIds: [pool, second] }, { type: 'contract', contractIds: [vault, registry] }] })
    expect(ev.auctions.map((a) => [a.pool, a.type, a.user, a.percent])).toEqual([
      [pool, 0, user, 100],
      [pool, 1, pool, 100],
      [second, 0, other, 50],
    ])
    expect(ev.fills.map((f) => [f.pool, f.user, f.ledger])).toEqual([
      [pool, user, 102],
      [second, other, 104],
    ])
    expect(() => new RunEventLog(rpcNode, { pool, pools: Array.from({ length: 6 }, () => randomContract()), vault }, 100)).toThrow(RangeError)
  })

  it('reads no slashes without a registry', async () => {
    const rpcNode = node(chainEvents())
    const ev = await new RunEventLog(rpcNode, { pool, vault }, 100).poll()
    expect(rpcNode.requests[0]).toMatchObject({ filters: [{ type: 'contract', contractIds: [pool, vault] }] })
    expect(ev.slashes).toEqual([])
  })
})

describe('liquidationEvents', () => {
  it('keeps user liquidations and types the vault draws and returns', async () => {
    const ev = liquidationEvents(await new RunEventLog(node(chainEvents()), { pool, vault, registry }, 100).poll())
    expect(ev.auctions.map((a) => a.user)).toEqual([user])
    expect(ev.fills.map((f) => f.filler)).toEqual([keeper])
    // The flash draw at 105 is a draw and a return in one ledger (principal + profit + fee back).
    expect(ev.draws).toEqual([
      { keeper, ledger: 101, amount: 40n },
      { keeper, ledger: 105, amount: 40n },
    ])
    expect(ev.returns).toEqual([
      { keeper, ledger: 102, amount: 40n, profit: 3n, remaining: 0n, responseTimeMs: 1200 },
      { keeper, ledger: 105, amount: 50n, profit: 9n, remaining: 0n, responseTimeMs: 0 },
    ])
  })
})
