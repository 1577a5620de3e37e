use soroban_sdk::contracterror;

/// Rebalance-vault errors: band 400-449.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum RebalanceError {
    /// Assets and weights differ in length, a weight is zero, or the weights do not sum to
    /// 10_000 bps.
    InvalidWeights = 400,
    /// The caller is not the configured rebalancer.
    Unauthorized = 401,
    /// The asset is not held by this vault.
    UnknownAsset = 402,
    /// No price, or a price <= 0.
    InvalidPrice = 403,
    /// The base asset is not in the asset list.
    InvalidBase = 404,
    /// `max_slippage_bps` above 10_000.
    InvalidSlippage = 405,
    /// Checked arithmetic overflowed.
    Overflow = 406,
}
