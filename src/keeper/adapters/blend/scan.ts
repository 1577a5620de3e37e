/**
 * One read-only scan of a Blend v2 pool: discover borrowers, load the pool, positions and prices
 * with batched reads, value every borrower and list the liquidatable ones.
 *
 * Positions are kept between scans (poolState.ts): a warm scan reads the pool's events since the
 * last one ‖ the pool's config, reserves, the backstop's positions and the auction entries of
 * users liquidatable last scan ‖ prices, all in ONE wave; a second wave reads the positions (and
 * auctions) of the users those events name and of borrowers never read, only when there are
 * any; users newly liquidatable by a price move cost one more wave for their auction entries.
 * Health factors are recomputed from the cached positions every scan, in src/core. A full read
 * of every borrower is the first scan, the one after a gap in the events, and the audit every
 * `fullReadEveryMs`.
 */
import type { rpc } from '@stellar/stellar-sdk'
import type { Chain } from '../../../chain/index.js'
import { accrueReserve } from '../../../core/index.js'
import { BorrowerDiscovery } from './discovery.js'
import type { HistoryBackfill } from './historyBackfill.js'
import { loadOraclePrices, type OraclePrices } from './oracle.js'
import { getEntriesBatched, loadPool, readPositions, type PoolSnapshot, type Reserve } from './loadPool.js'
import { PoolState, type FullReadReport, type ReadPositions } from './poolState.js'
import { healthFactorOf, isLiquidatable, positionData, type PoolValuation, type PositionData } from './positionData.js'
import { addStats, newRpcStats, type RpcStats } from './rpcStats.js'
import {
  auctionKey,
  AuctionType,
  decodeAuctionData,
  decodePositions,
  emptyPositions,
  entryValue,
  keyId,
  positionsKey,
  type AuctionData,
  type Positions,
} from './storage.js'

/** The RPC methods a scan reads with. */
export type PoolReader = Pick<rpc.Server, 'getLedgerEntries' | 'getEvents' | 'getHealth' | 'getLatestLedger'>

export interface BorrowerView {
  user: string
  positions: Positions
  data: PositionData
  healthFactor: number
  liquidatable: boolean
  /**
   * Existing user-liquidation auction, read for liquidatable users, users under AUCTION_WATCH_HF
   * and users that had one at the last scan (a partial fill can lift a user over HF 1 while the
   * rest of its auction is still open).
   */
  auction: AuctionData | undefined
}

export interface ScanResult {
  snapshot: PoolSnapshot
  prices: OraclePrices
  valuation: PoolValuation
  borrowers: BorrowerView[]
  /** Existing backstop auctions (bad debt, interest). */
  backstopAuctions: { type: AuctionType; auction: AuctionData }[]
  /** The backstop's own positions: liabilities there are bad debt waiting for an auction. */
  backstopPositions: Positions
  /** Borrowers named by the events this scan read (main RPC and history node): for the hints file. */
  discovered: string[]
  /**
   * Users whose positions entry this scan read with no liabilities left (repaid): pruned from the
   * hints file. A user without any positions entry is not among them.
   */
  repaid: string[]
  /** Borrowers' positions entries this scan read (the rest came from the cache). */
  positionsRead: number
  /** The full read this scan made, if any (first scan, gap in the events, audit). */
  fullRead: FullReadReport | undefined
  stats: RpcStats
  durationMs: number
}

/**
 * The reserves a valuation uses: every reserve accrued to `nowSeconds` with src/core
 * `accrueReserve`, as the pool does before it values anything (raw ResData rates are stale
 * until accrued). A reserve whose last update is in the future of the local clock is used as is.
 */
export function valuationReserves(reserves: ReadonlyMap<string, Reserve>, bstopRate: number, nowSeconds: bigint): Map<string, Reserve> {
  const out = new Map<string, Reserve>()
  for (const [asset, r] of reserves) {
    const data = nowSeconds > r.data.last_time ? accrueReserve({ config: r.config, data: r.data, bstopRate, timestamp: nowSeconds }) : r.data
    out.set(asset, { asset, config: r.config, data: { ...r.data, ...data } })
  }
  return out
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}

/**
 * Health factor under which a user's auction entry is read even when the user is not
 * liquidatable: a partial fill leaves a user between HF 1 and Blend's post-liquidation target
 * (1.03-1.15) while the rest of the auction is still open.
 */
export const AUCTION_WATCH_HF = 1.25

export interface PoolScannerOptions {
  eventsPageLimit?: number
  now?: () => number
  history?: HistoryBackfill | undefined
  /** Interval of the cache audit, a full read of every borrower (ms; 0: every scan). */
  fullReadEveryMs?: number
  /** Called after each full read (cold, gap, audit) with what it found. */
  onFullRead?: (report: FullReadReport) => void
}

