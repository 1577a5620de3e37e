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

// Where a swap sells: a Soroswap-style router (`swap_exact_tokens_for_tokens`, any path of two
// or more tokens, hops through intermediate assets inside the router), or a Comet weighted pool
// (`swap_exact_amount_in`, one hop: the path is exactly [token_in, token_out]). Either address
// must be among the registry's venues.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SwapVenue {
    Router(Address),
    Comet(Address),
}

// One exact-input sale, paid to the executor: `amount_in` of `path[0]` (0: the executor's whole
// balance of it, so the last part of a split takes what is left, rounding included) along
// `path`, which must end in USDC, for at least `min_out` of it (the venue's slippage floor).
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Swap {
    pub venue: SwapVenue,
    pub path: Vec<Address>,
    pub amount_in: i128,
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
