//! Storage layout. Instance: admin, USDC token, config, registry, books, pause flags.
//! Persistent: one record per depositor and one per outstanding keeper draw.
use soroban_sdk::{contracttype, Address, Env};

use crate::errors::VaultError;
use crate::types::{DepositorInfo, PauseFlags, VaultConfig, VaultState};

pub const DAY_IN_LEDGERS: u32 = 17_280;
pub const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub const PERSISTENT_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub const PERSISTENT_TTL_THRESHOLD: u32 = PERSISTENT_EXTEND_AMOUNT - 2 * DAY_IN_LEDGERS;

#[contracttype]
#[derive(Clone)]
pub enum DataKey {
    Admin,
    Usdc,
    Config,
    Registry,
    State,
    Pause,
    Depositor(Address),
    Draw(Address),
}

/// A keeper's outstanding draw.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct DrawRecord {
    /// Capital still out (lowered by partial returns).
    pub amount: i128,
    /// Ledger timestamp of the draw; partial returns keep it.
    pub timestamp: u64,
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

pub fn set_usdc(env: &Env, usdc: &Address) {
    env.storage().instance().set(&DataKey::Usdc, usdc);
}

pub fn get_usdc(env: &Env) -> Address {
    env.storage().instance().get(&DataKey::Usdc).unwrap()
}

pub fn set_config(env: &Env, config: &VaultConfig) {
    env.storage().instance().set(&DataKey::Config, config);
}

pub fn get_config(env: &Env) -> VaultConfig {
    env.storage().instance().get(&DataKey::Config).unwrap()
}

pub fn has_registry(env: &Env) -> bool {
    env.storage().instance().has(&DataKey::Registry)
}

pub fn set_registry(env: &Env, registry: &Address) {
    env.storage().instance().set(&DataKey::Registry, registry);
}

/// The registry, or NotInit before `set_registry`: no pool operation runs without it.
pub fn get_registry(env: &Env) -> Result<Address, VaultError> {
    env.storage()
        .instance()
        .get(&DataKey::Registry)
        .ok_or(VaultError::NotInit)
}

pub fn get_state(env: &Env) -> VaultState {
    env.storage()
        .instance()
        .get(&DataKey::State)
        .unwrap_or_default()
}

pub fn set_state(env: &Env, state: &VaultState) {
    env.storage().instance().set(&DataKey::State, state);
}

pub fn get_pause(env: &Env) -> PauseFlags {
    env.storage()
        .instance()
        .get(&DataKey::Pause)
        .unwrap_or_default()
}

pub fn set_pause(env: &Env, flags: &PauseFlags) {
    env.storage().instance().set(&DataKey::Pause, flags);
}

pub fn get_depositor(env: &Env, depositor: &Address) -> DepositorInfo {
    let key = DataKey::Depositor(depositor.clone());
    match env.storage().persistent().get(&key) {
        Some(info) => {
            extend_persistent(env, &key);
            info
        }
        None => DepositorInfo::default(),
    }
}

pub fn set_depositor(env: &Env, depositor: &Address, info: &DepositorInfo) {
    let key = DataKey::Depositor(depositor.clone());
    env.storage().persistent().set(&key, info);
    extend_persistent(env, &key);
}

pub fn get_draw(env: &Env, keeper: &Address) -> Option<DrawRecord> {
    let key = DataKey::Draw(keeper.clone());
    let draw = env.storage().persistent().get(&key);
    if draw.is_some() {
        extend_persistent(env, &key);
    }
    draw
}

pub fn set_draw(env: &Env, keeper: &Address, draw: &DrawRecord) {
    let key = DataKey::Draw(keeper.clone());
    env.storage().persistent().set(&key, draw);
    extend_persistent(env, &key);
}

pub fn remove_draw(env: &Env, keeper: &Address) {
    env.storage()
        .persistent()
        .remove(&DataKey::Draw(keeper.clone()));
}
