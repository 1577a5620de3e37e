//! Storage layout. Instance: admin, USDC token, config, registry, books, pause flags.
//! Persistent: one record per depositor and one per outstanding keeper draw.
use soroban_sdk::{symbol_short, vec, Address, Env, IntoVal, Symbol};

use crate::errors::VaultError;
use crate::types::{DepositorInfo, PauseFlags, VaultConfig, VaultState};

pub const DAY_IN_LEDGERS: u32 = 17_280;
pub const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub const PERSISTENT_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub const PERSISTENT_TTL_THRESHOLD: u32 = PERSISTENT_EXTEND_AMOUNT - 2 * DAY_IN_LEDGERS;

// Instance keys are short symbols; persistent keys are (symbol, address) pairs. Plain symbols
// and tuples keep the key encoding out of the wasm (an enum key type costs ~1 KB of code).
const ADMIN: Symbol = symbol_short!("admin");
const USDC: Symbol = symbol_short!("usdc");
const CONFIG: Symbol = symbol_short!("config");
const REGISTRY: Symbol = symbol_short!("registry");
const STATE: Symbol = symbol_short!("state");
const PAUSE: Symbol = symbol_short!("pause");
const DEPOSITOR: Symbol = symbol_short!("dep");
const DRAW: Symbol = symbol_short!("draw");

type PersistentKey = (Symbol, Address);

pub fn extend_instance(env: &Env) {
    env.storage()
        .instance()
        .extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}

fn extend_persistent(env: &Env, key: &PersistentKey) {
    env.storage()
        .persistent()
        .extend_ttl(key, PERSISTENT_TTL_THRESHOLD, PERSISTENT_EXTEND_AMOUNT);
}

pub fn set_admin(env: &Env, admin: &Address) {
    env.storage().instance().set(&ADMIN, admin);
}

pub fn get_admin(env: &Env) -> Address {
    env.storage().instance().get(&ADMIN).unwrap()
}

pub fn set_usdc(env: &Env, usdc: &Address) {
    env.storage().instance().set(&USDC, usdc);
}

pub fn get_usdc(env: &Env) -> Address {
    env.storage().instance().get(&USDC).unwrap()
}

// USDC `transfer(from, to, amount)` (SEP-41). Called directly rather than through the SDK's
// token client, whose `to: MuxedAddress` conversion adds ~300 bytes of wasm; the arguments
// are the same values.
pub fn transfer_usdc(env: &Env, from: &Address, to: &Address, amount: i128) {
    env.invoke_contract::<()>(
        &get_usdc(env),
        &symbol_short!("transfer"),
        vec![env, from.to_val(), to.to_val(), amount.into_val(env)],
    );
}

pub fn set_config(env: &Env, config: &VaultConfig) {
    env.storage().instance().set(&CONFIG, config);
}

pub fn get_config(env: &Env) -> VaultConfig {
    env.storage().instance().get(&CONFIG).unwrap()
}

pub fn has_registry(env: &Env) -> bool {
    env.storage().instance().has(&REGISTRY)
}

pub fn set_registry(env: &Env, registry: &Address) {
    env.storage().instance().set(&REGISTRY, registry);
}

// The registry, or NotInit before `set_registry`: no pool operation runs without it.
pub fn get_registry(env: &Env) -> Result<Address, VaultError> {
    env.storage()
        .instance()
        .get(&REGISTRY)
        .ok_or(VaultError::NotInit)
}

pub fn get_state(env: &Env) -> VaultState {
    env.storage().instance().get(&STATE).unwrap_or_default()
}

pub fn set_state(env: &Env, state: &VaultState) {
    env.storage().instance().set(&STATE, state);
}

// Pause flags are stored as bits (1 = deposits, 2 = draws).
pub fn get_pause(env: &Env) -> PauseFlags {
    let bits: u32 = env.storage().instance().get(&PAUSE).unwrap_or(0);
    PauseFlags {
        deposits: bits & 1 != 0,
        draws: bits & 2 != 0,
    }
}

pub fn set_pause(env: &Env, flags: &PauseFlags) {
    let bits = flags.deposits as u32 | (flags.draws as u32) << 1;
    env.storage().instance().set(&PAUSE, &bits);
}

pub fn get_depositor(env: &Env, depositor: &Address) -> DepositorInfo {
    let key = (DEPOSITOR, depositor.clone());
    match env.storage().persistent().get(&key) {
        Some(info) => {
            extend_persistent(env, &key);
            info
        }
        None => DepositorInfo::default(),
    }
}

pub fn set_depositor(env: &Env, depositor: &Address, info: &DepositorInfo) {
    let key = (DEPOSITOR, depositor.clone());
    env.storage().persistent().set(&key, info);
    extend_persistent(env, &key);
}

// A keeper's outstanding draw (capital still out). Its start time lives in the registry's
// keeper record (draw_timestamp), which is what the slash timeout reads.
// A closed draw is stored as 0 rather than removed: the keeper's next draw then updates an
// existing entry instead of creating one, which would pay 60 days of rent again.
pub fn get_draw(env: &Env, keeper: &Address) -> Option<i128> {
    let key = (DRAW, keeper.clone());
    let draw: i128 = env.storage().persistent().get(&key)?;
    extend_persistent(env, &key);
    if draw > 0 {
        Some(draw)
    } else {
        None
    }
}

pub fn set_draw(env: &Env, keeper: &Address, draw: &i128) {
    let key = (DRAW, keeper.clone());
    env.storage().persistent().set(&key, draw);
    extend_persistent(env, &key);
}

pub fn clear_draw(env: &Env, keeper: &Address) {
    set_draw(env, keeper, &0);
}
