//! Interfaces the vault calls: the router (Soroswap) and a SEP-40 oracle.
use soroban_sdk::{contractclient, contracttype, Address, Env, Symbol, Vec};

#[allow(dead_code)]
#[contractclient(name = "RouterClient")]
pub trait RouterInterface {
    fn router_pair_for(e: Env, token_a: Address, token_b: Address) -> Address;
    fn router_get_amounts_out(e: Env, amount_in: i128, path: Vec<Address>) -> Vec<i128>;
    fn swap_exact_tokens_for_tokens(
        e: Env,
        amount_in: i128,
        amount_out_min: i128,
        path: Vec<Address>,
        to: Address,
        deadline: u64,
    ) -> Vec<i128>;
}

/// SEP-40 asset key.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Asset {
    Stellar(Address),
    Other(Symbol),
}

#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct PriceData {
    pub price: i128,
    pub timestamp: u64,
}

#[allow(dead_code)]
#[contractclient(name = "OracleClient")]
pub trait OracleInterface {
    fn decimals(e: Env) -> u32;
    fn lastprice(e: Env, asset: Asset) -> Option<PriceData>;
}
