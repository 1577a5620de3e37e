//! The router's view of a pair (the `dex-pair` contract interface).
use soroban_sdk::{contractclient, Address, Env};

#[allow(dead_code)]
#[contractclient(name = "PairClient")]
pub trait PairInterface {
    fn token_0(e: Env) -> Address;
    fn token_1(e: Env) -> Address;
    fn factory(e: Env) -> Address;
    fn get_reserves(e: Env) -> (i128, i128);
    fn deposit(e: Env, to: Address) -> i128;
    fn withdraw(e: Env, from: Address, shares: i128, to: Address) -> (i128, i128);
    fn swap(e: Env, amount_0_out: i128, amount_1_out: i128, to: Address);
}
