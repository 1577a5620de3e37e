//! The parts of other contracts' interfaces the executor calls, and the pre-authorisation of
//! the nested token transfers they make on its behalf.
//!
//! - SEP-41 token: `balance(id)`, `transfer(from, to, amount)`,
//!   `approve(from, spender, amount, expiration_ledger)`
//! - vault (contracts/vault): `draw(keeper, amount)`,
//!   `return_proceeds(keeper, amount, response_time_ms) -> i128`
//! - registry (contracts/registry): `get_config() -> RegistryConfig`, `register(operator, name)`,
//!   `deregister(operator)`, `add_bond(operator, amount)`, `withdraw_bond(operator, amount)`,
//!   `get_venues() -> Vec<Address>`
//! - Blend v2 pool: `submit_with_allowance(from, spender, to, requests) -> Positions`,
//!   `get_reserve_list() -> Vec<Address>`
//! - router (contracts/dex-router, Soroswap interface): `router_pair_for(a, b) -> Address`,
//!   `swap_exact_tokens_for_tokens(amount_in, amount_out_min, path, to, deadline) -> Vec<i128>`
//! - Comet weighted pool (CometDEX/comet-contracts-v1, the published wasm of blend-contract-sdk):
//!   `swap_exact_amount_in(token_in, token_amount_in, token_out, min_amount_out, max_price, user)
//!   -> (i128, i128)`
//!
//! Called with `invoke_contract` rather than generated clients, as the vault does: a client
//! encodes the names longer than 9 characters with the contract-side symbol encoder (~500 bytes
//! of wasm); here the host makes those symbols. Return values the executor does not use are
//! read as a plain `Val` so that no copy of the other side's types is needed.
use soroban_sdk::auth::InvokerContractAuthEntry;
use soroban_sdk::{
    symbol_short, vec, Address, Env, EnvBase, IntoVal, Map, String, Symbol, TryFromVal, Val, Vec,
};

use crate::errors::ExecutorError;
use crate::types::Request;

/// A symbol made by the host (for names longer than the 9 characters of a small symbol).
fn host_symbol(env: &Env, name: &[u8]) -> Symbol {
    let obj = env.symbol_new_from_slice(name).unwrap();
    Symbol::try_from_val(env, &obj.to_val()).unwrap()
}

pub fn balance(env: &Env, token: &Address, id: &Address) -> i128 {
    env.invoke_contract(token, &symbol_short!("balance"), vec![env, id.to_val()])
}

pub fn transfer(env: &Env, token: &Address, from: &Address, to: &Address, amount: i128) {
    env.invoke_contract::<()>(
        token,
        &symbol_short!("transfer"),
        vec![env, from.to_val(), to.to_val(), amount.into_val(env)],
    );
}

/// Lets the next contract called transfer `amount` of `token` from the executor to `to` one
/// call deeper (the vault's, the registry's and the router's pulls): the token's
/// `from.require_auth()` is then satisfied by this entry, which matches that exact transfer only.
pub fn authorize_transfer(env: &Env, token: &Address, to: &Address, amount: i128) {
    let me = env.current_contract_address();
    let args: Vec<Val> = vec![env, me.to_val(), to.to_val(), amount.into_val(env)];
    authorize_nested(env, token, symbol_short!("transfer"), args);
}

/// Pre-authorises exactly one call `contract.fn_name(args)` made on the executor's behalf one
/// call deeper than the executor's next call.
///
/// The entry is the encoding of the SDK's `InvokerContractAuthEntry::Contract(
/// SubContractInvocation { context: ContractContext { contract, fn_name, args },
/// sub_invocations: [] })`, built here with host maps: the SDK's conversion of those types
/// costs ~2.4 KB of wasm. Map keys are in sorted order, as the host requires.
#[inline(never)]
fn authorize_nested(env: &Env, contract: &Address, fn_name: Symbol, args: Vec<Val>) {
    let context = env
        .map_new_from_slices(
            &["args", "contract", "fn_name"],
            &[args.to_val(), contract.to_val(), fn_name.to_val()],
        )
        .unwrap();
    let invocation = env
        .map_new_from_slices(
            &["context", "sub_invocations"],
            &[context.to_val(), Vec::<Val>::new(env).to_val()],
        )
        .unwrap();
    let entry: Vec<Val> = vec![env, symbol_short!("Contract").to_val(), invocation.to_val()];
    let entries: Vec<Val> = vec![env, entry.to_val()];
    // Vec<T> from a Val only checks that it is a vector: no element is decoded.
    let entries = Vec::<InvokerContractAuthEntry>::try_from_val(env, &entries.to_val()).unwrap();
    env.authorize_as_current_contract(entries);
}

/// `approve(self, spender, amount, expiration_ledger)`; the executor calls the token itself, so
/// its own authorisation is implicit.
pub fn approve(env: &Env, token: &Address, spender: &Address, amount: i128, expiration: u32) {
    env.invoke_contract::<()>(
        token,
        &symbol_short!("approve"),
        vec![
            env,
            env.current_contract_address().to_val(),
            spender.to_val(),
            amount.into_val(env),
            expiration.into(),
        ],
    );
}

pub fn vault_draw(env: &Env, vault: &Address, amount: i128) {
    env.invoke_contract::<()>(
        vault,
        &symbol_short!("draw"),
        vec![
            env,
            env.current_contract_address().to_val(),
            amount.into_val(env),
        ],
    );
}

