//! Vault-only bookkeeping: draw marks and execution statistics.
use soroban_sdk::{Address, Env};

use crate::errors::RegistryError;
use crate::storage;
use crate::types::KeeperInfo;

/// Only the stored vault, passing its own address, may call the vault-only entry points.
pub fn require_vault(env: &Env, vault: &Address) -> Result<(), RegistryError> {
    let stored = storage::get_vault(env)?;
    if stored != *vault {
        return Err(RegistryError::Unauthorized);
    }
    vault.require_auth();
    Ok(())
}

/// Marks a draw. On a keeper without an active draw the timestamp is now and the amount may be
/// at most the keeper's draw_limit (the part of its stake a slash leaves after the penalty);
/// on an active draw the amount may only go down (a partial return) and the original timestamp
/// is kept, so a partial return never restarts the slash clock.
pub fn execute_mark_draw(
    env: &Env,
    keeper: &Address,
    amount: i128,
) -> Result<KeeperInfo, RegistryError> {
    if amount <= 0 {
        return Err(RegistryError::InvalidAmount);
    }
    let (slot, mut info) = storage::find_keeper(env, keeper)?;
    if info.slashed {
        return Err(RegistryError::KeeperBanned);
    }
    if info.has_active_draw {
        if amount >= info.draw_amount {
            return Err(RegistryError::DrawOutstanding);
        }
    } else {
        if amount > info.draw_limit {
            return Err(RegistryError::BondTooSmall);
        }
        info.has_active_draw = true;
        info.draw_timestamp = env.ledger().timestamp();
    }
    info.draw_amount = amount;
    storage::set_slot(env, slot, &info);
    Ok(info)
}

pub fn execute_clear_draw(env: &Env, keeper: &Address) -> Result<(), RegistryError> {
    let (slot, mut info) = storage::find_keeper(env, keeper)?;
    if !info.has_active_draw {
        return Err(RegistryError::NoActiveDraw);
    }
    info.has_active_draw = false;
    info.draw_amount = 0;
    info.draw_timestamp = 0;
    storage::set_slot(env, slot, &info);
    Ok(())
}

/// Counts one execution. avg_response_time_ms is the running mean over all executions:
/// avg' = floor((avg * (n - 1) + response_time_ms) / n) with n the new execution count.
pub fn execute_record(
    env: &Env,
    keeper: &Address,
    success: bool,
    profit: i128,
    response_time_ms: u64,
) -> Result<(), RegistryError> {
    if profit < 0 {
        return Err(RegistryError::InvalidAmount);
    }
    let (slot, mut info) = storage::find_keeper(env, keeper)?;
    count_execution(&mut info, success, profit, response_time_ms)?;
    storage::set_slot(env, slot, &info);
    Ok(())
}

pub fn count_execution(
    info: &mut KeeperInfo,
    success: bool,
    profit: i128,
    response_time_ms: u64,
) -> Result<(), RegistryError> {
    let n = info
        .total_executions
        .checked_add(1)
        .ok_or(RegistryError::Overflow)?;
    // u64 arithmetic (native wasm division); saturates only beyond 584 million years of ms.
    let sum = info
        .avg_response_time_ms
        .saturating_mul(n - 1)
        .saturating_add(response_time_ms);
    info.avg_response_time_ms = sum / n;
    info.total_executions = n;
    if success {
        info.successful_fills = info
            .successful_fills
            .checked_add(1)
            .ok_or(RegistryError::Overflow)?;
    }
    info.total_profit = info
        .total_profit
        .checked_add(profit)
        .ok_or(RegistryError::Overflow)?;
    Ok(())
}
