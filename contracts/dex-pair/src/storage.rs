use soroban_sdk::{contracttype, Address, Env};

pub(crate) const DAY_IN_LEDGERS: u32 = 17_280;
pub(crate) const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub(crate) const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub(crate) const SHARES_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub(crate) const SHARES_TTL_THRESHOLD: u32 = SHARES_EXTEND_AMOUNT - DAY_IN_LEDGERS;

#[contracttype]
#[derive(Clone)]
pub(crate) enum DataKey {
    /// The router that created the pair.
    Factory,
    Token0,
    Token1,
    Reserve0,
    Reserve1,
    TotalShares,
    /// LP shares held by an address (persistent).
    Shares(Address),
}

pub(crate) fn extend_instance(e: &Env) {
    e.storage().instance().extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

fn get_i128(e: &Env, key: &DataKey) -> i128 {
    e.storage().instance().get(key).unwrap_or(0)
}

pub(crate) fn set_factory(e: &Env, a: &Address) {
    e.storage().instance().set(&DataKey::Factory, a);
}
pub(crate) fn get_factory(e: &Env) -> Address {
    e.storage().instance().get(&DataKey::Factory).unwrap()
}
pub(crate) fn set_tokens(e: &Env, t0: &Address, t1: &Address) {
    e.storage().instance().set(&DataKey::Token0, t0);
    e.storage().instance().set(&DataKey::Token1, t1);
}
pub(crate) fn get_token_0(e: &Env) -> Address {
    e.storage().instance().get(&DataKey::Token0).unwrap()
}
pub(crate) fn get_token_1(e: &Env) -> Address {
    e.storage().instance().get(&DataKey::Token1).unwrap()
}
pub(crate) fn get_reserves(e: &Env) -> (i128, i128) {
    (get_i128(e, &DataKey::Reserve0), get_i128(e, &DataKey::Reserve1))
}
pub(crate) fn set_reserves(e: &Env, r0: i128, r1: i128) {
    e.storage().instance().set(&DataKey::Reserve0, &r0);
    e.storage().instance().set(&DataKey::Reserve1, &r1);
}
pub(crate) fn get_total_shares(e: &Env) -> i128 {
    get_i128(e, &DataKey::TotalShares)
}
pub(crate) fn set_total_shares(e: &Env, v: i128) {
    e.storage().instance().set(&DataKey::TotalShares, &v);
}
pub(crate) fn get_shares(e: &Env, owner: &Address) -> i128 {
    let key = DataKey::Shares(owner.clone());
    match e.storage().persistent().get::<_, i128>(&key) {
        Some(v) => {
            e.storage().persistent().extend_ttl(&key, SHARES_TTL_THRESHOLD, SHARES_EXTEND_AMOUNT);
            v
        }
        None => 0,
    }
}
pub(crate) fn set_shares(e: &Env, owner: &Address, v: i128) {
    let key = DataKey::Shares(owner.clone());
    e.storage().persistent().set(&key, &v);
    e.storage().persistent().extend_ttl(&key, SHARES_TTL_THRESHOLD, SHARES_EXTEND_AMOUNT);
}
