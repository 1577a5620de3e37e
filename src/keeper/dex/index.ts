export { swapToUsdc, type SwapToUsdcParameters, type SwapToUsdcReturnType, type Venue } from './swapToUsdc.js'
export { routerDepth, type PoolDepth } from './routerDepth.js'
export { routerVenue, ROUTER_INSUFFICIENT_OUTPUT, type RouterVenueParameters } from './routerVenue.js'
export {
  DexError,
  ErrBadSwapInput,
  ErrNoProceeds,
  ErrNoRoute,
  ErrSlippageExceeded,
  type VenueFailure,
} from './errors.js'
export { saleRoutes, type RouteHop, type SaleRoutes, type SaleRouteSources, type SaleVenueRoute } from './saleRoutes.js'