/// Returns the profit the vault booked.
pub fn vault_return(env: &Env, vault: &Address, amount: i128, response_time_ms: u64) -> i128 {
    env.invoke_contract(
        vault,
        &host_symbol(env, b"return_proceeds"),
        vec![
            env,
            env.current_contract_address().to_val(),
            amount.into_val(env),
            response_time_ms.into_val(env),
        ],
    )
}

/// The registry's `min_stake` and `usdc_token`, read from its `RegistryConfig` as the map it is
/// encoded as (no copy of the struct).
pub fn registry_stake(env: &Env, registry: &Address) -> Result<(i128, Address), ExecutorError> {
    let config: Map<Symbol, Val> =
        env.invoke_contract(registry, &host_symbol(env, b"get_config"), Vec::new(env));
    let stake = config
        .get(symbol_short!("min_stake"))
        .and_then(|v| i128::try_from_val(env, &v).ok())
        .filter(|s| *s > 0)
        .ok_or(ExecutorError::BadRegistryConfig)?;
    let usdc = config
        .get(host_symbol(env, b"usdc_token"))
        .and_then(|v| Address::try_from_val(env, &v).ok())
        .ok_or(ExecutorError::BadRegistryConfig)?;
    Ok((stake, usdc))
}

pub fn registry_register(env: &Env, registry: &Address, name: String) {
    env.invoke_contract::<()>(
        registry,
        &symbol_short!("register"),
        vec![env, env.current_contract_address().to_val(), name.to_val()],
    );
}

pub fn registry_deregister(env: &Env, registry: &Address) {
    env.invoke_contract::<()>(
        registry,
        &host_symbol(env, b"deregister"),
        vec![env, env.current_contract_address().to_val()],
    );
}

/// `submit_with_allowance(self, self, self, requests)`: the pool pulls what the requests owe
/// with `transfer_from` against the executor's allowance and pays what it owes to the executor.
pub fn pool_submit_with_allowance(env: &Env, pool: &Address, requests: &Vec<Request>) {
    let me = env.current_contract_address().to_val();
    env.invoke_contract::<Val>(
        pool,
        &host_symbol(env, b"submit_with_allowance"),
        vec![env, me, me, me, requests.to_val()],
    );
}

pub fn router_pair_for(env: &Env, router: &Address, a: &Address, b: &Address) -> Address {
    env.invoke_contract(
        router,
        &host_symbol(env, b"router_pair_for"),
        vec![env, a.to_val(), b.to_val()],
    )
}

/// `swap_exact_tokens_for_tokens(amount_in, min_out, path, self, deadline)`.
pub fn router_swap(
    env: &Env,
    router: &Address,
    amount_in: i128,
    min_out: i128,
    path: &Vec<Address>,
    deadline: u64,
) {
    env.invoke_contract::<Val>(
        router,
        &host_symbol(env, b"swap_exact_tokens_for_tokens"),
        vec![
            env,
            amount_in.into_val(env),
            min_out.into_val(env),
            path.to_val(),
            env.current_contract_address().to_val(),
            deadline.into_val(env),
        ],
    );
}

/// `swap_exact_amount_in(token_in, amount_in, token_out, min_out, max_price, self)` on a Comet
/// pool, with no price limit (`max_price` = i128::MAX: `min_out` is the floor).
///
/// Comet (CometDEX/comet-contracts-v1, `pull_underlying`) takes the input in two calls of its
/// own: `token_in.approve(user, pool, amount_in, expiration)` with the expiration the ledger
/// sequence rounded up to the next multiple of 100,000, then `transfer_from(pool, user, pool,
/// amount_in)` as the spender. The approve needs the executor's authorisation one call deeper:
/// pre-authorised here for that exact approve; the transfer_from needs only the pool's (the
/// direct caller) and uses up the allowance.
#[inline(never)]
pub fn comet_swap(
    env: &Env,
    pool: &Address,
    token_in: &Address,
    amount_in: i128,
    token_out: &Address,
    min_out: i128,
) {
    let me = env.current_contract_address().to_val();
    let amount: Val = amount_in.into_val(env);
    let expiration = (env.ledger().sequence() / 100_000 + 1) * 100_000;
    let approve: Vec<Val> = vec![env, me, pool.to_val(), amount, expiration.into()];
    authorize_nested(env, token_in, symbol_short!("approve"), approve);
    env.invoke_contract::<Val>(
        pool,
        &host_symbol(env, b"swap_exact_amount_in"),
        vec![
            env,
            token_in.to_val(),
            amount,
            token_out.to_val(),
            min_out.into_val(env),
            i128::MAX.into_val(env),
            me,
        ],
    );
}

/// `add_bond(self, amount)` or `withdraw_bond(self, amount)` on the registry.
pub fn registry_bond(env: &Env, registry: &Address, add: bool, amount: i128) {
    let name: &[u8] = if add { b"add_bond" } else { b"withdraw_bond" };
    env.invoke_contract::<()>(
        registry,
        &host_symbol(env, name),
        vec![
            env,
            env.current_contract_address().to_val(),
            amount.into_val(env),
        ],
    );
}

pub fn registry_venues(env: &Env, registry: &Address) -> Vec<Address> {
    env.invoke_contract(registry, &host_symbol(env, b"get_venues"), Vec::new(env))
}

pub fn pool_reserves(env: &Env, pool: &Address) -> Vec<Address> {
    env.invoke_contract(pool, &host_symbol(env, b"get_reserve_list"), Vec::new(env))
}
