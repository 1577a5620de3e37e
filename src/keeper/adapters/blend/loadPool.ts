/**
 * Load a whole Blend v2 pool (config, reserves) and the positions of many users with batched
 * getLedgerEntries reads: no simulation per reserve or per user.
 *
 * Round trips: with a known reserve list (from a previous cycle) everything goes out in ONE wave
 * of ceil(keys / 200) parallel requests; on a cold start (or when the reserve list grew) a second
 * wave fetches the reserve entries. For up to 200 borrowers and a few reserves that is <= 3
 * getLedgerEntries requests in <= 2 waves.
 */
import type { rpc, xdr } from '@stellar/stellar-sdk'
import { ErrMissingEntry } from './errors.js'
import { assertBlendV2 } from './poolKind.js'
import type { ReadPositions } from './poolState.js'
import { newRpcStats, type RpcStats } from './rpcStats.js'
import {
  auctionKey,
  AuctionType,
  decodeAddressVec,
  decodeAuctionData,
  decodeInstanceStorage,
  decodePoolConfig,
  decodePositions,
  decodeReserveConfig,
  decodeReserveData,
  emptyPositions,
  entryValue,
  instanceKey,
  keyId,
  positionsKey,
  resConfigKey,
  resDataKey,
  resListKey,
  scAddress,
  type AuctionData,
  type PoolConfig,
  type Positions,
  type ReserveConfig,
  type ReserveData,
} from './storage.js'

/** stellar-rpc refuses more keys than this in one getLedgerEntries call (getLedgerEntriesMaxKeys). */
export const MAX_KEYS_PER_CALL = 200

/** The part of rpc.Server the loader uses (so a test can count calls). */
export type LedgerEntriesReader = Pick<rpc.Server, 'getLedgerEntries'>

export interface Reserve {
  asset: string
  config: ReserveConfig
  data: ReserveData
}

export interface PoolSnapshot {
  pool: string
  config: PoolConfig
  backstop: string
  /** Reserve assets in index order. */
  reserveList: string[]
  reserves: Map<string, Reserve>
  /** Positions per requested user (empty positions when the user has none). */
  positions: Map<string, Positions>
  /** Requested users the pool holds no positions entry for (never had one, or it is archived). */
  withoutPositions: Set<string>
  /** The positions entries of the requested users as read (with the ledger that wrote each). */
  read: Map<string, ReadPositions>
  /** Existing user-liquidation auctions among the requested users. */
  auctions: Map<string, AuctionData>
  /** Existing bad-debt (1) and interest (2) auctions of `backstop`, when asked for. */
  backstopAuctions: { type: AuctionType; auction: AuctionData }[]
  latestLedger: number
  stats: RpcStats
}

export interface LoadPoolOptions {
  /** The reserve list seen last cycle; lets the whole load go out in one wave. */
  reserveList?: readonly string[]
  /** Also read existing user-liquidation auctions of these users (same wave). */
  auctionUsers?: readonly string[]
  /** Also read the bad-debt and interest auctions of this backstop (same wave). */
  backstop?: string
  stats?: RpcStats
}

const BACKSTOP_AUCTIONS = [AuctionType.BadDebt, AuctionType.Interest] as const

/** Read many keys: chunks of MAX_KEYS_PER_CALL sent in parallel (one wave). */
export async function getEntriesBatched(
  server: LedgerEntriesReader,
  keys: readonly xdr.LedgerKey[],
  stats: RpcStats,
): Promise<{ entries: Map<string, xdr.LedgerEntryData>; modified: Map<string, number>; latestLedger: number }> {
  const unique = new Map<string, xdr.LedgerKey>()
  for (const k of keys) unique.set(keyId(k), k)
  const all = [...unique.values()]
  const chunks: xdr.LedgerKey[][] = []
  for (let i = 0; i < all.length; i += MAX_KEYS_PER_CALL) chunks.push(all.slice(i, i + MAX_KEYS_PER_CALL))
  stats.waves += chunks.length > 0 ? 1 : 0
  stats.getLedgerEntries += chunks.length
  const answers = await Promise.all(chunks.map((c) => server.getLedgerEntries(...c)))
  const entries = new Map<string, xdr.LedgerEntryData>()
  const modified = new Map<string, number>()
  let latestLedger = 0
  for (const a of answers) {
    latestLedger = Math.max(latestLedger, a.latestLedger)
    for (const e of a.entries) {
      const id = keyId(e.key)
      entries.set(id, e.val)
      modified.set(id, e.lastModifiedLedgerSeq ?? 0)
    }
  }
  return { entries, modified, latestLedger }
}

/** Positions entries of `users` as read (an absent entry reads as empty positions). */
function positionsOf(pool: string, users: readonly string[], got: { entries: Map<string, xdr.LedgerEntryData>; modified: Map<string, number> }): Map<string, ReadPositions> {
  const out = new Map<string, ReadPositions>()
  for (const u of users) {
    const id = keyId(positionsKey(pool, u))
    const e = got.entries.get(id)
    out.set(u, e === undefined ? { positions: emptyPositions(), present: false, lastModified: 0 } : { positions: decodePositions(entryValue(e)), present: true, lastModified: got.modified.get(id) ?? 0 })
  }
  return out
}

/**
 * Read the positions entries of `users` and their user-liquidation auctions (one wave of
 * ceil(2 × users / 200) requests).
 */
