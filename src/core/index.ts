// Public API of the deterministic core. Import from here, not from the individual files.

export * from './errors.js'

export { I128_MAX, I128_MIN, SCALAR_7, SCALAR_12, type Rounding } from './fixed/constants.js'
export { assertI128 } from './fixed/assertI128.js'
export { checkedMul } from './fixed/checkedMul.js'
export { divRound } from './fixed/divRound.js'
export { mulDiv } from './fixed/mulDiv.js'

export { DEAD_SHARES, SHARE_PRICE_SCALAR } from './shares/constants.js'
export {
  sharesForDeposit,
  type SharesForDepositParameters,
  type SharesForDepositReturnType,
} from './shares/sharesForDeposit.js'
export { usdcForShares, type UsdcForSharesParameters } from './shares/usdcForShares.js'
export { sharePrice, type SharePriceParameters } from './shares/sharePrice.js'

export type { AuctionData } from './auction/types.js'
export {
  AUCTION_RAMP_BLOCKS,
  AUCTION_STEP,
  auctionModifiers,
  type AuctionModifiersReturnType,
} from './auction/auctionModifiers.js'
export { scaleAuction, type ScaleAuctionParameters, type ScaleAuctionReturnType } from './auction/scaleAuction.js'
export { auctionValue, type AuctionAssetQuote, type AuctionQuotes } from './auction/auctionValue.js'
export { valueInAsset } from './auction/valueInAsset.js'
export {
  auctionProfitability,
  type AuctionProfitabilityParameters,
  type AuctionProfitabilityReturnType,
} from './auction/auctionProfitability.js'
export { meetsMinProfit } from './auction/meetsMinProfit.js'
export {
  firstProfitableBlock,
  type FirstProfitableBlockParameters,
  type FirstProfitableBlockReturnType,
} from './auction/firstProfitableBlock.js'

export {
  bestPartialFill,
  routesKey,
  valuePartialFill,
  type BestPartialFillParameters,
  type PartialFillValuation,
  type SaleCache,
} from './auction/bestPartialFill.js'

export { constantProductOut, POOL_FEE_DENOM, POOL_FEE_KEEP, type ConstantProductPool } from './dex/constantProductOut.js'
export { bestSplit, bestSplitBy, type BestSplitReturnType } from './dex/bestSplit.js'
export { COMET_MAX_IN_RATIO, cometMaxIn, weightedPoolOut, type WeightedPool } from './dex/weightedPoolOut.js'
export { poolOut, routeOut, type SalePool } from './dex/routeOut.js'
export { bestSale, type BestSaleReturnType, type SaleRoute } from './dex/bestSale.js'

export type { Reserve, ReserveConfig, ReserveData } from './reserve/types.js'
export {
  toAssetFromBToken,
  toAssetFromDToken,
  toEffectiveAssetFromBToken,
  toEffectiveAssetFromDToken,
} from './reserve/conversions.js'
export { utilization } from './reserve/utilization.js'
export { SECONDS_PER_YEAR, calcAccrual, type CalcAccrualParameters, type CalcAccrualReturnType } from './reserve/calcAccrual.js'
export { accrueReserve, type AccrueReserveParameters } from './reserve/accrueReserve.js'

export { indexedEntries, type IndexedAmounts, type Positions } from './health/types.js'
export { healthFactor, type HealthFactorParameters, type HealthFactorReturnType } from './health/healthFactor.js'

export { taskPriority } from './priority/taskPriority.js'
export { clampPriority, PRIORITY_MIN, PRIORITY_MAX } from './priority/clampPriority.js'
export { sortTasksByPriority } from './priority/sortTasksByPriority.js'

export { BPS, slippageFloor } from './vault/slippageFloor.js'
export { profitOf } from './vault/profitOf.js'
export { U64_MAX, type ProfitLock } from './vault/profitLock.js'
export { lockedProfit } from './vault/lockedProfit.js'
export { bookProfit } from './vault/bookProfit.js'
export { freeAssets } from './vault/freeAssets.js'
export { keeperFee } from './vault/keeperFee.js'
export { bondForDraw, drawLimit } from './vault/drawLimit.js'

export { MISSING, formatPercent } from './display/formatPercent.js'
export { APY_MIN_SPAN_SECONDS, apyDisplay, type ApyDisplayReturnType, type SharePricePoint } from './display/apyDisplay.js'

export { FEE_BUMP_MULTIPLIER, FEE_PERCENTILES, MIN_INCLUSION_FEE, type FeePercentile, type FeeStrategy } from './fees/types.js'
export { inclusionFeeBid, type InclusionFeeBidParameters } from './fees/inclusionFeeBid.js'
export { feeBumpBid, type FeeBumpBidParameters } from './fees/feeBumpBid.js'
