//! The part of the registry's interface the vault calls (see contracts/registry).
use soroban_sdk::{contractclient, symbol_short, Address, Env, Map, Symbol, TryFromVal, Val};

#[allow(dead_code)]
#[contractclient(name = "RegistryClient")]
pub trait RegistryInterface {
    // Returns registry::KeeperInfo; the vault reads it as the map it is encoded as, so it
    // needs no copy of the struct (and does not break when the registry adds fields).
    fn get_keeper(env: Env, operator: Address) -> Map<Symbol, Val>;
    fn mark_draw(env: Env, vault: Address, keeper: Address, amount: i128);
    fn clear_draw(env: Env, vault: Address, keeper: Address);
    fn record_execution(
        env: Env,
        vault: Address,
        keeper: Address,
        success: bool,
        profit: i128,
        response_time_ms: u64,
    );
}

/// Asks the registry about `keeper` (its NotRegistered error reverts the caller) and returns
/// the `slashed` flag; a record without a readable flag counts as slashed (fail closed).
pub fn is_slashed(env: &Env, registry: &RegistryClient, keeper: &Address) -> bool {
    registry
        .get_keeper(keeper)
        .get(symbol_short!("slashed"))
        .is_none_or(|v| bool::try_from_val(env, &v).unwrap_or(true))
}
