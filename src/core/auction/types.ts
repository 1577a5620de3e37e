/**
 * An auction as the Blend v2 pool stores it (`get_auction`): amounts keyed by asset address,
 * unscaled, and the ledger sequence the auction starts at. For a user liquidation the bid holds
 * the user's liabilities in dTokens and the lot their collateral in bTokens; for interest and
 * bad-debt auctions one side is backstop LP tokens.
 */
export type AuctionData = {
  bid: Readonly<Record<string, bigint>>
  lot: Readonly<Record<string, bigint>>
  /** Ledger sequence at which the auction starts. */
  block: number
}
