//! Storage layout: instance only (owner, vault, USDC token, registry). The executor keeps no other state:
//! its balances live in the token contracts, its keeper record in the registry, its draw in the
//! vault.
use soroban_sdk::{symbol_short, Address, Env, Symbol};

pub const DAY_IN_LEDGERS: u32 = 17_280;
pub const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;

const OWNER: Symbol = symbol_short!("owner");
const VAULT: Symbol = symbol_short!("vault");
const USDC: Symbol = symbol_short!("usdc");
const REGISTRY: Symbol = symbol_short!("registry");

pub fn extend_instance(env: &Env) {
    env.storage()
        .instance()
        .extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

pub fn set_owner(env: &Env, owner: &Address) {
    env.storage().instance().set(&OWNER, owner);
}

pub fn get_owner(env: &Env) -> Address {
    env.storage().instance().get(&OWNER).unwrap()
}

pub fn set_vault(env: &Env, vault: &Address) {
    env.storage().instance().set(&VAULT, vault);
}

pub fn get_vault(env: &Env) -> Address {
    env.storage().instance().get(&VAULT).unwrap()
}

pub fn set_usdc(env: &Env, usdc: &Address) {
    env.storage().instance().set(&USDC, usdc);
}

pub fn get_usdc(env: &Env) -> Address {
    env.storage().instance().get(&USDC).unwrap()
}

pub fn set_registry(env: &Env, registry: &Address) {
    env.storage().instance().set(&REGISTRY, registry);
}

pub fn get_registry(env: &Env) -> Address {
    env.storage().instance().get(&REGISTRY).unwrap()
}
