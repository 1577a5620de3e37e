/**
 * Open user-liquidation auctions for benchmarks/keeper-cycle.ts, written straight into the
 * sandbox's ledger: liquidatable Positions entries (HF ~0.95) and the pool's temporary
 * `Auction(AuctionKey { user, auct_type: 0 })` entries, with a deterministic spread of start
 * blocks and lot-to-bid values; and the figures of one keeper ledger with those auctions open.
 *
 * The auction entry, as Blend v2 stores it (pool/src/storage.rs, src/keeper/adapters/blend/storage.ts):
 * - key (temporary contract data of the pool): `Vec[Symbol("Auction"), Map{ Symbol("auct_type"):
 *   U32(0), Symbol("user"): Address(user) }]`, the struct's Symbol keys in sorted order;
 * - value: `Map{ Symbol("bid"): Map{ Address(USDC): I128(dTokens) }, Symbol("block"): U32(start
 *   ledger), Symbol("lot"): Map{ Address(WETH): I128(bTokens) } }`.
 */
import { createHash } from 'node:crypto'
import { Address, StrKey, xdr } from '@stellar/stellar-sdk'
import { encodeAuctionData } from '../../src/keeper/adapters/blend/fakeLedger.test-util.js'
import type { PoolValuation } from '../../src/keeper/adapters/blend/positionData.js'
import { median } from './keeperCycle.js'

const SCALAR_7 = 10_000_000n
const SCALAR_12 = 1_000_000_000_000n

/** The i-th borrower with an open auction: a G... address from sha256("keeper-cycle auction i"), the same every run. */
export function auctionUser(i: number): string {
  return StrKey.encodeEd25519PublicKey(createHash('sha256').update(`keeper-cycle auction ${i}`).digest())
}

/** Blocks since the start of the oldest auction written: past the lot's ramp (200) and into the bid's. */
export const MAX_START_AGO = 300
/** Every WHALE_EVERY-th auction is a whale's (the last of each ten). */
export const WHALE_EVERY = 10
/** A whale's positions are this many times a small borrower's. */
export const WHALE_SCALE = 5_000n

/**
 * The i-th auction's shape, from sha256("keeper-cycle auction shape i") (deterministic, and the
 * same for a user whatever the number of auctions):
 * - `startAgo`: its start block is the latest ledger minus 0..300: in the lot's ramp (< 200
 *   blocks) or past it, where the bid decays;
 * - `lotToBidBps`: the whole lot's value over the whole bid's, 0.90x..1.30x at oracle prices;
 * - `whale`: every tenth auction is a whale's, 5,000 times a small borrower's (5,000 WETH of
 *   collateral): its lot is so large against the world's DEX (500 WETH and 1M USDC a side on the
 *   primary router) that even 1 % of it sells below the slippage floor, so it never clears at
 *   what the DEX pays. The small ones all clear sooner or later: the bid decays to nothing
 *   between blocks 200 and 400 of Blend's curve.
 */
export function auctionShape(i: number): { startAgo: number; lotToBidBps: bigint; whale: boolean } {
  const h = createHash('sha256').update(`keeper-cycle auction shape ${i}`).digest()
  return {
    startAgo: h.readUInt16BE(0) % (MAX_START_AGO + 1),
    lotToBidBps: 9_000n + BigInt(h.readUInt32BE(2) % 4_001),
    whale: i % WHALE_EVERY === WHALE_EVERY - 1,
  }
}

/** One auction user's positions and auction (block relative to the latest ledger: `startAgo`). */
export interface OpenAuction {
  user: string
  /** bTokens of the collateral reserve. */
  collateral: bigint
  /** dTokens of the liability reserve. */
  liabilities: bigint
  /** dTokens of the liability asset in the bid, bTokens of the collateral asset in the lot. */
  bid: bigint
  lot: bigint
  startAgo: number
  whale: boolean
}

/**
 * The first `count` auction users' positions and auctions, sized at `valuation` (reserves accrued
 * and oracle prices): collateral 1 unit of the collateral reserve's bTokens (a whale 5,000),
 * liabilities raised until the health factor is `healthFactor` (7 decimals; Blend's
 * PositionData: collateral × b_rate × price × c_factor against liabilities × d_rate × price /
 * l_factor); the auction bids half the liabilities (a 50 % liquidation) and lots the collateral
 * worth `lotToBidBps` of that bid at oracle prices.
 */
