//! The atomic liquidation and the two-step proxy.
use soroban_sdk::{Address, Env, Vec};

use crate::errors::ExecutorError;
use crate::external;
use crate::storage;
use crate::types::{Request, Swap};

/// One transaction: draw → fill on the lending pool → swap the seized collateral → return.
///
/// 1. `usdc_before` = the executor's USDC balance (a refunded stake or anything else it holds
///    is not part of the proceeds);
/// 2. `vault.draw(self, draw)`;
/// 3. `usdc.approve(self, pool, draw, this ledger)`, then
///    `pool.submit_with_allowance(self, self, self, requests)`: the pool pulls the repayment with
///    `transfer_from` and pays the withdrawn collateral to the executor. The allowance expires
///    with this ledger and only the pool, called by the executor as spender, can use it;
/// 4. each swap sells the executor's whole balance of `path[0]` (a token it holds none of is
///    skipped) for at least `min_out`, paid to the executor;
/// 5. `proceeds = balance - usdc_before`; refused unless `proceeds >= draw` and
///    `proceeds >= min_proceeds`;
/// 6. `vault.return_proceeds(self, proceeds, response_time_ms)`.
///
/// Returns the profit the vault booked (`proceeds - draw`).
pub fn execute_liquidate(
    env: &Env,
    pool: &Address,
    draw: i128,
    requests: &Vec<Request>,
    swaps: &Vec<Swap>,
    min_proceeds: i128,
    response_time_ms: u64,
) -> Result<i128, ExecutorError> {
    if draw <= 0 || min_proceeds < 0 {
        return Err(ExecutorError::InvalidAmount);
    }
    let me = env.current_contract_address();
    let vault = storage::get_vault(env);
    let usdc = storage::get_usdc(env);
    let usdc_before = external::balance(env, &usdc, &me);

    external::vault_draw(env, &vault, draw);
    external::approve(env, &usdc, pool, draw, env.ledger().sequence());
    external::pool_submit_with_allowance(env, pool, requests);

    let deadline = env.ledger().timestamp();
    for swap in swaps.iter() {
        if swap.path.len() < 2 {
            return Err(ExecutorError::InvalidSwap);
        }
        let sell = swap.path.get_unchecked(0);
        if sell == usdc {
            return Err(ExecutorError::InvalidSwap);
        }
        let amount_in = external::balance(env, &sell, &me);
        if amount_in <= 0 {
            continue;
        }
        let pair = external::router_pair_for(env, &swap.router, &sell, &swap.path.get_unchecked(1));
        external::authorize_transfer(env, &sell, &pair, amount_in);
        external::router_swap(
            env,
            &swap.router,
            amount_in,
            swap.min_out,
            &swap.path,
            deadline,
        );
    }

    let proceeds = external::balance(env, &usdc, &me)
        .checked_sub(usdc_before)
        .ok_or(ExecutorError::Overflow)?;
    if proceeds < draw {
        return Err(ExecutorError::ProceedsBelowDraw);
    }
    if proceeds < min_proceeds {
        return Err(ExecutorError::ProceedsBelowMinimum);
    }
    external::authorize_transfer(env, &usdc, &vault, proceeds);
    Ok(external::vault_return(
        env,
        &vault,
        proceeds,
        response_time_ms,
    ))
}

/// Two-step draw: the vault lends to the executor (the registered keeper), which forwards the
/// USDC to the owner.
pub fn execute_draw(env: &Env, owner: &Address, amount: i128) -> Result<(), ExecutorError> {
    if amount <= 0 {
        return Err(ExecutorError::InvalidAmount);
    }
    external::vault_draw(env, &storage::get_vault(env), amount);
    let me = env.current_contract_address();
    external::transfer(env, &storage::get_usdc(env), &me, owner, amount);
    Ok(())
}

/// Two-step return: pulls `amount` USDC from the owner and hands it to the vault as the
/// executor's return. Returns the profit the vault booked.
pub fn execute_return(
    env: &Env,
    owner: &Address,
    amount: i128,
    response_time_ms: u64,
) -> Result<i128, ExecutorError> {
    if amount <= 0 {
        return Err(ExecutorError::InvalidAmount);
    }
    let me = env.current_contract_address();
    let vault = storage::get_vault(env);
    let usdc = storage::get_usdc(env);
    external::transfer(env, &usdc, owner, &me, amount);
    external::authorize_transfer(env, &usdc, &vault, amount);
    Ok(external::vault_return(
        env,
        &vault,
        amount,
        response_time_ms,
    ))
}
