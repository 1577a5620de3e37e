//! Keeper side, two-step: draw pool capital, return it with the proceeds, and the slash
//! write-down. (The one-transaction path is flash.rs.)
use soroban_sdk::{Address, Env};

use crate::errors::VaultError;
use crate::registry::{self, KeeperFlags};
use crate::storage;
use crate::types::{VaultConfig, VaultState};
use crate::{share_math, unlock};

/// The checks every draw makes, flash or two-step: registry set, draws not paused, the keeper
/// registered (get_keeper fails with the registry's NotRegistered, 202) and not slashed,
/// 0 < amount <= max_draw_per_keeper and <= idle USDC. Returns the registry, the keeper's flags,
/// the config and the books.
pub fn check_draw(
    env: &Env,
    keeper: &Address,
    amount: i128,
) -> Result<(Address, KeeperFlags, VaultConfig, VaultState), VaultError> {
    let registry = storage::get_registry(env)?;
    if storage::get_pause(env).draws {
        return Err(VaultError::DrawsPaused);
    }
    let flags = registry::keeper_flags(env, &registry, keeper);
    if flags.slashed {
        return Err(VaultError::KeeperSlashed);
    }
    if amount <= 0 {
        return Err(VaultError::InvalidAmount);
    }
    let config = storage::get_config(env);
    if amount > config.max_draw_per_keeper {
        return Err(VaultError::DrawCapExceeded);
    }
    let state = storage::get_state(env);
    if amount > state.total_usdc - state.active_liq {
        return Err(VaultError::InsufficientLiquidity);
    }
    Ok((registry, flags, config, state))
}

/// Pays the keeper its share of a gross profit and books the rest for the depositors (locked,
/// unlocking over profit_unlock_secs). Returns (booked profit, fee). The caller transfers
/// nothing itself: the fee leaves here.
pub fn settle_profit(
    env: &Env,
    state: &mut VaultState,
    config: &VaultConfig,
    keeper: &Address,
    gross: i128,
) -> Result<(i128, i128), VaultError> {
    let fee = unlock::keeper_fee(env, gross, config.keeper_fee_bps)?;
    let profit = gross - fee;
    unlock::book_profit(
        env,
        state,
        profit,
        env.ledger().timestamp(),
        config.profit_unlock_secs,
    )?;
    if fee > 0 {
        storage::transfer_usdc(env, &env.current_contract_address(), keeper, fee);
    }
    Ok((profit, fee))
}

/// Lends `amount` of idle USDC to a registered, unslashed keeper without an outstanding draw,
/// outside any transaction's control: the registry refuses a draw above the keeper's bond
/// (BondTooSmall), and the draw may not take the idle USDC that pending withdrawal requests
/// need (WithdrawalPending).
pub fn execute_draw(env: &Env, keeper: &Address, amount: i128) -> Result<(), VaultError> {
    let (registry, _, _, mut state) = check_draw(env, keeper, amount)?;
    if storage::get_draw(env, keeper).is_some() {
        return Err(VaultError::DrawOutstanding);
    }
    if state.pending_shares > 0 {
        let free = unlock::free_assets(env, &state, env.ledger().timestamp())?;
        let owed =
            share_math::usdc_for_shares(env, state.pending_shares, free, state.total_shares)?;
        if state.total_usdc - state.active_liq - amount < owed {
            return Err(VaultError::WithdrawalPending);
        }
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
/// - amount >= outstanding: the draw closes; gross profit = amount - outstanding, of which the
///   keeper is paid keeper_fee_bps and the rest is booked (locked, see unlock.rs); the registry clears the draw and records the execution with
///   the profit and response time, as a successful fill only when it booked profit (a keeper
///   that lost the race for an auction returns its draw unchanged: an execution, not a fill).
/// - amount < outstanding: a partial return; the outstanding amount goes down, the draw keeps
///   its original timestamp (the slash clock does not restart) and no profit is booked.
///
/// A keeper covers its own execution losses: the pool only loses capital through a slash.
/// Returns (booked profit, remaining outstanding, keeper fee).
pub fn execute_return(
    env: &Env,
    keeper: &Address,
    amount: i128,
    response_time_ms: u64,
) -> Result<(i128, i128, i128), VaultError> {
    let registry = storage::get_registry(env)?;
    if amount <= 0 {
        return Err(VaultError::InvalidAmount);
    }
    let mut outstanding = storage::get_draw(env, keeper).ok_or(VaultError::NoActiveDraw)?;
    let mut state = storage::get_state(env);
    // Principal repaid is capped at this keeper's own draw; the rest is profit.
    let principal = amount.min(outstanding);
    state.active_liq -= principal;
    outstanding -= principal;
    let vault = env.current_contract_address();
    storage::transfer_usdc(env, keeper, &vault, amount);
    let config = storage::get_config(env);
    let (profit, fee) = settle_profit(env, &mut state, &config, keeper, amount - principal)?;
    storage::set_state(env, &state);
    storage::set_draw(env, keeper, &outstanding);

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
    Ok((profit, outstanding, fee))
}

/// Called by the registry inside `slash`, after it has sent `recovered` (what it took from the
/// keeper's bond) to the vault: the outstanding draw leaves the books (active_liq and
/// total_usdc -= outstanding) and the recovered USDC enters them. Up to the outstanding amount
/// it replaces the lost capital; beyond it (the lateness penalty) it is income, booked and
/// locked like a fill's profit so that nobody can buy in just before a slash to take it.
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
    let restored = recovered.min(outstanding);
    state.active_liq -= outstanding;
    state.total_usdc = state.total_usdc - outstanding + restored;
    let config = storage::get_config(env);
    unlock::book_profit(
        env,
        &mut state,
        recovered - restored,
        env.ledger().timestamp(),
        config.profit_unlock_secs,
    )?;
    storage::set_state(env, &state);
    storage::clear_draw(env, keeper);
    Ok(outstanding)
}
