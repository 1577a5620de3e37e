use soroban_sdk::contracterror;

/// Router errors: band 350-399.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum RouterError {
    /// A path needs at least two tokens.
    InvalidPath = 350,
    /// The venue is paused by its admin: every swap, quote and liquidity change is refused.
    Paused = 351,
    /// The ledger time is past the caller's deadline.
    Expired = 352,
    /// The output is below `amount_out_min`.
    InsufficientOutputAmount = 353,
    /// The required input is above `amount_in_max`.
    ExcessiveInputAmount = 354,
    /// No pair for this token pair.
    PairNotFound = 355,
    /// A pair for this token pair already exists.
    PairExists = 356,
    /// add/remove liquidity: token A amount below its minimum.
    InsufficientAAmount = 357,
    /// add/remove liquidity: token B amount below its minimum.
    InsufficientBAmount = 358,
    /// Non-positive amount.
    InvalidAmount = 359,
    /// The two tokens are equal.
    IdenticalTokens = 360,
    /// `register_pair`: the pair was not created for this router, or its tokens are not sorted.
    ForeignPair = 361,
    /// Checked arithmetic overflowed.
    Overflow = 362,
    /// A pair has no reserves, or the output is not below the reserve.
    InsufficientLiquidity = 363,
}
