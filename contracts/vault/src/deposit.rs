//! Depositor side: deposit USDC for shares, withdraw shares for USDC.
use soroban_sdk::{Address, Env};

use crate::errors::VaultError;
use crate::share_math::{self, Minted};
use crate::storage;

/// Mints shares for `amount` USDC at the current price (see share_math::shares_for_deposit),
/// within deposit_cap (total_usdc + amount <= deposit_cap). The first deposit also locks
/// DEAD_SHARES with the vault's own address.
pub fn execute_deposit(env: &Env, depositor: &Address, amount: i128) -> Result<Minted, VaultError> {
    storage::get_registry(env)?;
    if storage::get_pause(env).deposits {
        return Err(VaultError::DepositsPaused);
    }
    let mut state = storage::get_state(env);
    let minted = share_math::shares_for_deposit(env, amount, state.total_usdc, state.total_shares)?;
    let total_usdc = state
        .total_usdc
        .checked_add(amount)
        .ok_or(VaultError::Overflow)?;
    if total_usdc > storage::get_config(env).deposit_cap {
        return Err(VaultError::DepositCapExceeded);
    }
    state.total_usdc = total_usdc;
    state.total_shares = state
        .total_shares
        .checked_add(minted.shares)
        .and_then(|s| s.checked_add(minted.dead_shares))
        .ok_or(VaultError::Overflow)?;

    let mut info = storage::get_depositor(env, depositor);
    info.shares = info
        .shares
        .checked_add(minted.shares)
        .ok_or(VaultError::Overflow)?;
    info.cost_basis = info
        .cost_basis
        .checked_add(amount)
        .ok_or(VaultError::Overflow)?;
    info.total_deposited = info
        .total_deposited
        .checked_add(amount)
        .ok_or(VaultError::Overflow)?;
    info.last_deposit_time = env.ledger().timestamp();
    storage::set_depositor(env, depositor, &info);
    if minted.dead_shares > 0 {
        let vault = env.current_contract_address();
        let mut own = storage::get_depositor(env, &vault);
        own.shares = own
            .shares
            .checked_add(minted.dead_shares)
            .ok_or(VaultError::Overflow)?;
        storage::set_depositor(env, &vault, &own);
    }
    storage::set_state(env, &state);

    storage::transfer_usdc(env, depositor, &env.current_contract_address(), amount);
    Ok(minted)
}

/// Burns `shares` for floor(shares * total_usdc / total_shares) USDC, once withdraw_cooldown
/// seconds have passed since the depositor's last deposit, paid from idle USDC only
/// (total_usdc - active_liq). Never paused.
pub fn execute_withdraw(env: &Env, depositor: &Address, shares: i128) -> Result<i128, VaultError> {
    storage::get_registry(env)?;
    if shares <= 0 {
        return Err(VaultError::InvalidAmount);
    }
    let mut info = storage::get_depositor(env, depositor);
    if shares > info.shares {
        return Err(VaultError::InsufficientShares);
    }
    let ready_at = info
        .last_deposit_time
        .checked_add(storage::get_config(env).withdraw_cooldown)
        .ok_or(VaultError::Overflow)?;
    if env.ledger().timestamp() < ready_at {
        return Err(VaultError::CooldownActive);
    }
    let mut state = storage::get_state(env);
    let amount = share_math::usdc_for_shares(env, shares, state.total_usdc, state.total_shares)?;
    if amount == 0 {
        return Err(VaultError::ZeroAssets);
    }
    if amount > state.total_usdc - state.active_liq {
        return Err(VaultError::InsufficientLiquidity);
    }
    state.total_usdc -= amount;
    state.total_shares -= shares;

    // The cost basis leaves with the shares, pro rata (floor), all of it on a full exit.
    let basis_out = if shares == info.shares {
        info.cost_basis
    } else {
        share_math::mul_div_floor(env, info.cost_basis, shares, info.shares)?
    };
    info.cost_basis -= basis_out;
    info.shares -= shares;
    info.total_withdrawn = info
        .total_withdrawn
        .checked_add(amount)
        .ok_or(VaultError::Overflow)?;
    storage::set_depositor(env, depositor, &info);
    storage::set_state(env, &state);

    storage::transfer_usdc(env, &env.current_contract_address(), depositor, amount);
    Ok(amount)
}
