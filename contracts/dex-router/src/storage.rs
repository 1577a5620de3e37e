use soroban_sdk::{contracttype, Address, BytesN, Env, Vec};

pub(crate) const DAY_IN_LEDGERS: u32 = 17_280;
pub(crate) const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub(crate) const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub(crate) const PAIR_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub(crate) const PAIR_TTL_THRESHOLD: u32 = PAIR_EXTEND_AMOUNT - DAY_IN_LEDGERS;

#[contracttype]
#[derive(Clone)]
pub(crate) enum DataKey {
    Admin,
    PairWasmHash,
    Paused,
    /// Every pair, in creation order (instance).
    AllPairs,
    /// Pair address for sorted (token_0, token_1) (persistent).
    Pair(Address, Address),
}

pub(crate) fn extend_instance(e: &Env) {
    e.storage().instance().extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

pub(crate) fn set_admin(e: &Env, admin: &Address) {
    e.storage().instance().set(&DataKey::Admin, admin);
}
pub(crate) fn get_admin(e: &Env) -> Address {
    e.storage().instance().get(&DataKey::Admin).unwrap()
}
pub(crate) fn set_pair_wasm_hash(e: &Env, hash: &BytesN<32>) {
    e.storage().instance().set(&DataKey::PairWasmHash, hash);
}
pub(crate) fn get_pair_wasm_hash(e: &Env) -> BytesN<32> {
    e.storage().instance().get(&DataKey::PairWasmHash).unwrap()
}
pub(crate) fn set_paused(e: &Env, paused: bool) {
    e.storage().instance().set(&DataKey::Paused, &paused);
}
pub(crate) fn is_paused(e: &Env) -> bool {
    e.storage().instance().get(&DataKey::Paused).unwrap_or(false)
}
pub(crate) fn get_all_pairs(e: &Env) -> Vec<Address> {
    e.storage().instance().get(&DataKey::AllPairs).unwrap_or_else(|| Vec::new(e))
}
pub(crate) fn get_pair(e: &Env, token_0: &Address, token_1: &Address) -> Option<Address> {
    let key = DataKey::Pair(token_0.clone(), token_1.clone());
    let pair = e.storage().persistent().get::<_, Address>(&key);
    if pair.is_some() {
        e.storage().persistent().extend_ttl(&key, PAIR_TTL_THRESHOLD, PAIR_EXTEND_AMOUNT);
    }
    pair
}
pub(crate) fn add_pair(e: &Env, token_0: &Address, token_1: &Address, pair: &Address) {
    let key = DataKey::Pair(token_0.clone(), token_1.clone());
    e.storage().persistent().set(&key, pair);
    e.storage().persistent().extend_ttl(&key, PAIR_TTL_THRESHOLD, PAIR_EXTEND_AMOUNT);
    let mut all = get_all_pairs(e);
    all.push_back(pair.clone());
    e.storage().instance().set(&DataKey::AllPairs, &all);
}
