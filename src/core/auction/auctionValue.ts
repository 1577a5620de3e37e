import { InvalidInputError, InvalidPriceError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { SCALAR_12, type Rounding } from '../fixed/constants.js'
import { mulDiv } from '../fixed/mulDiv.js'

/** How to value one auction asset in the oracle's base currency. */
export type AuctionAssetQuote = {
  /** Oracle price of one whole unit of the underlying, with the oracle's decimals. */
  price: bigint
  /** Decimals of the underlying token. */
  decimals: number
  /**
   * 12-decimal rate from auction tokens to underlying: the reserve's `b_rate` for a lot of
   * bTokens, its `d_rate` for a bid of dTokens. Omit when the amounts already are underlying
   * (interest-auction lot, backstop LP tokens).
   */
  rate?: bigint
}

export type AuctionQuotes = Readonly<Record<string, AuctionAssetQuote>>

/**
 * Value of one side of an auction in the oracle's base currency: per asset
 * `tokens -> underlying` (`tokens * rate / 1e12`), then `underlying * price / 10^decimals`, both
 * with the same named rounding, summed. The lot is valued with `floor` and the bid with `ceil`
 * so a profitability check never overstates what the filler gets nor understates what it pays.
 *
 * Errors: `InvalidPrice` when an asset has no quote or a price <= 0; `InvalidInput` for a
 * negative amount, rate or bad decimals.
 *
 * @example
 * import { auctionValue } from './index.js'
 * auctionValue({ XLM: 100_0000000n }, { XLM: { price: 1200000n, decimals: 7 } }, 'floor') // 12_0000000n
 */
export function auctionValue(amounts: Readonly<Record<string, bigint>>, quotes: AuctionQuotes, rounding: Rounding): bigint {
  let total = 0n
  for (const [asset, amount] of Object.entries(amounts)) {
    assertI128(amount, `amount of ${asset}`)
    if (amount < 0n) throw new InvalidInputError('Auction amounts must be >= 0.', `${asset} = ${amount}`)
    const quote = quotes[asset]
    if (quote === undefined || quote.price <= 0n) throw new InvalidPriceError(asset, quote?.price)
    if (!Number.isInteger(quote.decimals) || quote.decimals < 0 || quote.decimals > 38)
      throw new InvalidInputError('Token decimals must be an integer in 0..38.', `${asset}: ${quote.decimals}`)
    let underlying = amount
    if (quote.rate !== undefined) {
      if (quote.rate <= 0n) throw new InvalidInputError('Token rate must be > 0.', `${asset}: ${quote.rate}`)
      underlying = mulDiv(amount, quote.rate, SCALAR_12, rounding)
    }
    total = assertI128(total + mulDiv(underlying, quote.price, 10n ** BigInt(quote.decimals), rounding), 'auction value')
  }
  return total
}
