use soroban_sdk::{contractevent, Address, Env};

/// One trade of a rebalance: `amount_in` of `sell` for `amount_out` of `buy`.
#[contractevent(data_format = "vec")]
pub struct Rebalance {
    #[topic]
    pub sell: Address,
    #[topic]
    pub buy: Address,
    pub amount_in: i128,
    pub amount_out: i128,
}

pub(crate) fn trade(e: &Env, sell: &Address, buy: &Address, amount_in: i128, amount_out: i128) {
    Rebalance { sell: sell.clone(), buy: buy.clone(), amount_in, amount_out }.publish(e);
}