export class PoolScanner {
  readonly pool: string
  readonly discovery: BorrowerDiscovery
  /** Borrowers' positions kept between scans (poolState.ts). */
  readonly state: PoolState
  private reserveList: string[] | undefined
  private oracle: string | undefined
  private backstop: string | undefined
  /**
   * Users liquidatable, under AUCTION_WATCH_HF or with an auction at the last scan: their auction
   * entries ride along in the first wave.
   */
  private watch: string[] = []

  private readonly now: () => number
  private readonly onFullRead: ((report: FullReadReport) => void) | undefined

  constructor(pool: string, opts: PoolScannerOptions = {}) {
    this.pool = pool
    this.now = opts.now ?? Date.now
    this.onFullRead = opts.onFullRead
    this.state = new PoolState(opts.fullReadEveryMs === undefined ? {} : { fullReadEveryMs: opts.fullReadEveryMs })
    this.discovery = new BorrowerDiscovery(pool, {
      ...(opts.eventsPageLimit === undefined ? {} : { pageLimit: opts.eventsPageLimit }),
      history: opts.history,
    })
  }

  /**
   * Track users learned elsewhere (WATCH_ADDRESSES, the hints file, another keeper's list): they
   * are loaded from the next scan on, like borrowers found in events.
   */
  addBorrowers(users: readonly string[]): void {
    for (const u of users) this.discovery.state.borrowers.add(u)
    this.state.add(users)
  }

