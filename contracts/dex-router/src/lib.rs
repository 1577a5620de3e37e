#![no_std]
// Amounts are written with 7 decimals split off (`1_000_0000000` = 1,000 units), as Blend does.
#![allow(clippy::inconsistent_digit_grouping)]
//! Router over constant-product pairs with the Soroswap router interface:
//! `swap_exact_tokens_for_tokens`, `swap_tokens_for_exact_tokens`, `router_get_amounts_out`,
//! `router_get_amounts_in`, `add_liquidity`, `remove_liquidity`. The router is also the pair
//! factory (`create_pair` deploys the pair wasm; `register_pair` adopts a deployed one).
//! `set_paused` (admin) makes the whole venue refuse swaps and quotes, so that a client's
//! fallback to another router can be exercised.

mod contract;
mod errors;
mod events;
/// The pair's constant-product math, compiled into the router from the one source file.
#[path = "../../dex-pair/src/math.rs"]
pub mod math;
mod pair;
mod storage;

pub use contract::{DexRouter, DexRouterClient};
pub use errors::RouterError;

#[cfg(test)]
mod test;
