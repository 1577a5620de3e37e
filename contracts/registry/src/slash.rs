//! Slashing a keeper that keeps pool capital past the timeout.
use soroban_sdk::{Address, Env, I256};

use crate::errors::RegistryError;
use crate::storage;
use crate::types::KeeperInfo;
use crate::vault::VaultClient;

pub const BPS_DENOMINATOR: i128 = 10_000;

/// Slashes `keeper` when its draw is older than `slash_timeout` seconds (strictly).
///
/// slashed = floor(stake * slash_rate_bps / 10000) goes to the vault (not burned), then the
/// vault writes the outstanding draw off its books and books the slashed stake as recovered,
/// all in this one transaction: if any step fails everything reverts, so vault and registry
/// never disagree about the draw. The keeper is banned from drawing again (its record says
/// `slashed`) and, once it deregisters, from registering again (see keeper::execute_deregister).
/// Returns (slashed stake, written-down draw, keeper info after the slash).
pub fn execute_slash(
    env: &Env,
    keeper: &Address,
) -> Result<(i128, i128, KeeperInfo), RegistryError> {
    let vault = storage::get_vault(env)?;
    let config = storage::get_config(env);
    let (slot, mut info) = storage::find_keeper(env, keeper)?;
    if !info.has_active_draw {
        return Err(RegistryError::NoActiveDraw);
    }
    let deadline = info
        .draw_timestamp
        .checked_add(config.slash_timeout)
        .ok_or(RegistryError::Overflow)?;
    if env.ledger().timestamp() <= deadline {
        return Err(RegistryError::SlashTooEarly);
    }
    // floor(stake * bps / 10000) on the host's 256-bit integers (no 128-bit division routine
    // in the wasm); the result is at most the stake, so it fits.
    let slashed = I256::from_i128(env, info.stake)
        .mul(&I256::from_i32(env, config.slash_rate_bps as i32))
        .div(&I256::from_i128(env, BPS_DENOMINATOR))
        .to_i128()
        .ok_or(RegistryError::Overflow)?;

    info.stake -= slashed;
    info.total_slashed = info
        .total_slashed
        .checked_add(slashed)
        .ok_or(RegistryError::Overflow)?;
    info.slashed = true;
    info.slash_count = info.slash_count.saturating_add(1);
    info.has_active_draw = false;
    info.draw_amount = 0;
    info.draw_timestamp = 0;
    // A slash counts as a failed execution; it is not a response, so the mean response time
    // stays the mean of the real responses.
    info.total_executions = info
        .total_executions
        .checked_add(1)
        .ok_or(RegistryError::Overflow)?;
    storage::set_slot(env, slot, &info);

    if slashed > 0 {
        storage::transfer(
            env,
            &config.usdc_token,
            &env.current_contract_address(),
            &vault,
            slashed,
        );
    }
    let written_down =
        VaultClient::new(env, &vault).write_off(&env.current_contract_address(), keeper, &slashed);
    Ok((slashed, written_down, info))
}
