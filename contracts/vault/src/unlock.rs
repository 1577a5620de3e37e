//! Profit unlocking and the keeper's fee, the same rules as src/core/vault (checked against
//! vectors/profit-unlock.json by both test suites).
//!
//! Booked profit enters `total_usdc` at once (the books balance) but the share price counts
//! only the unlocked part: `free assets = total_usdc - locked(now)`. A deposit made just before
//! a fill therefore buys at a price that does not contain the fill's profit, and the profit
//! reaches the depositors who hold shares while it unlocks (Yearn v3's profit unlocking).
use soroban_sdk::{Env, I256};

use crate::errors::VaultError;
use crate::share_math::mul_div_floor;
use crate::types::VaultState;

pub const BPS: i128 = 10_000;
/// Upper bound of the unlock period, the withdraw cooldown and the keeper fee.
pub const MAX_PERIOD_SECS: u64 = 30 * 24 * 3_600;
pub const MAX_KEEPER_FEE_BPS: u32 = 5_000;

/// ceil(a * b / d) for a, b >= 0 and d > 0 (Overflow when a * b does not fit in i128).
fn mul_div_ceil(env: &Env, a: i128, b: i128, d: i128) -> Result<i128, VaultError> {
    let product = I256::from_i128(env, a).mul(&I256::from_i128(env, b));
    product.to_i128().ok_or(VaultError::Overflow)?;
    let d = I256::from_i128(env, d);
    product
        .add(&d.sub(&I256::from_i32(env, 1)))
        .div(&d)
        .to_i128()
        .ok_or(VaultError::Overflow)
}

/// Profit still locked at `now`: 0 at or after lock_end, else
/// ceil(locked_profit * (lock_end - now) / (lock_end - lock_start)). Rounds up: toward the
/// pool's remaining holders and against whoever enters or leaves.
pub fn locked(env: &Env, state: &VaultState, now: u64) -> Result<i128, VaultError> {
    if state.locked_profit <= 0 || now >= state.lock_end {
        return Ok(0);
    }
    let left = (state.lock_end - now) as i128;
    let span = (state.lock_end - state.lock_start.min(now)) as i128;
    mul_div_ceil(env, state.locked_profit, left, span)
}

/// The assets that price a share at `now`: total_usdc less the locked profit (never negative).
pub fn free_assets(env: &Env, state: &VaultState, now: u64) -> Result<i128, VaultError> {
    Ok((state.total_usdc - locked(env, state, now)?).max(0))
}

/// Books `profit` (> 0) at `now`: total_usdc and total_profit grow by it and it is locked.
/// What was still locked and the new profit unlock together, ending at the amount-weighted
/// mean of their ends: lock_end = now + ceil((L * R + P * period) / (L + P)) with L the profit
/// still locked and R its remaining seconds.
pub fn book_profit(
    env: &Env,
    state: &mut VaultState,
    profit: i128,
    now: u64,
    period: u64,
) -> Result<(), VaultError> {
    if profit <= 0 {
        return Ok(());
    }
    let still = locked(env, state, now)?;
    let remaining = state.lock_end.saturating_sub(now) as i128;
    let total = still.checked_add(profit).ok_or(VaultError::Overflow)?;
    let weighted = still
        .checked_mul(remaining)
        .and_then(|a| profit.checked_mul(period as i128).and_then(|b| a.checked_add(b)))
        .ok_or(VaultError::Overflow)?;
    let span = mul_div_ceil(env, weighted, 1, total)?;
    state.locked_profit = total;
    state.lock_start = now;
    state.lock_end = now.saturating_add(span as u64);
    state.total_usdc = state
        .total_usdc
        .checked_add(profit)
        .ok_or(VaultError::Overflow)?;
    state.total_profit = state
        .total_profit
        .checked_add(profit)
        .ok_or(VaultError::Overflow)?;
    Ok(())
}

/// The keeper's fee on a gross profit: floor(gross * fee_bps / 10000), 0 when gross <= 0.
pub fn keeper_fee(env: &Env, gross: i128, fee_bps: u32) -> Result<i128, VaultError> {
    if gross <= 0 {
        return Ok(0);
    }
    mul_div_floor(env, gross, fee_bps as i128, BPS)
}
