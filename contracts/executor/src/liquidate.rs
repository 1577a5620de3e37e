//! The flash fill and the two-step proxy.
use soroban_sdk::{Address, Env, Vec};

use crate::errors::ExecutorError;
use crate::external;
use crate::storage;
use crate::types::{FlashCall, Swap, SwapVenue};

/// The flash fill, called back by the vault inside its `flash_draw` after it has sent `amount`
/// USDC here:
///
/// 1. only the stored vault may call (`vault.require_auth()`: satisfied when the vault is the
///    direct caller) and only for its owner (`owner.require_auth()`);
/// 2. the pool must be among the registry's venues, and so must every swap's venue (router or
///    Comet pool, checked as the swap comes up in step 5): a venue of the keeper's own could pay
///    the vault the principal and keep the rest;
/// 3. the balance of every pool reserve token other than USDC is noted;
/// 4. `usdc.approve(self, pool, amount, this ledger)`, then
///    `pool.submit_with_allowance(self, self, self, requests)`: the pool pulls the repayment
///    with `transfer_from` and pays the withdrawn collateral here;
/// 5. the swaps, in order (`sell_one`): each sells `amount_in` of `path[0]` (0: the executor's
///    whole balance of it at that point; a zero balance skips the swap) along a path that ends
///    in USDC, for at least `min_out`, paid to the executor. A sale split between venues is
///    several swaps of the same token, the last with `amount_in` 0; a route through an
///    intermediate asset is a longer router path;
/// 6. no reserve token may be held above what was noted (CollateralKept): what the fill paid is
///    all sold in this transaction, none of it is left for the owner to sweep;
/// 7. `proceeds` = the USDC gained over the balance before the loan; refused unless
///    `proceeds >= amount` and `>= min_proceeds`; all of it goes to the vault, which pays the
///    keeper's fee out of the profit.
pub fn execute_flash(env: &Env, amount: i128, call: &FlashCall) -> Result<(), ExecutorError> {
    storage::get_vault(env).require_auth();
    storage::get_owner(env).require_auth();
    if amount <= 0 || call.min_proceeds < 0 {
        return Err(ExecutorError::InvalidAmount);
    }
    let me = env.current_contract_address();
    let vault = storage::get_vault(env);
    let usdc = storage::get_usdc(env);
    let venues = external::registry_venues(env, &storage::get_registry(env));
    if !venues.contains(&call.pool) {
        return Err(ExecutorError::VenueNotAllowed);
    }
    let usdc_before = external::balance(env, &usdc, &me)
        .checked_sub(amount)
        .ok_or(ExecutorError::Overflow)?;
    let mut held: Vec<(Address, i128)> = Vec::new(env);
    for token in external::pool_reserves(env, &call.pool).iter() {
        if token != usdc {
            let b = external::balance(env, &token, &me);
            held.push_back((token, b));
        }
    }

    external::approve(env, &usdc, &call.pool, amount, env.ledger().sequence());
    external::pool_submit_with_allowance(env, &call.pool, &call.requests);

    for swap in call.swaps.iter() {
        sell_one(env, &me, &usdc, &venues, &swap)?;
    }
    for (token, before) in held.iter() {
        if external::balance(env, &token, &me) > before {
            return Err(ExecutorError::CollateralKept);
        }
    }

    let proceeds = external::balance(env, &usdc, &me)
        .checked_sub(usdc_before)
        .ok_or(ExecutorError::Overflow)?;
    if proceeds < amount {
        return Err(ExecutorError::ProceedsBelowDraw);
    }
    if proceeds < call.min_proceeds {
        return Err(ExecutorError::ProceedsBelowMinimum);
    }
    external::transfer(env, &usdc, &me, &vault, proceeds);
    Ok(())
}

/// One sale of the flash fill, paid to the executor. Refused: a venue the registry does not list
/// (VenueNotAllowed); a path shorter than two tokens, one that sells USDC or does not end in
/// USDC (a sale into another token would let the owner keep part of the lot's value outside the
/// proceeds and sweep it later), a Comet path of other than two tokens, a negative `amount_in`
/// (InvalidSwap). An `amount_in` above what the executor holds fails in the token's transfer,
/// which reverts the whole transaction.
fn sell_one(
    env: &Env,
    me: &Address,
    usdc: &Address,
    venues: &Vec<Address>,
    swap: &Swap,
) -> Result<(), ExecutorError> {
    let (venue, comet) = match &swap.venue {
        SwapVenue::Router(a) => (a, false),
        SwapVenue::Comet(a) => (a, true),
    };
    if !venues.contains(venue) {
        return Err(ExecutorError::VenueNotAllowed);
    }
    let path = &swap.path;
    let n = path.len();
    if n < 2 || (comet && n != 2) || swap.amount_in < 0 {
        return Err(ExecutorError::InvalidSwap);
    }
    let sell = path.get_unchecked(0);
    if sell == *usdc || path.get_unchecked(n - 1) != *usdc {
        return Err(ExecutorError::InvalidSwap);
    }
    let amount_in = if swap.amount_in == 0 {
        external::balance(env, &sell, me)
    } else {
        swap.amount_in
    };
    if amount_in <= 0 {
        return Ok(());
    }
    if comet {
        external::comet_swap(env, venue, &sell, amount_in, usdc, swap.min_out);
    } else {
        // The router moves `amount_in` from the executor into the path's first pair; the
        // intermediate tokens of a longer path go pair to pair inside the router.
        let pair = external::router_pair_for(env, venue, &sell, &path.get_unchecked(1));
        external::authorize_transfer(env, &sell, &pair, amount_in);
        let deadline = env.ledger().timestamp();
        external::router_swap(env, venue, amount_in, swap.min_out, path, deadline);
    }
    Ok(())
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

/// Adds `amount` of the owner's USDC to the executor's bond in the registry.
pub fn execute_add_bond(
    env: &Env,
    owner: &Address,
    registry: &Address,
    amount: i128,
) -> Result<(), ExecutorError> {
    if amount <= 0 {
        return Err(ExecutorError::InvalidAmount);
    }
    let me = env.current_contract_address();
    let usdc = storage::get_usdc(env);
    external::transfer(env, &usdc, owner, &me, amount);
    external::authorize_transfer(env, &usdc, registry, amount);
    external::registry_bond(env, registry, true, amount);
    Ok(())
}

/// Takes `amount` back out of the executor's bond and sends it to the owner.
pub fn execute_withdraw_bond(
    env: &Env,
    owner: &Address,
    registry: &Address,
    amount: i128,
) -> Result<(), ExecutorError> {
    if amount <= 0 {
        return Err(ExecutorError::InvalidAmount);
    }
    external::registry_bond(env, registry, false, amount);
    let me = env.current_contract_address();
    external::transfer(env, &storage::get_usdc(env), &me, owner, amount);
    Ok(())
}
