use soroban_sdk::{contractevent, Address, Env};

/// LP shares minted for tokens sent in.
#[contractevent(data_format = "vec")]
pub struct Deposit {
    #[topic]
    pub to: Address,
    pub amount_0: i128,
    pub amount_1: i128,
    pub shares: i128,
}

/// LP shares burned for tokens paid out.
#[contractevent(data_format = "vec")]
pub struct Withdraw {
    #[topic]
    pub to: Address,
    pub shares: i128,
    pub amount_0: i128,
    pub amount_1: i128,
}

#[contractevent(data_format = "vec")]
pub struct Swap {
    #[topic]
    pub to: Address,
    pub amount_0_in: i128,
    pub amount_1_in: i128,
    pub amount_0_out: i128,
    pub amount_1_out: i128,
}

/// Reserves after every change.
#[contractevent(data_format = "vec")]
pub struct Sync {
    pub reserve_0: i128,
    pub reserve_1: i128,
}

pub(crate) fn deposit(e: &Env, to: &Address, amount_0: i128, amount_1: i128, shares: i128) {
    Deposit { to: to.clone(), amount_0, amount_1, shares }.publish(e);
}

pub(crate) fn withdraw(e: &Env, to: &Address, shares: i128, amount_0: i128, amount_1: i128) {
    Withdraw { to: to.clone(), shares, amount_0, amount_1 }.publish(e);
}

pub(crate) fn swap(e: &Env, to: &Address, in_0: i128, in_1: i128, out_0: i128, out_1: i128) {
    Swap { to: to.clone(), amount_0_in: in_0, amount_1_in: in_1, amount_0_out: out_0, amount_1_out: out_1 }
        .publish(e);
}

pub(crate) fn sync(e: &Env, reserve_0: i128, reserve_1: i128) {
    Sync { reserve_0, reserve_1 }.publish(e);
}
