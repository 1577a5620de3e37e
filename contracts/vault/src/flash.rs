//! Keeper side, one transaction: the flash draw.
//!
//! The vault lends idle USDC to an approved executor and calls it back in the same invocation;
//! before the vault returns, the principal must be back in its balance, or the whole
//! transaction reverts. The capital never leaves the transaction, so no bond is at risk and no
//! draw is ever outstanding between transactions (KeeperDAO's pools and Blend's `flash_loan`
//! have the same shape).
use soroban_sdk::{symbol_short, vec, Address, Env, IntoVal, Val};

use crate::draw::{check_draw, settle_profit};
use crate::errors::VaultError;
use crate::registry;
use crate::storage;

/// What a flash draw settled: the profit booked for the depositors and the keeper's fee.
pub struct FlashSettled {
    pub profit: i128,
    pub fee: i128,
}

fn usdc_balance(env: &Env, of: &Address) -> i128 {
    env.invoke_contract(
        &storage::get_usdc(env),
        &symbol_short!("balance"),
        vec![env, of.to_val()],
    )
}

/// Lends `amount` to `keeper` (which must be an executor the registry deployed from its
/// approved wasm), calls `keeper.on_flash(amount, call)` and requires the vault's USDC balance
/// back at least where it was. Everything above the principal is gross profit: the keeper's
/// fee is paid, the rest is booked (locked), and the registry records the execution.
///
/// The approved executor's code decides what reaches the vault: it must sell every token the
/// fill paid it and hand over all the USDC it gained (contracts/executor), so the depositors'
/// part of a fill's profit is not the keeper's choice.
pub fn execute_flash(
    env: &Env,
    keeper: &Address,
    amount: i128,
    call: Val,
    response_time_ms: u64,
) -> Result<FlashSettled, VaultError> {
    let (registry, flags, config, _) = check_draw(env, keeper, amount)?;
    if !flags.approved {
        return Err(VaultError::NotApprovedExecutor);
    }
    let vault = env.current_contract_address();
    let before = usdc_balance(env, &vault);
    storage::transfer_usdc(env, &vault, keeper, amount);
    env.invoke_contract::<()>(
        keeper,
        &symbol_short!("on_flash"),
        vec![env, amount.into_val(env), call],
    );
    let returned = usdc_balance(env, &vault)
        .checked_sub(before)
        .and_then(|d| d.checked_add(amount))
        .ok_or(VaultError::Overflow)?;
    if returned < amount {
        return Err(VaultError::FlashNotRepaid);
    }
    // Read the books after the callback: nothing in it can reach the vault (a contract cannot
    // be re-entered), but this keeps the order of reads and writes obvious.
    let mut state = storage::get_state(env);
    let (profit, fee) = settle_profit(env, &mut state, &config, keeper, returned - amount)?;
    storage::set_state(env, &state);
    registry::record_execution(
        env,
        &registry,
        &vault,
        keeper,
        profit > 0,
        profit,
        response_time_ms,
    );
    Ok(FlashSettled { profit, fee })
}
