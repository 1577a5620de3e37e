use soroban_sdk::{contracttype, Address, Vec};

// One lending-pool request. Encodes exactly like Blend v2's `Request` (a map with the keys
// `address`, `amount`, `request_type`), so a list of them is passed to the pool unchanged.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Request {
    pub request_type: u32,
    // The asset, or the liquidated user for a fill request.
    pub address: Address,
    pub amount: i128,
}

// One exact-input swap of the executor's whole balance of `path[0]` on a Soroswap-style router,
// paid to the executor. `min_out` is the router's `amount_out_min` (the slippage floor).
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Swap {
    pub router: Address,
    pub path: Vec<Address>,
    pub min_out: i128,
}

// What the owner asks the executor to do with a flash draw (passed through the vault's
// `flash_draw` unchanged): fill on `pool`, sell what the fill paid through `swaps`, and hand at
// least `min_proceeds` USDC back to the vault.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct FlashCall {
    pub pool: Address,
    pub requests: Vec<Request>,
    pub swaps: Vec<Swap>,
    pub min_proceeds: i128,
}
