#![no_std]
// Amounts are written with 7 decimals split off (`1_000_0000000` = 1,000 units), as Blend does.
#![allow(clippy::inconsistent_digit_grouping)]
//! Constant-product liquidity pair (x * y = k) with a 0.3 % swap fee, in the shape of a
//! Uniswap-v2 / Soroswap pair: tokens are sent to the pair first, then `deposit` / `swap`
//! settle against the recorded reserves. The router (`dex-router`) is the usual caller.

mod contract;
mod errors;
mod events;
pub mod math;
mod storage;

pub use contract::{DexPair, DexPairClient};
pub use errors::PairError;

#[cfg(test)]
mod test;
