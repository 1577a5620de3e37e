/** What a user-liquidation plan carries from `plan` to `fire`, and the order a fill sends. */
import type { FillPlan } from './auctionPlan.js'
import type { Reserve } from './loadPool.js'
import type { PriceData } from './oracle.js'
import type { Request } from './requests.js'
import type { AuctionData } from './storage.js'

/** What a user-liquidation plan carries from plan to fire. */
export interface UserPlanData {
  kind: 'user_liquidation'
  user: string
  auction: AuctionData
  /** Valuation the plan was made with (progress lines re-use it). */
  reserves: Map<string, Reserve>
  prices: Map<string, PriceData>
  fill: FillPlan
  /** The state of the venues the fill was valued on (`venueKey`), read at ledger `seen`. */
  venues: string
  seen: number
}

/** Bid side of a fill in USDC: the repay amounts (with their buffer), and the request list. */
export interface FillOrder {
  drew: bigint
  requests: Request[]
  /** Seized collateral assets other than USDC. */
  lotAssets: string[]
}