export function openAuctions(
  count: number,
  valuation: PoolValuation,
  o: { collateralAsset: string; liabilityAsset: string; healthFactor?: bigint },
): OpenAuction[] {
  const c = valuation.reserves.get(o.collateralAsset)
  const l = valuation.reserves.get(o.liabilityAsset)
  const cp = valuation.prices.get(o.collateralAsset)?.price
  const lp = valuation.prices.get(o.liabilityAsset)?.price
  if (c === undefined || l === undefined || cp === undefined || lp === undefined) throw new Error('the collateral and the liability asset must be priced reserves of the pool')
  const hf = o.healthFactor ?? 9_500_000n
  const cUnit = 10n ** BigInt(c.config.decimals)
  const lUnit = 10n ** BigInt(l.config.decimals)
  const out: OpenAuction[] = []
  for (let i = 0; i < count; i++) {
    const shape = auctionShape(i)
    const collateral = cUnit * (shape.whale ? WHALE_SCALE : 1n)
    // Collateral in the oracle's base, effective (c_factor), then the liabilities that make HF `hf`.
    const collateralBase = (((collateral * c.data.b_rate) / SCALAR_12) * cp) / cUnit
    const collateralEffective = (collateralBase * BigInt(c.config.c_factor)) / SCALAR_7
    const liabilityEffective = (collateralEffective * SCALAR_7) / hf
    const liabilityBase = (liabilityEffective * BigInt(l.config.l_factor)) / SCALAR_7
    const liabilities = (((liabilityBase * lUnit) / lp) * SCALAR_12) / l.data.d_rate
    const bid = liabilities / 2n
    const bidBase = (((bid * l.data.d_rate) / SCALAR_12) * lp) / lUnit
    const lotBase = (bidBase * shape.lotToBidBps) / 10_000n
    const lot = (((lotBase * cUnit) / cp) * SCALAR_12) / c.data.b_rate
    if (lot > collateral) throw new Error(`auction ${i}: lot ${lot} above the user's collateral ${collateral}`)
    out.push({ user: auctionUser(i), collateral, liabilities, bid, lot, startAgo: shape.startAgo, whale: shape.whale })
  }
  return out
}

/**
 * The pool's temporary Auction entry of `a` (user liquidation), started at `latest - startAgo`.
 * The key is built here rather than with storage.ts `auctionKey`, so the scanner's key cache
 * stays as cold as a keeper's.
 */
export function auctionEntry(pool: string, a: OpenAuction, latest: number, assets: { collateral: string; liability: string }): xdr.LedgerEntry {
  const key = xdr.ScVal.scvVec([
    xdr.ScVal.scvSymbol('Auction'),
    xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('auct_type'), val: xdr.ScVal.scvU32(0) }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: new Address(a.user).toScVal() }),
    ]),
  ])
  const val = encodeAuctionData({
    bid: new Map([[assets.liability, a.bid]]),
    lot: new Map([[assets.collateral, a.lot]]),
    block: Math.max(0, latest - a.startAgo),
  })
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: 0,
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({ ext: xdr.ExtensionPoint.v0(), contract: new Address(pool).toScAddress(), key, durability: xdr.ContractDataDurability.temporary, val }),
    ),
    ext: xdr.LedgerEntryExt.v0(),
  })
}

/** One measured keeper ledger with open auctions. */
export interface AuctionLedger {
  /** Wall time: the clock's close (expiry, due plans), getTasks, offer, until the engine settled. */
  ms: number
  /** getTasks alone; planning (offer until settled). */
  scanMs: number
  planMs: number
  clientCpuMs: number
  nodeCpuMs: number | undefined
  /** Wall time with an RPC request open. */
  rpcMs: number
  /** RPC requests of the scan and of the plans (the engine's limits() makes none here). */
  scanRequests: number
  planRequests: number
  /** The plans' requests by method. */
  planByMethod: Record<string, number>
  waves: number
  tasks: number
  /** Tasks the engine planned this ledger (its adapter's plan called): a plan made, or skipped. */
  planned: number
  skipped: number
  /** Tasks the engine already held (planned at an earlier ledger): not planned again. */
  held: number
  /** After the ledger: plans due now (waiting for capital), plans for a later ledger. */
  due: number
  waiting: number
  /** Skip reasons this ledger, by count. */
  skipReasons: Record<string, number>
}

/** The median of each figure over some ledgers (counts by method and reasons: the last ledger's). */
export function medLedger(ls: AuctionLedger[]): AuctionLedger {
  const m = (f: (l: AuctionLedger) => number) => Number(median(ls.map(f)).toFixed(1))
  const last = ls[ls.length - 1]!
  return {
    ms: m((l) => l.ms),
    scanMs: m((l) => l.scanMs),
    planMs: m((l) => l.planMs),
    clientCpuMs: m((l) => l.clientCpuMs),
    nodeCpuMs: ls.some((l) => l.nodeCpuMs === undefined) ? undefined : m((l) => l.nodeCpuMs!),
    rpcMs: m((l) => l.rpcMs),
    scanRequests: m((l) => l.scanRequests),
    planRequests: m((l) => l.planRequests),
    planByMethod: last.planByMethod,
    waves: m((l) => l.waves),
    tasks: m((l) => l.tasks),
    planned: m((l) => l.planned),
    skipped: m((l) => l.skipped),
    held: m((l) => l.held),
    due: m((l) => l.due),
    waiting: m((l) => l.waiting),
    skipReasons: last.skipReasons,
  }
}
