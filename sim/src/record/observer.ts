/**
 * The harness's own view of the chain after each close: a PoolScanner scan of each lending pool
 * (the production scanner, on the harness's own RPC client, not an agent: the scheduler does not
 * hold its answers; `scan` is the first pool's, `scans` every pool's), the vault's state,
 * the primary DEX's prices, the venues each collateral sells on while an auction is open (the
 * keeper's own `saleRoutes`), and the new chain events of every pool. It feeds the series, the
 * fast-forward test and the core replay. With one pool it reads exactly what it always did.
 */
import type { rpc } from '@stellar/stellar-sdk'
import { createChain, read, addr, type Chain } from '../../../src/chain/index.js'
import { lockedProfit, toAssetFromDToken } from '../../../src/core/index.js'
import { PoolScanner, type ScanResult } from '../../../src/keeper/adapters/blend/scan.js'
import { ripeningUntil } from './ripening.js'
import type { World } from '../../../src/world/index.js'
import { RunEventLog } from '../../../src/world/runEvents.js'
import { saleRoutes, type SaleRoutes, type SaleVenueRoute } from '../../../src/keeper/dex/saleRoutes.js'

/** Per collateral, the routes selling it for USDC (primary first). */
export type CollateralRoutes = ReadonlyMap<string, readonly SaleVenueRoute[]>

export interface VaultSnapshot {
  totalUsdc: bigint
  totalShares: bigint
  activeLiq: bigint
  totalProfit: bigint
  /** The profit lock (core `ProfitLock`): booked profit that unlocks linearly from lockStart to lockEnd. */
  lockedProfit: bigint
  lockStart: bigint
  lockEnd: bigint
  /** Shares depositors asked to withdraw (`request_withdraw`). */
  pendingShares: bigint
  /** The profit still locked at the close time of the latest ledger (core `lockedProfit`). */
  locked: bigint
}

/** The vault's terms a run reports: the keeper's fee and the unlock period (`get_config`). */
export interface VaultTerms {
  keeperFeeBps: number
  profitUnlockSecs: number
}

const num = (x: bigint) => Number(x) / 1e7

/** Anyone to liquidate (or nearly), an auction open, or bad debt waiting in the backstop. */
export function scanActive(s: ScanResult | undefined, margin = 1.0005): boolean {
  if (s === undefined) return true
  if (s.backstopAuctions.length > 0) return true
  if (s.backstopPositions.liabilities.size > 0) return true
  return s.borrowers.some((b) => b.auction !== undefined || b.healthFactor < margin)
}

/** Liabilities the backstop holds for a pool (bad debt), USD at oracle prices. */
export function scanBadDebt(s: ScanResult | undefined): number {
  if (s === undefined) return 0
  let total = 0
  for (const [index, dTokens] of s.backstopPositions.liabilities) {
    const asset = s.snapshot.reserveList[index]!
    const reserve = s.valuation.reserves.get(asset) ?? s.snapshot.reserves.get(asset)!
    const amount = toAssetFromDToken(reserve.data, dTokens)
    const price = s.prices.prices.get(asset)?.price ?? 0n
    total += (Number(amount) / 1e7) * (Number(price) / 10 ** s.prices.decimals)
  }
  return total
}

export class Observer {
  readonly chain: Chain
  /** The first pool's scanner; `scanners` has one per pool, in `world.blend.pools` order. */
  readonly scanner: PoolScanner
  readonly scanners: readonly PoolScanner[]
  /** The lending pools observed (`world.blend.pools`, or the one `world.blend.pool`). */
  readonly pools: readonly string[]
  readonly events: RunEventLog
  /** The first pool's latest scan and the one before it. */
  scan: ScanResult | undefined
  previous: ScanResult | undefined
  /** Every pool's latest scan and the one before it, in `pools` order. */
  scans: (ScanResult | undefined)[]
  previousScans: (ScanResult | undefined)[]
  /** The sale routes after the latest close with an auction open (undefined otherwise), and after the close before it. */
  routes: CollateralRoutes | undefined
  previousRoutes: CollateralRoutes | undefined
  private readonly readRoutes: SaleRoutes

  constructor(
    private readonly server: rpc.Server,
    private readonly world: World,
    startLedger: number,
    private readonly nowMs: () => number,
  ) {
    this.chain = createChain({ rpcUrl: world.network.rpcUrl, networkPassphrase: world.network.networkPassphrase, server })
    this.pools = world.blend.pools ?? [world.blend.pool]
    this.scanners = this.pools.map((pool, k) => {
      const scanner = new PoolScanner(pool, { now: nowMs })
      // Each pool's own borrowers (a borrower naming no pool is the first pool's).
      scanner.addBorrowers(world.borrowers.filter((b) => b.pool === pool || (k === 0 && !this.pools.includes(b.pool))).map((b) => b.address))
      return scanner
    })
    this.scanner = this.scanners[0]!
    this.scans = this.pools.map(() => undefined)
    this.previousScans = this.pools.map(() => undefined)
    this.readRoutes = saleRoutes({
      primaryRouter: world.dex.primaryRouter,
      fallbackRouter: world.dex.fallbackRouter,
      cometPools: (world.dex.comets ?? []).map((c) => c.pool),
    })
    this.events = new RunEventLog(
      server,
      { pool: world.blend.pool, ...(this.pools.length > 1 ? { pools: this.pools } : {}), vault: world.service!.vault, registry: world.service!.registry },
      startLedger,
    )
  }

