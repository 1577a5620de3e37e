/**
 * The harness's own view of the chain after each close: a PoolScanner scan (the production
 * scanner, on the harness's own RPC client, not an agent: the scheduler does not hold its answers), the vault's state,
 * the primary DEX's prices, the venues each collateral sells on while an auction is open (the
 * keeper's own `saleRoutes`), and the new chain events. It feeds the series, the fast-forward
 * test and the core replay.
 */
import type { rpc } from '@stellar/stellar-sdk'
import { createChain, read, addr, type Chain } from '../../../src/chain/index.js'
import { lockedProfit, toAssetFromDToken } from '../../../src/core/index.js'
import { PoolScanner, type ScanResult } from '../../../src/keeper/adapters/blend/scan.js'
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

export class Observer {
  readonly chain: Chain
  readonly scanner: PoolScanner
  readonly events: RunEventLog
  scan: ScanResult | undefined
  previous: ScanResult | undefined
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
    this.scanner = new PoolScanner(world.blend.pool, { now: nowMs })
    this.scanner.addBorrowers(world.borrowers.map((b) => b.address))
    this.readRoutes = saleRoutes({
      primaryRouter: world.dex.primaryRouter,
      fallbackRouter: world.dex.fallbackRouter,
      cometPools: (world.dex.comets ?? []).map((c) => c.pool),
    })
    this.events = new RunEventLog(server, { pool: world.blend.pool, vault: world.service!.vault, registry: world.service!.registry }, startLedger)
  }

  async rescan(): Promise<ScanResult> {
    this.previous = this.scan
    this.previousRoutes = this.routes
    this.scan = await this.scanner.scan(this.server, this.chain)
    this.routes = this.openAuctions() > 0 ? await this.collateralRoutes() : undefined
    return this.scan
  }

  /** Every route each collateral can be sold on for USDC, as the keeper reads them. */
  private async collateralRoutes(): Promise<CollateralRoutes> {
    const usdc = this.world.usdc.contract
    const mids = this.world.collaterals.map((c) => c.contract)
    const out = new Map<string, readonly SaleVenueRoute[]>()
    for (const c of this.world.collaterals) out.set(c.contract, await this.readRoutes(this.chain, c.contract, usdc, mids))
    return out
  }

  /** Anyone to liquidate (or nearly), an auction open, or bad debt waiting in the backstop. */
  poolActive(margin = 1.0005): boolean {
    const s = this.scan
    if (s === undefined) return true
    if (s.backstopAuctions.length > 0) return true
    if (s.backstopPositions.liabilities.size > 0) return true
    return s.borrowers.some((b) => b.auction !== undefined || b.healthFactor < margin)
  }

  openAuctions(): number {
    const s = this.scan
    if (s === undefined) return 0
    return s.borrowers.filter((b) => b.auction !== undefined).length + s.backstopAuctions.length
  }

  /** Liabilities the backstop holds (bad debt), USD at oracle prices. */
  badDebt(): number {
    const s = this.scan
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

  /**
   * Borrowers' debt at oracle prices (USD): `borrowed` is every borrower's liabilities,
   * `underwater` the part of them their collateral no longer covers (Σ max(0, liabilities −
   * collateral), raw values, no collateral or liability factors).
   */
  debt(): { borrowed: number; underwater: number } {
    const s = this.scan
    if (s === undefined) return { borrowed: 0, underwater: 0 }
    let borrowed = 0
    let underwater = 0
    for (const b of s.borrowers) {
      const scalar = Number(b.data.scalar)
      borrowed += Number(b.data.liabilityRaw) / scalar
      if (b.data.liabilityRaw > b.data.collateralRaw) underwater += Number(b.data.liabilityRaw - b.data.collateralRaw) / scalar
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
