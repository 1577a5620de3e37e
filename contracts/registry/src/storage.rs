//! Storage layout. Instance: admin, config, vault, the keeper count and the venue list.
//! Persistent: one record per keeper slot, the slot of each operator, a ban marker per slashed
//! operator and a marker per executor this registry deployed.
use soroban_sdk::{symbol_short, vec, Address, Env, IntoVal, Symbol, TryFromVal, Val, Vec};

use crate::errors::RegistryError;
use crate::types::{KeeperInfo, RegistryConfig};

pub const DAY_IN_LEDGERS: u32 = 17_280;
pub const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;
pub const PERSISTENT_EXTEND_AMOUNT: u32 = 60 * DAY_IN_LEDGERS;
pub const PERSISTENT_TTL_THRESHOLD: u32 = PERSISTENT_EXTEND_AMOUNT - 2 * DAY_IN_LEDGERS;

// Instance keys are short symbols; persistent keys are (symbol, address) or (symbol, u32)
// pairs. Plain symbols and tuples keep the key encoding out of the wasm.
const ADMIN: Symbol = symbol_short!("admin");
const CONFIG: Symbol = symbol_short!("config");
const VAULT: Symbol = symbol_short!("vault");
// u32: registered keepers, which occupy slots 0..count (instance).
const COUNT: Symbol = symbol_short!("count");
// Vec<Address>: pools and routers an approved executor may use (instance).
const VENUES: Symbol = symbol_short!("venues");
// ("slot", n) -> KeeperInfo: the record of the keeper in slot n. The record itself lives in
// the slot (not an address pointing at a second entry), so a page of n keepers reads n
// entries.
const SLOT: Symbol = symbol_short!("slot");
// ("pos", operator) -> u32: the operator's slot.
const POS: Symbol = symbol_short!("pos");
// Present once the operator was slashed and left.
const BANNED: Symbol = symbol_short!("banned");
// ("exec", address) -> true: an executor deploy_executor deployed.
const EXEC: Symbol = symbol_short!("exec");

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

pub fn get_count(env: &Env) -> u32 {
    env.storage().instance().get(&COUNT).unwrap_or(0)
}

pub fn set_count(env: &Env, count: u32) {
    env.storage().instance().set(&COUNT, &count);
}

pub fn get_venues(env: &Env) -> Vec<Address> {
    env.storage()
        .instance()
        .get(&VENUES)
        .unwrap_or_else(|| Vec::new(env))
}

pub fn set_venues(env: &Env, venues: &Vec<Address>) {
    env.storage().instance().set(&VENUES, venues);
}

fn get_persistent<K: IntoVal<Env, Val>, V: TryFromVal<Env, Val>>(env: &Env, key: &K) -> Option<V> {
    let v = env.storage().persistent().get(key);
    if v.is_some() {
        extend_persistent(env, key);
    }
    v
}

fn set_persistent<K: IntoVal<Env, Val>, V: IntoVal<Env, Val>>(env: &Env, key: &K, value: &V) {
    env.storage().persistent().set(key, value);
    extend_persistent(env, key);
}

/// The slot of `operator`, if registered.
pub fn get_pos(env: &Env, operator: &Address) -> Option<u32> {
    get_persistent(env, &(POS, operator.clone()))
}

pub fn set_pos(env: &Env, operator: &Address, slot: u32) {
    set_persistent(env, &(POS, operator.clone()), &slot);
}

pub fn remove_pos(env: &Env, operator: &Address) {
    env.storage().persistent().remove(&(POS, operator.clone()));
}

/// The record in `slot` (which must be below the count) as stored: a KeeperInfo map, not
/// decoded.
pub fn get_slot_raw(env: &Env, slot: u32) -> Val {
    get_persistent(env, &(SLOT, slot)).unwrap()
}

pub fn get_slot(env: &Env, slot: u32) -> KeeperInfo {
    KeeperInfo::try_from_val(env, &get_slot_raw(env, slot)).unwrap()
}

pub fn set_slot(env: &Env, slot: u32, info: &KeeperInfo) {
    set_persistent(env, &(SLOT, slot), info);
}

pub fn remove_slot(env: &Env, slot: u32) {
    env.storage().persistent().remove(&(SLOT, slot));
}

/// The operator's slot and record.
pub fn find_keeper(env: &Env, operator: &Address) -> Result<(u32, KeeperInfo), RegistryError> {
    let slot = get_pos(env, operator).ok_or(RegistryError::NotRegistered)?;
    Ok((slot, get_slot(env, slot)))
}

pub fn get_keeper(env: &Env, operator: &Address) -> Result<KeeperInfo, RegistryError> {
    Ok(find_keeper(env, operator)?.1)
}

pub fn is_banned(env: &Env, operator: &Address) -> bool {
    get_persistent(env, &(BANNED, operator.clone())).unwrap_or(false)
}

pub fn set_banned(env: &Env, operator: &Address) {
    set_persistent(env, &(BANNED, operator.clone()), &true);
}

pub fn is_executor(env: &Env, address: &Address) -> bool {
    get_persistent(env, &(EXEC, address.clone())).unwrap_or(false)
}

pub fn set_executor(env: &Env, address: &Address) {
    set_persistent(env, &(EXEC, address.clone()), &true);
}
