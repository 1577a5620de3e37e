use soroban_sdk::{contract, contractimpl, panic_with_error, Address, Env, String};

use crate::errors::ExecutorError;
use crate::types::FlashCall;
use crate::{external, liquidate, storage};

#[contract]
pub struct Executor;

/// Public interface of the executor: a keeper operator's contract that is itself the registered
/// keeper, so that draw, fill, swap and return can run in one transaction. Deployed by the
/// registry (`deploy_executor`) from the wasm it approves, which is what lets it take flash
/// draws. Every write needs the owner's authorisation; the calls the executor makes to other
/// contracts carry its own (direct calls, plus pre-authorised nested token transfers). Amounts
/// are i128 (USDC with 7 decimals).
pub trait ExecutorTrait {
    /// Stores the owner (the keeper operator's account), the vault, the USDC token and the
    /// registry that deployed it.
    fn __constructor(env: Env, owner: Address, vault: Address, usdc: Address, registry: Address);

    /// Owner. Registers the executor as a keeper: pulls the registry's `min_stake` USDC from
    /// the owner, pre-authorises the registry's pull of it and calls
    /// `registry.register(self, name)`. Errors: BadRegistryConfig; the registry's
    /// (AlreadyRegistered, KeeperBanned, InvalidName) and the token's.
    fn register(env: Env, registry: Address, name: String);

    /// Owner. `registry.deregister(self)`; the stake comes back to the executor (`sweep` moves
    /// it). Errors: the registry's (NotRegistered, DrawOutstanding).
    fn deregister(env: Env, registry: Address);

    /// Vault only, for the owner (both authorisations are required). The flash fill the vault
    /// calls back inside `vault.flash_draw(self, amount, call, response_time_ms)`, which the
    /// owner sends: fill on `call.pool`, sell everything the fill paid through `call.swaps`
    /// (each an exact amount of `path[0]`, or 0 for the executor's whole balance of it, on a
    /// router or a Comet pool of the registry's venues, along a path ending in USDC: a lot can
    /// be split between venues and routed through an intermediate asset), give all the USDC
    /// gained to the vault. Errors: InvalidAmount, VenueNotAllowed, InvalidSwap, CollateralKept,
    /// ProceedsBelowDraw, ProceedsBelowMinimum, and every error of the pool, the venues and the
    /// tokens; any error reverts the whole transaction, the vault's loan with it.
    fn on_flash(env: Env, amount: i128, call: FlashCall);

    /// Owner. Adds `amount` of the owner's USDC to the executor's bond in the registry (which
    /// raises its two-step draw limit). Errors: InvalidAmount; the registry's and the token's.
    fn add_bond(env: Env, registry: Address, amount: i128);

    /// Owner. Takes `amount` out of the bond (the registry keeps at least min_stake and refuses
    /// while a draw is outstanding) and sends it to the owner. Errors: InvalidAmount; the
    /// registry's.
    fn withdraw_bond(env: Env, registry: Address, amount: i128);

    /// Owner. Two-step proxy: `vault.draw(self, amount)`, and the USDC goes on to the owner.
    /// Errors: InvalidAmount; the vault's.
    fn draw(env: Env, amount: i128);

    /// Owner. Two-step proxy: pulls `amount` USDC from the owner and calls
    /// `vault.return_proceeds(self, amount, response_time_ms)`. Returns the profit booked.
    /// Errors: InvalidAmount; the vault's and the token's.
    fn return_proceeds(env: Env, amount: i128, response_time_ms: u64) -> i128;

    /// Owner. Moves `amount` of any token the executor holds (a refunded stake, dust) to `to`.
    /// Errors: InvalidAmount; the token's.
    fn sweep(env: Env, token: Address, to: Address, amount: i128);

    fn owner(env: Env) -> Address;
    fn vault(env: Env) -> Address;
    fn usdc(env: Env) -> Address;
    fn registry(env: Env) -> Address;
}

fn ok<T>(env: &Env, r: Result<T, ExecutorError>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic_with_error!(env, e),
    }
}

/// The owner, after checking its authorisation.
fn authorized_owner(env: &Env) -> Address {
    let owner = storage::get_owner(env);
    owner.require_auth();
    owner
}

#[contractimpl]
impl ExecutorTrait for Executor {
    fn __constructor(env: Env, owner: Address, vault: Address, usdc: Address, registry: Address) {
        storage::set_owner(&env, &owner);
        storage::set_vault(&env, &vault);
        storage::set_usdc(&env, &usdc);
        storage::set_registry(&env, &registry);
        storage::extend_instance(&env);
    }

    fn register(env: Env, registry: Address, name: String) {
        storage::extend_instance(&env);
        let owner = authorized_owner(&env);
        let (stake, usdc) = ok(&env, external::registry_stake(&env, &registry));
        let me = env.current_contract_address();
        external::transfer(&env, &usdc, &owner, &me, stake);
        external::authorize_transfer(&env, &usdc, &registry, stake);
        external::registry_register(&env, &registry, name);
    }

    fn deregister(env: Env, registry: Address) {
        storage::extend_instance(&env);
        authorized_owner(&env);
        external::registry_deregister(&env, &registry);
    }

    fn on_flash(env: Env, amount: i128, call: FlashCall) {
        storage::extend_instance(&env);
        ok(&env, liquidate::execute_flash(&env, amount, &call));
    }

    fn add_bond(env: Env, registry: Address, amount: i128) {
        storage::extend_instance(&env);
        let owner = authorized_owner(&env);
        ok(&env, liquidate::execute_add_bond(&env, &owner, &registry, amount));
    }

    fn withdraw_bond(env: Env, registry: Address, amount: i128) {
        storage::extend_instance(&env);
        let owner = authorized_owner(&env);
        ok(&env, liquidate::execute_withdraw_bond(&env, &owner, &registry, amount));
    }

    fn draw(env: Env, amount: i128) {
        storage::extend_instance(&env);
        let owner = authorized_owner(&env);
        ok(&env, liquidate::execute_draw(&env, &owner, amount));
    }

    fn return_proceeds(env: Env, amount: i128, response_time_ms: u64) -> i128 {
        storage::extend_instance(&env);
        let owner = authorized_owner(&env);
        ok(
            &env,
            liquidate::execute_return(&env, &owner, amount, response_time_ms),
        )
    }

    fn sweep(env: Env, token: Address, to: Address, amount: i128) {
        storage::extend_instance(&env);
        authorized_owner(&env);
        if amount <= 0 {
            panic_with_error!(&env, ExecutorError::InvalidAmount);
        }
        external::transfer(&env, &token, &env.current_contract_address(), &to, amount);
    }

    fn owner(env: Env) -> Address {
        storage::extend_instance(&env);
        storage::get_owner(&env)
    }

    fn vault(env: Env) -> Address {
        storage::extend_instance(&env);
        storage::get_vault(&env)
    }

    fn usdc(env: Env) -> Address {
        storage::extend_instance(&env);
        storage::get_usdc(&env)
    }

    fn registry(env: Env) -> Address {
        storage::extend_instance(&env);
        storage::get_registry(&env)
    }
}
