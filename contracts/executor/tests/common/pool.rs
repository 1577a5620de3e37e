//! The mock lending pool of the executor's tests.
use super::{FILL_USER_LIQUIDATION, REPAY, WITHDRAW_COLLATERAL};
use executor::Request;
use soroban_sdk::token::TokenClient;
use soroban_sdk::{contract, contractimpl, symbol_short, Address, Env, IntoVal, Val, Vec};

/// Token movements of Blend v2's `submit_with_allowance(from, spender, to, requests)`: what the
/// requests owe the pool is pulled from `spender` with `transfer_from` (the pool is the
/// allowance's spender), what the pool owes goes to `to` with `transfer`. Repay pulls the
/// request amount, WithdrawCollateral pays it out of the pool's own balance, a fill is counted.
#[contract]
pub struct MockPool;

#[contractimpl]
impl MockPool {
    pub fn submit_with_allowance(
        env: Env,
        from: Address,
        spender: Address,
        to: Address,
        requests: Vec<Request>,
    ) -> Val {
        spender.require_auth();
        if from != spender {
            from.require_auth();
        }
        let me = env.current_contract_address();
        for r in requests.iter() {
            match r.request_type {
                REPAY => {
                    TokenClient::new(&env, &r.address).transfer_from(&me, &spender, &me, &r.amount)
                }
                WITHDRAW_COLLATERAL => {
                    TokenClient::new(&env, &r.address).transfer(&me, &to, &r.amount)
                }
                FILL_USER_LIQUIDATION => {
                    let n: u32 = env
                        .storage()
                        .instance()
                        .get(&symbol_short!("fills"))
                        .unwrap_or(0);
                    env.storage()
                        .instance()
                        .set(&symbol_short!("fills"), &(n + 1));
                }
                _ => panic!("mock pool: unsupported request type {}", r.request_type),
            }
        }
        ().into_val(&env)
    }

    pub fn get_reserve_list(env: Env) -> Vec<Address> {
        env.storage()
            .instance()
            .get(&symbol_short!("reserves"))
            .unwrap_or(Vec::new(&env))
    }

    pub fn set_reserves(env: Env, reserves: Vec<Address>) {
        env.storage()
            .instance()
            .set(&symbol_short!("reserves"), &reserves);
    }

    pub fn fills(env: Env) -> u32 {
        env.storage()
            .instance()
            .get(&symbol_short!("fills"))
            .unwrap_or(0)
    }
}
