//! Slashing a keeper that keeps pool capital past the timeout.
use soroban_sdk::{Address, Env};

use crate::bond;
use crate::errors::RegistryError;
use crate::storage;
use crate::types::KeeperInfo;
use crate::vault::VaultClient;

/// Slashes `keeper` when its draw is older than `slash_timeout` seconds (strictly).
///
/// penalty = floor(stake * slash_rate_bps / 10000); cover = min(outstanding draw, stake -
/// penalty); recovered = penalty + cover leaves the stake and goes to the vault (not burned),
/// then the vault writes the outstanding draw off its books and books `recovered` into its
/// assets, all in this one transaction: if any step fails everything reverts, so vault and
/// registry never disagree about the draw. A draw within draw_limit is covered in full, so
/// the depositors lose nothing and gain the penalty. The keeper is banned from drawing and
/// bonding again (its record says `slashed`) and, once it deregisters, from registering again
/// (see keeper::execute_deregister).
/// Returns (recovered, written-down draw, keeper info after the slash).
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
    let penalty = bond::bps_of(env, info.stake, config.slash_rate_bps);
    let cover = info.draw_amount.min(info.stake - penalty);
    let recovered = penalty + cover;

    let stake = info.stake - recovered;
    bond::set_stake(env, &config, &mut info, stake);
    info.total_slashed = info
        .total_slashed
        .checked_add(recovered)
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

    if recovered > 0 {
        storage::transfer(
            env,
            &config.usdc_token,
            &env.current_contract_address(),
            &vault,
            recovered,
        );
    }
    let written_down = VaultClient::new(env, &vault).write_off(
        &env.current_contract_address(),
        keeper,
        &recovered,
    );
    Ok((recovered, written_down, info))
}