export async function readPositions(
  server: LedgerEntriesReader,
  pool: string,
  users: readonly string[],
  stats: RpcStats,
): Promise<{ read: Map<string, ReadPositions>; auctions: Map<string, AuctionData | undefined> }> {
  if (users.length === 0) return { read: new Map(), auctions: new Map() }
  const keys = users.flatMap((u) => [positionsKey(pool, u), auctionKey(pool, AuctionType.UserLiquidation, u)])
  const got = await getEntriesBatched(server, keys, stats)
  const auctions = new Map<string, AuctionData | undefined>()
  for (const u of users) {
    const e = got.entries.get(keyId(auctionKey(pool, AuctionType.UserLiquidation, u)))
    auctions.set(u, e === undefined ? undefined : decodeAuctionData(entryValue(e)))
  }
  return { read: positionsOf(pool, users, got), auctions }
}

function reserveKeys(pool: string, assets: readonly string[]): xdr.LedgerKey[] {
  return assets.flatMap((a) => [resConfigKey(pool, a), resDataKey(pool, a)])
}

/**
 * Load the pool and the positions (and optionally auctions) of `users`.
 *
 * @example
 * import { rpc } from '@stellar/stellar-sdk'
 * const snap = await loadPool(new rpc.Server(url), poolId, borrowers)
 */
export async function loadPool(
  server: LedgerEntriesReader,
  pool: string,
  users: readonly string[],
  opts: LoadPoolOptions = {},
): Promise<PoolSnapshot> {
  const stats = opts.stats ?? newRpcStats()
  const known = opts.reserveList ?? []
  const auctionUsers = opts.auctionUsers ?? []
  const first = [
    instanceKey(pool),
    resListKey(pool),
    ...reserveKeys(pool, known),
    ...users.map((u) => positionsKey(pool, u)),
    ...auctionUsers.map((u) => auctionKey(pool, AuctionType.UserLiquidation, u)),
    ...(opts.backstop === undefined ? [] : BACKSTOP_AUCTIONS.map((t) => auctionKey(pool, t, opts.backstop!))),
  ]
  const got = await getEntriesBatched(server, first, stats)
  const entries = got.entries
  let latestLedger = got.latestLedger

  const inst = entries.get(keyId(instanceKey(pool)))
  if (inst === undefined) throw new ErrMissingEntry(`pool ${pool} instance`)
  const storage = decodeInstanceStorage(inst)
  assertBlendV2(pool, storage)
  const configVal = storage.get('Config')
  if (configVal === undefined) throw new ErrMissingEntry(`pool ${pool} instance "Config"`)
  const config = decodePoolConfig(configVal)
  const backstopVal = storage.get('Backstop')
  if (backstopVal === undefined) throw new ErrMissingEntry(`pool ${pool} instance "Backstop"`)
  const backstop = scAddress(backstopVal, 'Backstop')

  const resListEntry = entries.get(keyId(resListKey(pool)))
  const reserveList = resListEntry === undefined ? [] : decodeAddressVec(entryValue(resListEntry), 'ResList')

  const missing = reserveList.filter((a) => !entries.has(keyId(resConfigKey(pool, a))))
  if (missing.length > 0) {
    const more = await getEntriesBatched(server, reserveKeys(pool, missing), stats)
    for (const [k, v] of more.entries) entries.set(k, v)
    latestLedger = Math.max(latestLedger, more.latestLedger)
  }

  const reserves = new Map<string, Reserve>()
  for (const asset of reserveList) {
    const c = entries.get(keyId(resConfigKey(pool, asset)))
    const d = entries.get(keyId(resDataKey(pool, asset)))
    if (c === undefined) throw new ErrMissingEntry(`ResConfig(${asset})`)
    if (d === undefined) throw new ErrMissingEntry(`ResData(${asset})`)
    reserves.set(asset, { asset, config: decodeReserveConfig(entryValue(c)), data: decodeReserveData(entryValue(d)) })
  }

  const read = positionsOf(pool, users, got)
  const positions = new Map<string, Positions>()
  const withoutPositions = new Set<string>()
  for (const [u, r] of read) {
    if (!r.present) withoutPositions.add(u)
    positions.set(u, r.positions)
  }
  const auctions = new Map<string, AuctionData>()
  for (const u of auctionUsers) {
    const e = entries.get(keyId(auctionKey(pool, AuctionType.UserLiquidation, u)))
    if (e !== undefined) auctions.set(u, decodeAuctionData(entryValue(e)))
  }
  const backstopAuctions: PoolSnapshot['backstopAuctions'] = []
  if (opts.backstop !== undefined) {
    for (const type of BACKSTOP_AUCTIONS) {
      const e = entries.get(keyId(auctionKey(pool, type, opts.backstop)))
      if (e !== undefined) backstopAuctions.push({ type, auction: decodeAuctionData(entryValue(e)) })
    }
  }
  return { pool, config, backstop, reserveList, reserves, positions, withoutPositions, read, auctions, backstopAuctions, latestLedger, stats }
}

/** Read one auction (any type) directly from storage; undefined when none exists. */
export async function loadAuction(
  server: LedgerEntriesReader,
  pool: string,
  auctionType: AuctionType,
  user: string,
  stats: RpcStats = newRpcStats(),
): Promise<AuctionData | undefined> {
  const key = auctionKey(pool, auctionType, user)
  const got = await getEntriesBatched(server, [key], stats)
  const e = got.entries.get(keyId(key))
  return e === undefined ? undefined : decodeAuctionData(entryValue(e))
}