  /** Scans every pool (one after another, in order); returns the first pool's scan. */
  async rescan(): Promise<ScanResult> {
    this.previousScans = this.scans
    this.previousRoutes = this.routes
    const scans: ScanResult[] = []
    for (const scanner of this.scanners) scans.push(await scanner.scan(this.server, this.chain))
    this.scans = scans
    this.previous = this.scan
    this.scan = scans[0]!
    this.routes = this.openAuctions() > 0 ? await this.collateralRoutes() : undefined
    return this.scan
  }

  /** The index of `pool` in `pools` (an event naming no pool is the first pool's). */
  poolIndex(pool: string | undefined): number {
    const k = pool === undefined ? 0 : this.pools.indexOf(pool)
    return k < 0 ? 0 : k
  }

  /** A pool's latest scan (the first pool's when `pool` is absent). */
  scanOf(pool: string | undefined): ScanResult | undefined {
    return this.scans[this.poolIndex(pool)]
  }

  /** A pool's scan before the latest. */
  previousScanOf(pool: string | undefined): ScanResult | undefined {
    return this.previousScans[this.poolIndex(pool)]
  }

  /**
   * How long every pool can be left alone while its only business is ripening auctions
   * (ripening.ts): the earliest such ledger over the pools with auctions open; null when any pool
   * wants attention now, or no auction is open anywhere.
   */
  ripeningUntil(minProfit: number): number | null {
    if (this.scans.length === 1) return this.scan === undefined ? null : ripeningUntil(this.scan, minProfit)
    let until: number | null = null
    for (const s of this.scans) {
      if (s === undefined) return null
      const at = ripeningUntil(s, minProfit)
      if (at === null) {
        if (scanActive(s)) return null
        continue
      }
      until = until === null ? at : Math.min(until, at)
    }
    return until
  }

  /** Every route each collateral can be sold on for USDC, as the keeper reads them. */
  private async collateralRoutes(): Promise<CollateralRoutes> {
    const usdc = this.world.usdc.contract
    const mids = this.world.collaterals.map((c) => c.contract)
    const out = new Map<string, readonly SaleVenueRoute[]>()
    for (const c of this.world.collaterals) out.set(c.contract, await this.readRoutes(this.chain, c.contract, usdc, mids))
    return out
  }

  /** In any pool: anyone to liquidate (or nearly), an auction open, or bad debt waiting in the backstop. */
  poolActive(margin = 1.0005): boolean {
    return this.scans.some((s) => scanActive(s, margin))
  }

  /** Open auctions in every pool (or the pool at index `k`). */
  openAuctions(k?: number): number {
    let n = 0
    for (const s of k === undefined ? this.scans : [this.scans[k]]) {
      if (s !== undefined) n += s.borrowers.filter((b) => b.auction !== undefined).length + s.backstopAuctions.length
    }
    return n
  }

  /** Liabilities the backstops hold (bad debt) in every pool (or the pool at index `k`), USD at oracle prices. */
  badDebt(k?: number): number {
    if (k !== undefined) return scanBadDebt(this.scans[k])
    return this.scans.reduce((t, s) => t + scanBadDebt(s), 0)
  }

  /**
   * Borrowers' debt at oracle prices (USD) in every pool (or the pool at index `k`): `borrowed`
   * is every borrower's liabilities, `underwater` the part of them their collateral no longer
   * covers (Σ max(0, liabilities − collateral), raw values, no collateral or liability factors).
   */
  debt(k?: number): { borrowed: number; underwater: number } {
    let borrowed = 0
    let underwater = 0
    for (const s of k === undefined ? this.scans : [this.scans[k]]) {
      if (s === undefined) continue
      for (const b of s.borrowers) {
        const scalar = Number(b.data.scalar)
        borrowed += Number(b.data.liabilityRaw) / scalar
        if (b.data.liabilityRaw > b.data.collateralRaw) underwater += Number(b.data.liabilityRaw - b.data.collateralRaw) / scalar
      }
    }
    return { borrowed, underwater }
  }

  async vault(): Promise<VaultSnapshot> {
    const st = await read<Record<string, bigint>>(this.chain, this.world.service!.vault, 'get_state')
    const lock = { lockedProfit: BigInt(st.locked_profit ?? 0n), lockStart: BigInt(st.lock_start ?? 0n), lockEnd: BigInt(st.lock_end ?? 0n) }
    const now = BigInt(Math.floor(this.nowMs() / 1000))
    return {
      totalUsdc: BigInt(st.total_usdc ?? 0n),
      totalShares: BigInt(st.total_shares ?? 0n),
      activeLiq: BigInt(st.active_liq ?? 0n),
      totalProfit: BigInt(st.total_profit ?? 0n),
      ...lock,
      pendingShares: BigInt(st.pending_shares ?? 0n),
      locked: now < lock.lockStart ? lock.lockedProfit : lockedProfit(lock, now),
    }
  }

  /** The vault's keeper fee and profit unlock period. */
  async vaultTerms(): Promise<VaultTerms> {
    const c = await read<Record<string, bigint | number>>(this.chain, this.world.service!.vault, 'get_config')
    return { keeperFeeBps: Number(c.keeper_fee_bps ?? 0), profitUnlockSecs: Number(c.profit_unlock_secs ?? 0) }
  }

  /** Primary router price (USDC per unit) per collateral; null while the router is down. */
  async dexPrices(): Promise<Record<string, number | null>> {
    const out: Record<string, number | null> = {}
    for (const c of this.world.collaterals) {
      try {
        const [a, u] = await read<bigint[]>(this.chain, this.world.dex.primaryRouter, 'get_reserves', [addr(c.contract), addr(this.world.usdc.contract)])
        out[c.code] = num(u!) / num(a!)
      } catch {
        out[c.code] = null
      }
    }
    return out
  }
}
