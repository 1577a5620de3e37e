import { InvalidInputError, InvalidPriceError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import type { Rounding } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'
import type { AuctionAssetQuote } from './auctionValue.js'

/**
 * The amount of an asset (in its smallest unit) worth `value` in the oracle's base currency:
 * `value * 10^decimals / price`, the inverse of `auctionValue` for one asset. With a second
 * asset's oracle price as `value`, it is that asset's price in this one (the price of one XLM in
 * USDC: `valueInAsset(xlmPrice, usdcQuote, 'floor')`).
 *
 * Errors: `InvalidPrice` when the price is <= 0; `InvalidInput` for bad decimals; `Overflow`.
 *
 * @example
 * import { valueInAsset } from './index.js'
 * valueInAsset(2500000n, { price: 1_0000000n, decimals: 7 }, 'floor') // 2500000n: 0.25 USDC
 */
export function valueInAsset(value: bigint, quote: Pick<AuctionAssetQuote, 'price' | 'decimals'>, rounding: Rounding): bigint {
  assertI128(value, 'value')
  if (quote.price <= 0n) throw new InvalidPriceError('the quote asset', quote.price)
  if (!Number.isInteger(quote.decimals) || quote.decimals < 0 || quote.decimals > 38)
    throw new InvalidInputError('Token decimals must be an integer in 0..38.', `decimals = ${quote.decimals}`)
  return mulDiv(value, 10n ** BigInt(quote.decimals), quote.price, rounding)
}
