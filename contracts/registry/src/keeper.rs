//! Registration and deregistration of keepers.
use soroban_sdk::{Address, Env, String, Vec};

use crate::errors::RegistryError;
use crate::storage;
use crate::types::KeeperInfo;

const MAX_NAME_LEN: u32 = 64;

/// Creates the keeper record and pulls exactly `min_stake` USDC from the operator. A short
/// balance makes the token transfer fail, which reverts the whole call.
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
    if storage::has_keeper(env, operator) {
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
    };
    storage::set_keeper(env, &info);
    let mut operators = storage::get_operators(env);
    operators.push_back(operator.clone());
    storage::set_operators(env, &operators);

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
    let info = storage::get_keeper(env, operator)?;
    if info.has_active_draw {
        return Err(RegistryError::DrawOutstanding);
    }
    storage::remove_keeper(env, operator);
    if info.slashed {
        // The ban outlives the record. Written here rather than in slash, so the keeper that
        // leaves pays for the entry, not whoever called slash.
        storage::set_banned(env, operator);
    }
    let operators = storage::get_operators(env);
    let mut kept = Vec::new(env);
    for a in operators.iter() {
        if a != *operator {
            kept.push_back(a);
        }
    }
    storage::set_operators(env, &kept);

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

pub fn list_keepers(env: &Env) -> Vec<KeeperInfo> {
    let mut out = Vec::new(env);
    for operator in storage::get_operators(env).iter() {
        if let Ok(info) = storage::get_keeper(env, &operator) {
            out.push_back(info);
        }
    }
    out
}
