use soroban_sdk::{contract, contractimpl, panic_with_error, Address, Env, String, Vec};

use crate::errors::ExecutorError;
use crate::types::{Request, Swap};
use crate::{external, liquidate, storage};

#[contract]
pub struct Executor;

/// Public interface of the executor: a keeper operator's contract that is itself the registered
/// keeper, so that draw, fill, swap and return can run in one transaction. Every write needs
/// the owner's authorisation; the calls the executor makes to other contracts carry its own
/// (direct calls, plus pre-authorised nested token transfers). Amounts are i128 (USDC with 7
/// decimals).
pub trait ExecutorTrait {
    /// Stores the owner (the keeper operator's account), the vault and the USDC token.
    fn __constructor(env: Env, owner: Address, vault: Address, usdc: Address);

    /// Owner. Registers the executor as a keeper: pulls the registry's `min_stake` USDC from
    /// the owner, pre-authorises the registry's pull of it and calls
    /// `registry.register(self, name)`. Errors: BadRegistryConfig; the registry's
    /// (AlreadyRegistered, KeeperBanned, InvalidName) and the token's.
    fn register(env: Env, registry: Address, name: String);

    /// Owner. `registry.deregister(self)`; the stake comes back to the executor (`sweep` moves
    /// it). Errors: the registry's (NotRegistered, DrawOutstanding).
    fn deregister(env: Env, registry: Address);

    /// Owner. The atomic path: `vault.draw(self, draw)`, the lending pool's
    /// `submit_with_allowance(self, self, self, requests)` paid from the draw, each swap of the
    /// executor's whole balance of `path[0]`, then `vault.return_proceeds(self, proceeds,
    /// response_time_ms)` with `proceeds` = the USDC gained in this call. Returns the profit the
    /// vault booked. Errors: InvalidAmount, InvalidSwap, ProceedsBelowDraw,
    /// ProceedsBelowMinimum, and every error of the vault, the pool, the routers and the
    /// tokens; any error reverts the whole transaction, so no draw is ever left outstanding.
    fn liquidate(
        env: Env,
        pool: Address,
        draw: i128,
        requests: Vec<Request>,
        swaps: Vec<Swap>,
        min_proceeds: i128,
        response_time_ms: u64,
    ) -> i128;

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
    fn __constructor(env: Env, owner: Address, vault: Address, usdc: Address) {
        storage::set_owner(&env, &owner);
        storage::set_vault(&env, &vault);
        storage::set_usdc(&env, &usdc);
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

    fn liquidate(
        env: Env,
        pool: Address,
        draw: i128,
        requests: Vec<Request>,
        swaps: Vec<Swap>,
        min_proceeds: i128,
        response_time_ms: u64,
    ) -> i128 {
        storage::extend_instance(&env);
        authorized_owner(&env);
        ok(
            &env,
            liquidate::execute_liquidate(
                &env,
                &pool,
                draw,
                &requests,
                &swaps,
                min_proceeds,
                response_time_ms,
            ),
        )
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
}
