use soroban_sdk::{contractevent, Address, Env, Vec};

#[contractevent(data_format = "vec")]
pub struct PairCreated {
    #[topic]
    pub token_0: Address,
    #[topic]
    pub token_1: Address,
    pub pair: Address,
}

#[contractevent(data_format = "vec")]
pub struct Swap {
    #[topic]
    pub to: Address,
    pub path: Vec<Address>,
    pub amounts: Vec<i128>,
}

#[contractevent(data_format = "single-value")]
pub struct SetPaused {
    pub paused: bool,
}

pub(crate) fn pair_created(e: &Env, token_0: &Address, token_1: &Address, pair: &Address) {
    PairCreated { token_0: token_0.clone(), token_1: token_1.clone(), pair: pair.clone() }.publish(e);
}

pub(crate) fn swap(e: &Env, to: &Address, path: &Vec<Address>, amounts: &Vec<i128>) {
    Swap { to: to.clone(), path: path.clone(), amounts: amounts.clone() }.publish(e);
}

pub(crate) fn set_paused(e: &Env, paused: bool) {
    SetPaused { paused }.publish(e);
}
