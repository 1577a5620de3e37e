//! Storage layout. Instance: admin, config, vault. Persistent: one entry per keeper, the list of
//! operators, and a ban marker per slashed operator.
use soroban_sdk::{contracttype, Address, Env, Vec};

use crate::errors::RegistryError;
use crate::types::{KeeperInfo, RegistryConfig};

pub const DAY_IN_LEDGERS: u32 = 17_280;
pub const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub const PERSISTENT_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub const PERSISTENT_TTL_THRESHOLD: u32 = PERSISTENT_EXTEND_AMOUNT - 2 * DAY_IN_LEDGERS;

#[contracttype]
#[derive(Clone)]
pub enum DataKey {
    Admin,
    Config,
    Vault,
    /// Vec<Address> of registered operators, in registration order.
    Operators,
    Keeper(Address),
    /// Present once the operator was slashed.
    Banned(Address),
}

pub fn extend_instance(env: &Env) {
    env.storage()
        .instance()
        .extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

fn extend_persistent(env: &Env, key: &DataKey) {
    env.storage()
        .persistent()
        .extend_ttl(key, PERSISTENT_TTL_THRESHOLD, PERSISTENT_EXTEND_AMOUNT);
}

pub fn set_admin(env: &Env, admin: &Address) {
    env.storage().instance().set(&DataKey::Admin, admin);
}

pub fn get_admin(env: &Env) -> Address {
    env.storage().instance().get(&DataKey::Admin).unwrap()
}

pub fn set_config(env: &Env, config: &RegistryConfig) {
    env.storage().instance().set(&DataKey::Config, config);
}

pub fn get_config(env: &Env) -> RegistryConfig {
    env.storage().instance().get(&DataKey::Config).unwrap()
}

pub fn has_vault(env: &Env) -> bool {
    env.storage().instance().has(&DataKey::Vault)
}

pub fn set_vault(env: &Env, vault: &Address) {
    env.storage().instance().set(&DataKey::Vault, vault);
}

pub fn get_vault(env: &Env) -> Result<Address, RegistryError> {
    env.storage()
        .instance()
        .get(&DataKey::Vault)
        .ok_or(RegistryError::VaultNotSet)
}

pub fn get_operators(env: &Env) -> Vec<Address> {
    let key = DataKey::Operators;
    match env.storage().persistent().get(&key) {
        Some(list) => {
            extend_persistent(env, &key);
            list
        }
        None => Vec::new(env),
    }
}

pub fn set_operators(env: &Env, list: &Vec<Address>) {
    let key = DataKey::Operators;
    env.storage().persistent().set(&key, list);
    extend_persistent(env, &key);
}

pub fn has_keeper(env: &Env, operator: &Address) -> bool {
    env.storage()
        .persistent()
        .has(&DataKey::Keeper(operator.clone()))
}

pub fn get_keeper(env: &Env, operator: &Address) -> Result<KeeperInfo, RegistryError> {
    let key = DataKey::Keeper(operator.clone());
    let info = env
        .storage()
        .persistent()
        .get(&key)
        .ok_or(RegistryError::NotRegistered)?;
    extend_persistent(env, &key);
    Ok(info)
}

pub fn set_keeper(env: &Env, info: &KeeperInfo) {
    let key = DataKey::Keeper(info.operator.clone());
    env.storage().persistent().set(&key, info);
    extend_persistent(env, &key);
}

pub fn remove_keeper(env: &Env, operator: &Address) {
    env.storage()
        .persistent()
        .remove(&DataKey::Keeper(operator.clone()));
}

pub fn is_banned(env: &Env, operator: &Address) -> bool {
    env.storage()
        .persistent()
        .has(&DataKey::Banned(operator.clone()))
}

pub fn set_banned(env: &Env, operator: &Address) {
    let key = DataKey::Banned(operator.clone());
    env.storage().persistent().set(&key, &true);
    extend_persistent(env, &key);
}
