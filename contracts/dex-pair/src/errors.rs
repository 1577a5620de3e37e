use soroban_sdk::contracterror;

/// Pair errors: band 300-349.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum PairError {
    /// Both outputs zero, or a negative amount.
    InvalidAmount = 300,
    /// The requested output is not below the reserve.
    InsufficientLiquidity = 301,
    /// Nothing was sent in for the requested output.
    InsufficientInput = 302,
    /// Balances after the swap, net of the 0.3 % fee, do not keep x * y >= k.
    KInvariant = 303,
    /// A deposit would mint no LP shares.
    InsufficientLiquidityMinted = 304,
    /// A withdrawal would return nothing, or more LP shares than the owner holds.
    InsufficientLiquidityBurned = 305,
    /// `to` is one of the pair's own tokens.
    InvalidTo = 306,
    /// Checked arithmetic overflowed.
    Overflow = 307,
    /// The two tokens are equal.
    IdenticalTokens = 308,
}
