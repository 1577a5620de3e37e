/**
 * Shares (units of 1e-7 share) minted on the first deposit and credited to the vault contract's
 * own address forever. They make the first depositor pay for a floor under `total_shares`, so a
 * later donation cannot inflate the price of one share enough to round victims' deposits to zero.
 */
export const DEAD_SHARES = 1000n

/** Share price of an empty vault, and the fixed-point scale of every share price: 1.0 with 7 decimals. */
export const SHARE_PRICE_SCALAR = 10_000_000n
