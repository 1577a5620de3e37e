//! Registration, deregistration and listing of keepers.
//!
//! Keepers occupy slots 0..count: ("slot", n) holds the record, ("pos", operator) the slot.
//! Deregistering swap-removes: the record of the last slot moves into the hole, so every call
//! touches a fixed number of entries however many keepers there are.
use soroban_sdk::{Address, Env, String, TryFromVal, Val, Vec};

use crate::bond;
use crate::errors::RegistryError;
use crate::storage;
use crate::types::KeeperInfo;

const MAX_NAME_LEN: u32 = 64;
pub const MAX_PAGE: u32 = 200;

/// Creates the keeper record in the next slot and pulls exactly `min_stake` USDC from the
/// operator. A short balance makes the token transfer fail, which reverts the whole call.
pub fn execute_register(
    env: &Env,
    operator: &Address,
    name: String,
) -> Result<KeeperInfo, RegistryError> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(RegistryError::InvalidName);
    }
    if storage::is_banned(env, operator) {
        return Err(RegistryError::KeeperBanned);
    }
    if storage::get_pos(env, operator).is_some() {
        return Err(RegistryError::AlreadyRegistered);
    }
    let config = storage::get_config(env);
    let info = KeeperInfo {
        operator: operator.clone(),
        name,
        stake: config.min_stake,
        total_executions: 0,
        successful_fills: 0,
        total_profit: 0,
        avg_response_time_ms: 0,
        has_active_draw: false,
        draw_amount: 0,
        draw_timestamp: 0,
        registered_at: env.ledger().timestamp(),
        slashed: false,
        slash_count: 0,
        total_slashed: 0,
        approved: storage::is_executor(env, operator),
        draw_limit: bond::draw_limit(env, &config, config.min_stake),
    };
    let slot = storage::get_count(env);
    storage::set_slot(env, slot, &info);
    storage::set_pos(env, operator, slot);
    storage::set_count(env, slot.checked_add(1).ok_or(RegistryError::Overflow)?);

    storage::transfer(
        env,
        &config.usdc_token,
        operator,
        &env.current_contract_address(),
        config.min_stake,
    );
    Ok(info)
}

/// Removes the keeper and refunds its remaining stake. Refused while a draw is outstanding, so
/// a keeper cannot walk away from capital it holds. A slashed keeper leaves a ban marker.
pub fn execute_deregister(env: &Env, operator: &Address) -> Result<i128, RegistryError> {
    let (slot, info) = storage::find_keeper(env, operator)?;
    if info.has_active_draw {
        return Err(RegistryError::DrawOutstanding);
    }
    // Swap-remove: the last slot moves into this one.
    let last = storage::get_count(env) - 1;
    if slot != last {
        let moved = storage::get_slot(env, last);
        storage::set_pos(env, &moved.operator, slot);
        storage::set_slot(env, slot, &moved);
    }
    storage::remove_slot(env, last);
    storage::remove_pos(env, operator);
    storage::set_count(env, last);
    if info.slashed {
        // The ban outlives the record. Written here rather than in slash, so the keeper that
        // leaves pays for the entry, not whoever called slash.
        storage::set_banned(env, operator);
    }

    if info.stake > 0 {
        let config = storage::get_config(env);
        storage::transfer(
            env,
            &config.usdc_token,
            &env.current_contract_address(),
            operator,
            info.stake,
        );
    }
    Ok(info.stake)
}

/// The records of slots [start, min(start + limit, count)).
pub fn list_keepers(env: &Env, start: u32, limit: u32) -> Result<Vec<KeeperInfo>, RegistryError> {
    if limit == 0 || limit > MAX_PAGE {
        return Err(RegistryError::InvalidPageSize);
    }
    let count = storage::get_count(env);
    if start > count {
        return Err(RegistryError::PageOutOfRange);
    }
    let end = start.saturating_add(limit).min(count);
    // The records are passed on as stored (KeeperInfo maps): decoding and re-encoding 16
    // fields per keeper would cost several times the rest of the call.
    let mut out: Vec<Val> = Vec::new(env);
    for slot in start..end {
        out.push_back(storage::get_slot_raw(env, slot));
    }
    Ok(Vec::try_from_val(env, out.as_val()).unwrap())
}
