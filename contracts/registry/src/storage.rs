//! Storage layout. Instance: admin, config, vault. Persistent: one entry per keeper, the list of
//! operators, and a ban marker per slashed operator.
use soroban_sdk::{symbol_short, vec, Address, Env, IntoVal, Symbol, Val, Vec};

use crate::errors::RegistryError;
use crate::types::{KeeperInfo, RegistryConfig};

pub const DAY_IN_LEDGERS: u32 = 17_280;
pub const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub const PERSISTENT_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub const PERSISTENT_TTL_THRESHOLD: u32 = PERSISTENT_EXTEND_AMOUNT - 2 * DAY_IN_LEDGERS;

// Instance keys are short symbols; persistent keys are (symbol, address) pairs or a symbol.
// Plain symbols and tuples keep the key encoding out of the wasm.
const ADMIN: Symbol = symbol_short!("admin");
const CONFIG: Symbol = symbol_short!("config");
const VAULT: Symbol = symbol_short!("vault");
// Vec<Address> of registered operators, in registration order (persistent).
const OPERATORS: Symbol = symbol_short!("operators");
const KEEPER: Symbol = symbol_short!("keeper");
// Present once the operator was slashed.
const BANNED: Symbol = symbol_short!("banned");

pub fn extend_instance(env: &Env) {
    env.storage()
        .instance()
        .extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

fn extend_persistent<K: IntoVal<Env, Val>>(env: &Env, key: &K) {
    env.storage()
        .persistent()
        .extend_ttl(key, PERSISTENT_TTL_THRESHOLD, PERSISTENT_EXTEND_AMOUNT);
}

// `transfer(from, to, amount)` on the USDC token (SEP-41). Called directly rather than through
// the SDK's token client, whose `to: MuxedAddress` conversion adds ~300 bytes of wasm; the
// arguments are the same values.
pub fn transfer(env: &Env, token: &Address, from: &Address, to: &Address, amount: i128) {
    env.invoke_contract::<()>(
        token,
        &symbol_short!("transfer"),
        vec![env, from.to_val(), to.to_val(), amount.into_val(env)],
    );
}

pub fn set_admin(env: &Env, admin: &Address) {
    env.storage().instance().set(&ADMIN, admin);
}

pub fn get_admin(env: &Env) -> Address {
    env.storage().instance().get(&ADMIN).unwrap()
}

pub fn set_config(env: &Env, config: &RegistryConfig) {
    env.storage().instance().set(&CONFIG, config);
}

pub fn get_config(env: &Env) -> RegistryConfig {
    env.storage().instance().get(&CONFIG).unwrap()
}

pub fn has_vault(env: &Env) -> bool {
    env.storage().instance().has(&VAULT)
}

pub fn set_vault(env: &Env, vault: &Address) {
    env.storage().instance().set(&VAULT, vault);
}

pub fn get_vault(env: &Env) -> Result<Address, RegistryError> {
    env.storage()
        .instance()
        .get(&VAULT)
        .ok_or(RegistryError::VaultNotSet)
}

pub fn get_operators(env: &Env) -> Vec<Address> {
    let key = OPERATORS;
    match env.storage().persistent().get(&key) {
        Some(list) => {
            extend_persistent(env, &key);
            list
        }
        None => Vec::new(env),
    }
}

pub fn set_operators(env: &Env, list: &Vec<Address>) {
    let key = OPERATORS;
    env.storage().persistent().set(&key, list);
    extend_persistent(env, &key);
}

pub fn has_keeper(env: &Env, operator: &Address) -> bool {
    env.storage().persistent().has(&(KEEPER, operator.clone()))
}

pub fn get_keeper(env: &Env, operator: &Address) -> Result<KeeperInfo, RegistryError> {
    let key = (KEEPER, operator.clone());
    let info = env
        .storage()
        .persistent()
        .get(&key)
        .ok_or(RegistryError::NotRegistered)?;
    extend_persistent(env, &key);
    Ok(info)
}

pub fn set_keeper(env: &Env, info: &KeeperInfo) {
    let key = (KEEPER, info.operator.clone());
    env.storage().persistent().set(&key, info);
    extend_persistent(env, &key);
}

pub fn remove_keeper(env: &Env, operator: &Address) {
    env.storage()
        .persistent()
        .remove(&(KEEPER, operator.clone()));
}

pub fn is_banned(env: &Env, operator: &Address) -> bool {
    env.storage().persistent().has(&(BANNED, operator.clone()))
}

pub fn set_banned(env: &Env, operator: &Address) {
    let key = (BANNED, operator.clone());
    env.storage().persistent().set(&key, &true);
    extend_persistent(env, &key);
}
