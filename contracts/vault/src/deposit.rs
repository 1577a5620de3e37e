//! Depositor side: deposit USDC for shares, withdraw shares for USDC.
use soroban_sdk::{Address, Env};

use crate::errors::VaultError;
use crate::share_math::{self, Minted};
use crate::storage;
use crate::unlock;

/// Mints shares for `amount` USDC at the current price (see share_math::shares_for_deposit),
/// priced on the free assets (total_usdc less the profit still locked, unlock.rs), within
/// deposit_cap (total_usdc + amount <= deposit_cap). The first deposit also locks DEAD_SHARES
/// with the vault's own address.
pub fn execute_deposit(env: &Env, depositor: &Address, amount: i128) -> Result<Minted, VaultError> {
    storage::get_registry(env)?;
    if storage::get_pause(env).deposits {
        return Err(VaultError::DepositsPaused);
    }
    let mut state = storage::get_state(env);
    let free = unlock::free_assets(env, &state, env.ledger().timestamp())?;
    let minted = share_math::shares_for_deposit(env, amount, free, state.total_shares)?;
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

/// Burns `shares` for floor(shares * free assets / total_shares) USDC, once withdraw_cooldown
/// seconds have passed since the depositor's last deposit, paid from idle USDC only
/// (total_usdc - active_liq). Never paused. A withdrawal request shrinks by the shares
/// withdrawn (and to at most the shares still held).
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
    let free = unlock::free_assets(env, &state, env.ledger().timestamp())?;
    let amount = share_math::usdc_for_shares(env, shares, free, state.total_shares)?;
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
    let request = (info.withdraw_request - shares).clamp(0, info.shares);
    state.pending_shares -= info.withdraw_request - request;
    info.withdraw_request = request;
    info.total_withdrawn = info
        .total_withdrawn
        .checked_add(amount)
        .ok_or(VaultError::Overflow)?;
    storage::set_depositor(env, depositor, &info);
    storage::set_state(env, &state);

    storage::transfer_usdc(env, &env.current_contract_address(), depositor, amount);
    Ok(amount)
}

/// Sets the depositor's withdrawal request to `shares` (0 withdraws the request). While
/// requests are pending, a two-step draw may not take the idle USDC their value needs
/// (WithdrawalPending), so draws returned at par cannot keep a depositor out.
pub fn execute_request(env: &Env, depositor: &Address, shares: i128) -> Result<(), VaultError> {
    storage::get_registry(env)?;
    if shares < 0 {
        return Err(VaultError::InvalidAmount);
    }
    let mut info = storage::get_depositor(env, depositor);
    if shares > info.shares {
        return Err(VaultError::InsufficientShares);
    }
    let mut state = storage::get_state(env);
    state.pending_shares = state
        .pending_shares
        .checked_add(shares - info.withdraw_request)
        .ok_or(VaultError::Overflow)?;
    info.withdraw_request = shares;
    storage::set_depositor(env, depositor, &info);
    storage::set_state(env, &state);
    Ok(())
}