  /**
   * One scan. Wave 1: the pool's events since the last scan ‖ pool config, reserves, the
   * backstop's positions and the watched auctions (and every borrower's positions when a full
   * read is due) ‖ oracle prices. Wave 2, only when there is something to read: the positions of
   * the users the events name and of borrowers never read (or of everyone after a gap).
   */
  async scan(reader: PoolReader, chain: Chain): Promise<ScanResult> {
    const started = performance.now()
    const stats = newRpcStats()
    const nowMs = this.now()
    const due = this.state.fullReadDue(nowMs)
    // Besides a full read, the first wave reads the watched users' positions (those a fill, an
    // auction or a liquidation is about): the events that name them then need no second wave.
    const firstUsers = due === undefined ? this.watch : this.state.known()
    const waveStats = [newRpcStats(), newRpcStats(), newRpcStats()]
    const [poll, snapshot, earlyPrices] = await Promise.all([
      this.discovery.poll(reader, waveStats[0]),
      loadPool(reader, this.pool, this.backstop === undefined ? firstUsers : [...firstUsers, this.backstop], {
        ...(this.reserveList ? { reserveList: this.reserveList } : {}),
        ...(this.backstop ? { backstop: this.backstop } : {}),
        auctionUsers: this.watch,
        stats: waveStats[1]!,
      }),
      this.oracle !== undefined && this.reserveList !== undefined
        ? loadOraclePrices(chain, this.oracle, this.reserveList, waveStats[2])
        : Promise.resolve(undefined),
    ])
    // Parallel requests share one wave: count the longest of the three.
    for (const s of waveStats) addStats(stats, { ...s, waves: 0 })
    stats.waves += Math.max(...waveStats.map((s) => s.waves))
    this.state.add(poll.added)
    let backstopPositions = snapshot.positions.get(snapshot.backstop)
    snapshot.read.delete(snapshot.backstop)

    const readNow = new Map<string, ReadPositions>()
    /** Auctions read beside positions in wave 2 (of the users read there). */
    const auctionsRead = new Map<string, AuctionData | undefined>()
    let fullRead: FullReadReport | undefined
    let changed: Iterable<string> = poll.changed
    for (const [u, r] of snapshot.read) readNow.set(u, r)
    // Read in parallel with the events: what the events name is read again, unless the first
    // wave's read is at least as recent as the events and holds it.
    const firstIsRecent = snapshot.latestLedger >= poll.coveredThrough
    if (due !== undefined) {
      fullRead = this.state.replaceAll(due, snapshot.read, nowMs, poll)
      if (firstIsRecent) changed = []
    } else if (!poll.gap) {
      this.state.update(snapshot.read)
      if (firstIsRecent) changed = [...poll.changed].filter((u) => !snapshot.read.has(u))
    } else {
      const all = await readPositions(reader, this.pool, this.state.known(), stats)
      for (const [u, r] of all.read) readNow.set(u, r)
      for (const [u, a] of all.auctions) auctionsRead.set(u, a)
      fullRead = this.state.replaceAll('gap', all.read, nowMs, poll)
      changed = []
    }
    const rest = this.state.toRead(changed)
    if (rest.length > 0) {
      const more = await readPositions(reader, this.pool, rest, stats)
      for (const [u, r] of more.read) readNow.set(u, r)
      for (const [u, a] of more.auctions) auctionsRead.set(u, a)
      this.state.update(more.read)
    }
    if (fullRead !== undefined) this.onFullRead?.(fullRead)

    const listChanged = this.reserveList === undefined || this.reserveList.join() !== snapshot.reserveList.join()
    const prices =
      earlyPrices !== undefined && !listChanged && this.oracle === snapshot.config.oracle
        ? earlyPrices
        : await loadOraclePrices(chain, snapshot.config.oracle, snapshot.reserveList, stats)
    this.reserveList = snapshot.reserveList
    this.oracle = snapshot.config.oracle

    const valuation: PoolValuation = {
      reserveList: snapshot.reserveList,
      // The pool accrues to the ledger's time: use the node's latest close time when it is ahead
      // of the local clock (a network that travelled in time), else the local clock.
      reserves: valuationReserves(snapshot.reserves, snapshot.config.bstop_rate, maxBig(BigInt(Math.floor(nowMs / 1000)), poll.latestLedgerCloseTime ?? 0n)),
      prices: prices.prices,
      oracleDecimals: prices.decimals,
    }
    const borrowers: BorrowerView[] = []
    const repaid: string[] = []
    snapshot.positions.clear()
    for (const [user, r] of this.state.entries()) {
      snapshot.positions.set(user, r.positions)
      if (!r.present) snapshot.withoutPositions.add(user)
      if (r.positions.liabilities.size === 0) {
        if (r.present && readNow.has(user)) repaid.push(user)
        continue
      }
      const data = positionData(valuation, r.positions)
      borrowers.push({ user, positions: r.positions, data, healthFactor: healthFactorOf(data), liquidatable: isLiquidatable(data), auction: undefined })
    }

    // Auctions of liquidatable users (and the backstop's) not read in the first wave.
    const liquidatable = borrowers.filter((b) => b.liquidatable)
    const watched = new Set(this.watch)
    for (const b of borrowers) {
      if (watched.has(b.user)) b.auction = snapshot.auctions.get(b.user)
      else if (auctionsRead.has(b.user)) b.auction = auctionsRead.get(b.user)
    }
    // Users a part-fill may have lifted over HF 1 can still have an auction open: read theirs too.
    const unread = borrowers.filter((b) => (b.liquidatable || b.healthFactor < AUCTION_WATCH_HF) && !watched.has(b.user) && !auctionsRead.has(b.user))
    let backstopAuctions = snapshot.backstopAuctions
    const needBackstop = this.backstop !== snapshot.backstop
    if (unread.length > 0 || needBackstop) {
      const keys = [
        ...unread.map((b) => auctionKey(this.pool, AuctionType.UserLiquidation, b.user)),
        ...(needBackstop
          ? [
              auctionKey(this.pool, AuctionType.BadDebt, snapshot.backstop),
              auctionKey(this.pool, AuctionType.Interest, snapshot.backstop),
              positionsKey(this.pool, snapshot.backstop),
            ]
          : []),
      ]
      const got = await getEntriesBatched(reader, keys, stats)
      for (const b of unread) {
        const e = got.entries.get(keyId(auctionKey(this.pool, AuctionType.UserLiquidation, b.user)))
        if (e !== undefined) b.auction = decodeAuctionData(entryValue(e))
      }
      if (needBackstop) {
        backstopAuctions = []
        for (const type of [AuctionType.BadDebt, AuctionType.Interest]) {
          const e = got.entries.get(keyId(auctionKey(this.pool, type, snapshot.backstop)))
          if (e !== undefined) backstopAuctions.push({ type, auction: decodeAuctionData(entryValue(e)) })
        }
        const bp = got.entries.get(keyId(positionsKey(this.pool, snapshot.backstop)))
        backstopPositions = bp === undefined ? emptyPositions() : decodePositions(entryValue(bp))
      }
    }
    this.backstop = snapshot.backstop
    this.watch = borrowers.filter((b) => b.liquidatable || b.auction !== undefined || b.healthFactor < AUCTION_WATCH_HF).map((b) => b.user)
    return {
      snapshot,
      prices,
      valuation,
      borrowers,
      backstopAuctions,
      backstopPositions: backstopPositions ?? emptyPositions(),
      discovered: poll.named,
      repaid,
      positionsRead: readNow.size,
      fullRead,
      stats,
      durationMs: performance.now() - started,
    }
  }
}
