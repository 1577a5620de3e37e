//! A keeper's bond: adding to and withdrawing from its stake, and the draw limit it backs.
use soroban_sdk::{Address, Env, I256};

use crate::errors::RegistryError;
use crate::storage;
use crate::types::{KeeperInfo, RegistryConfig};

pub const BPS_DENOMINATOR: u32 = 10_000;

/// floor(amount * bps / 10000) on the host's 256-bit integers (no 128-bit division routine in
/// the wasm). For 0 <= bps <= 10000 the result is at most `amount`, so it fits.
pub fn bps_of(env: &Env, amount: i128, bps: u32) -> i128 {
    I256::from_i128(env, amount)
        .mul(&I256::from_i32(env, bps as i32))
        .div(&I256::from_i32(env, BPS_DENOMINATOR as i32))
        .to_i128()
        .unwrap()
}

/// The largest new draw `stake` backs: floor(stake * (10000 - slash_rate_bps) / 10000). A draw
/// within it is covered by what a slash leaves after the penalty (see slash::execute_slash).
pub fn draw_limit(env: &Env, config: &RegistryConfig, stake: i128) -> i128 {
    bps_of(env, stake, BPS_DENOMINATOR - config.slash_rate_bps)
}

/// Sets the stake and the draw limit that follows from it.
pub fn set_stake(env: &Env, config: &RegistryConfig, info: &mut KeeperInfo, stake: i128) {
    info.stake = stake;
    info.draw_limit = draw_limit(env, config, stake);
}

/// `add`: pulls `amount` USDC from the operator into its stake; refused for a slashed keeper.
/// Otherwise refunds `amount` of the stake, keeping at least `min_stake`; refused while a draw
/// is outstanding (the stake backs it). One function for both directions keeps the wasm small.
/// Returns the new stake.
pub fn execute_change(
    env: &Env,
    operator: &Address,
    amount: i128,
    add: bool,
) -> Result<i128, RegistryError> {
    if amount <= 0 {
        return Err(RegistryError::InvalidAmount);
    }
    let (slot, mut info) = storage::find_keeper(env, operator)?;
    let config = storage::get_config(env);
    let me = env.current_contract_address();
    let (stake, from, to) = if add {
        if info.slashed {
            return Err(RegistryError::KeeperBanned);
        }
        let stake = info
            .stake
            .checked_add(amount)
            .ok_or(RegistryError::Overflow)?;
        (stake, operator, &me)
    } else {
        if info.has_active_draw {
            return Err(RegistryError::DrawOutstanding);
        }
        // amount > 0 and stake >= 0, so this cannot overflow.
        let stake = info.stake - amount;
        if stake < config.min_stake {
            return Err(RegistryError::BondBelowMinimum);
        }
        (stake, &me, operator)
    };
    set_stake(env, &config, &mut info, stake);
    storage::set_slot(env, slot, &info);
    storage::transfer(env, &config.usdc_token, from, to, amount);
    Ok(stake)
}
