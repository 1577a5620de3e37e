/**
 * What the Blend adapter's parts share: the pool, the settings, the last scan and the reads and
 * writes every kind of auction needs. Built once per adapter by `lendingPoolAdapter`.
 */
import type { Keypair, rpc } from '@stellar/stellar-sdk'
import type { Chain } from '../../../chain/index.js'
import type { PoolDepth } from '../../dex/routerDepth.js'
import type { SaleRoutes } from '../../dex/saleRoutes.js'
import type { Venue } from '../../dex/swapToUsdc.js'
import type { AdapterContext, AdapterLogger, ExecutionPlan, FillSubmitOptions, FireContext, Result } from '../../sdk/index.js'
import type { FillPlan } from './auctionPlan.js'
import type { FillFee } from './fillFee.js'
import type { FailureBudget } from './failureBudget.js'
import type { AuctionOrigins } from './auctionOrigins.js'
import type { SaleReservations } from './saleReservations.js'
import type { Reserve } from './loadPool.js'
import type { OraclePrices, PriceData } from './oracle.js'
import type { PoolReader, ScanResult } from './scan.js'
import type { AuctionData, AuctionType } from './storage.js'
import type { FillOrder, UserPlanData } from './plans.js'

/** A fill for the atomic path: one transaction through the keeper's executor contract. */
export interface AtomicFill {
  chain: Chain
  keypair: Keypair
  plan: ExecutionPlan<UserPlanData>
  /** The auction as read right before the fill (smaller than the planned one after someone's partial fill). */
  auction: AuctionData
  fill: FillPlan
  order: FillOrder
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  fc: FireContext
  /** The fill's inclusion fee and fee bump under the keeper's fee strategy. */
  fee: FillSubmitOptions
}

/** The atomic path, present when an executor contract is the registered keeper. */
export interface AtomicExecutor {
  liquidateAtomic(f: AtomicFill): Promise<Result>
}

export interface BlendContext {
  pool: string
  /** MIN_PROFIT, 7 decimals. */
  minProfit: bigint
  slippageBps: number
  emit?: AdapterContext['emit'] | undefined
  onFill?: ((info: { user: string; plannedLedger: number; fillLedger: number; drew: bigint; proceeds: bigint; percent?: number }) => void) | undefined
  executor?: AtomicExecutor | undefined
  /**
   * The most a new two-step draw of this keeper may be (the registry's bond limit on it,
   * `draw_limit`); two-step fills are sized within it. Absent, or resolving undefined: no limit known.
   */
  drawLimit?: (() => Promise<bigint | undefined>) | undefined
  logger?: Pick<AdapterLogger, 'info'> | undefined
  /** The keeper's fee strategy for fills (`AdapterContext.fillFee`); undefined: the chain's defaults. */
  fillFee?: FillFee
  /**
   * The pool of the router the lot is sold on (the primary DEX router), read for executable
   * valuations; undefined when no router is configured (then lots are valued at the oracle).
   */
  saleDepth?: PoolDepth | undefined
  /**
   * Every venue a lot asset can be sold on (the primary and fallback routers' pairs, paths
   * through another reserve on the primary router, Comet pools): the atomic path values and
   * splits its sale across them; undefined without a router.
   */
  saleRoutes?: SaleRoutes | undefined
  /** What MIN_PROFIT is asked of: the oracle value (default), or what the pools pay too. */
  profitBasis: 'oracle' | 'executable'
  /** Failed fills per auction: backoff, smaller percents, and the point of giving up. */
  failures: FailureBudget
  /** This keeper's own sales per ledger, so its fills landing together value the pool in turn. */
  sales: SaleReservations
  /** Each auction as first seen, for what is left of it. */
  origins: AuctionOrigins
  reader(chain: Chain): PoolReader
  /** The last scan, or a fresh one when there is none. */
  scan(chain: Chain): Promise<ScanResult>
  usdc(chain: Chain): Promise<string>
  venues(chain: Chain, keypair: Keypair): Venue[]
  loadAuction(reader: PoolReader, type: AuctionType, user: string): Promise<AuctionData | undefined>
  /** Opens a user-liquidation auction; 'open' when one is open afterwards, else why not. */
  openUserAuction(chain: Chain, keypair: Keypair, user: string, percent: number, scan: ScanResult): Promise<'open' | string>
  /** Reserves accrued to now, oracle prices and the latest ledger, read together. */
  freshValuation(chain: Chain, scan: ScanResult): Promise<{ reserves: Map<string, Reserve>; prices: OraclePrices; latest: rpc.Api.GetLatestLedgerResponse }>
}
