//! The part of the registry's interface the vault calls (see contracts/registry):
//!
//! - `get_keeper(operator: Address) -> KeeperInfo` (its `slashed` and `approved` fields)
//! - `mark_draw(vault: Address, keeper: Address, amount: i128)`
//! - `clear_draw(vault: Address, keeper: Address)`
//! - `record_execution(vault: Address, keeper: Address, success: bool, profit: i128,
//!   response_time_ms: u64)`
//!
//! Called with `invoke_contract` rather than a generated client: the client builds the names
//! longer than 9 characters (`get_keeper`, `clear_draw`, `record_execution`) with the
//! contract-side symbol encoder (~500 bytes of wasm); here the host makes those symbols.
use soroban_sdk::{
    symbol_short, vec, Address, Env, EnvBase, IntoVal, Map, Symbol, TryFromVal, Val,
};

/// A symbol made by the host (for names longer than the 9 characters of a small symbol).
fn host_symbol(env: &Env, name: &[u8]) -> Symbol {
    let obj = env.symbol_new_from_slice(name).unwrap();
    Symbol::try_from_val(env, &obj.to_val()).unwrap()
}

/// What the vault needs of a keeper's registry record.
pub struct KeeperFlags {
    pub slashed: bool,
    /// An executor the registry deployed from its approved wasm (flash draws need it).
    pub approved: bool,
}

/// Asks the registry about `keeper` (its NotRegistered error reverts the caller) and returns
/// its `slashed` and `approved` flags. A record without a readable flag fails closed: counted
/// as slashed and as not approved.
///
/// The registry returns its `KeeperInfo`; the vault reads it as the map it is encoded as, so
/// it needs no copy of the struct (and does not break when the registry adds fields).
pub fn keeper_flags(env: &Env, registry: &Address, keeper: &Address) -> KeeperFlags {
    let info: Map<Symbol, Val> = env.invoke_contract(
        registry,
        &host_symbol(env, b"get_keeper"),
        vec![env, keeper.to_val()],
    );
    let flag = |name: Symbol, missing: bool| {
        info.get(name)
            .map_or(missing, |v| bool::try_from_val(env, &v).unwrap_or(missing))
    };
    KeeperFlags {
        slashed: flag(symbol_short!("slashed"), true),
        approved: flag(symbol_short!("approved"), false),
    }
}

pub fn mark_draw(env: &Env, registry: &Address, vault: &Address, keeper: &Address, amount: i128) {
    env.invoke_contract::<()>(
        registry,
        &symbol_short!("mark_draw"),
        vec![env, vault.to_val(), keeper.to_val(), amount.into_val(env)],
    );
}

pub fn clear_draw(env: &Env, registry: &Address, vault: &Address, keeper: &Address) {
    env.invoke_contract::<()>(
        registry,
        &host_symbol(env, b"clear_draw"),
        vec![env, vault.to_val(), keeper.to_val()],
    );
}

pub fn record_execution(
    env: &Env,
    registry: &Address,
    vault: &Address,
    keeper: &Address,
    success: bool,
    profit: i128,
    response_time_ms: u64,
) {
    env.invoke_contract::<()>(
        registry,
        &host_symbol(env, b"record_execution"),
        vec![
            env,
            vault.to_val(),
            keeper.to_val(),
            success.into(),
            profit.into_val(env),
            response_time_ms.into_val(env),
        ],
    );
}
