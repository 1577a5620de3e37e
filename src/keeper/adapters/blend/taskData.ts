/** The Blend adapter's task payload. */
export interface BlendTaskData {
  /** A user liquidation, or the backstop's bad debt or interest auction (user = the backstop). */
  kind: 'user_liquidation' | 'bad_debt' | 'interest'
  user: string
  /** Percent to create the auction at; undefined when an auction is already open. */
  percent: number | undefined
  hasAuction: boolean
  /** Estimated USDC to draw (the bid's debt), 7 decimals. */
  estCapital: bigint
}
