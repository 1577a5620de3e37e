//! Keeper side: draw pool capital, return it with the proceeds, and the slash write-down.
use soroban_sdk::{Address, Env};

use crate::errors::VaultError;
use crate::registry;
use crate::storage;

/// Lends `amount` of idle USDC to a registered, unslashed keeper without an outstanding draw.
/// The registry is asked first: an unregistered keeper makes get_keeper fail with the
/// registry's NotRegistered (202), which reverts the whole draw.
pub fn execute_draw(env: &Env, keeper: &Address, amount: i128) -> Result<(), VaultError> {
    let registry = storage::get_registry(env)?;
    if storage::get_pause(env).draws {
        return Err(VaultError::DrawsPaused);
    }
    if registry::is_slashed(env, &registry, keeper) {
        return Err(VaultError::KeeperSlashed);
    }
    if amount <= 0 {
        return Err(VaultError::InvalidAmount);
    }
    if storage::get_draw(env, keeper).is_some() {
        return Err(VaultError::DrawOutstanding);
    }
    if amount > storage::get_config(env).max_draw_per_keeper {
        return Err(VaultError::DrawCapExceeded);
    }
    let mut state = storage::get_state(env);
    if amount > state.total_usdc - state.active_liq {
        return Err(VaultError::InsufficientLiquidity);
    }
    state.active_liq += amount;
    storage::set_state(env, &state);
    storage::set_draw(env, keeper, &amount);

    let vault = env.current_contract_address();
    storage::transfer_usdc(env, &vault, keeper, amount);
    registry::mark_draw(env, &registry, &vault, keeper, amount);
    Ok(())
}

/// Takes `amount` USDC back from the keeper that drew.
///
/// - amount >= outstanding: the draw closes; profit = amount - outstanding goes into
///   total_usdc and total_profit; the registry clears the draw and records the execution with
///   the profit and response time, as a successful fill only when it booked profit (a keeper
///   that lost the race for an auction returns its draw unchanged: an execution, not a fill).
/// - amount < outstanding: a partial return; the outstanding amount goes down, the draw keeps
///   its original timestamp (the slash clock does not restart) and no profit is booked.
///
/// A keeper covers its own execution losses: the pool only loses capital through a slash.
/// Returns (profit, remaining outstanding).
pub fn execute_return(
    env: &Env,
    keeper: &Address,
    amount: i128,
    response_time_ms: u64,
) -> Result<(i128, i128), VaultError> {
    let registry = storage::get_registry(env)?;
    if amount <= 0 {
        return Err(VaultError::InvalidAmount);
    }
    let mut outstanding = storage::get_draw(env, keeper).ok_or(VaultError::NoActiveDraw)?;
    let mut state = storage::get_state(env);
    // Principal repaid is capped at this keeper's own draw; the rest is profit.
    let principal = amount.min(outstanding);
    let profit = amount - principal;
    state.active_liq -= principal;
    state.total_usdc = state
        .total_usdc
        .checked_add(profit)
        .ok_or(VaultError::Overflow)?;
    state.total_profit = state
        .total_profit
        .checked_add(profit)
        .ok_or(VaultError::Overflow)?;
    outstanding -= principal;
    storage::set_state(env, &state);
    storage::set_draw(env, keeper, &outstanding);

    let vault = env.current_contract_address();
    storage::transfer_usdc(env, keeper, &vault, amount);
    if outstanding == 0 {
        registry::clear_draw(env, &registry, &vault, keeper);
        registry::record_execution(
            env,
            &registry,
            &vault,
            keeper,
            profit > 0,
            profit,
            response_time_ms,
        );
    } else {
        registry::mark_draw(env, &registry, &vault, keeper, outstanding);
    }
    Ok((profit, outstanding))
}

/// Called by the registry inside `slash`, after it has sent `recovered` (the slashed stake) to
/// the vault: the outstanding draw is lost to the pool, so
/// active_liq -= outstanding; total_usdc = total_usdc - outstanding + recovered.
/// Returns the amount written down.
pub fn execute_write_off(
    env: &Env,
    registry: &Address,
    keeper: &Address,
    recovered: i128,
) -> Result<i128, VaultError> {
    if *registry != storage::get_registry(env)? {
        return Err(VaultError::Unauthorized);
    }
    registry.require_auth();
    if recovered < 0 {
        return Err(VaultError::InvalidAmount);
    }
    let outstanding = storage::get_draw(env, keeper).ok_or(VaultError::NoActiveDraw)?;
    let mut state = storage::get_state(env);
    state.active_liq -= outstanding;
    state.total_usdc = (state.total_usdc - outstanding)
        .checked_add(recovered)
        .ok_or(VaultError::Overflow)?;
    storage::set_state(env, &state);
    storage::clear_draw(env, keeper);
    Ok(outstanding)
}
