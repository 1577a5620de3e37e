#![no_std]
//! Per-keeper executor: the atomic liquidation path.
//!
//! Soroban forbids re-entry into a contract, so the vault's `draw`, the lending pool's fill,
//! the DEX swap of the seized collateral and the vault's `return_proceeds` can only happen in
//! one transaction when a contract other than the vault sequences them. The executor is that
//! contract: it is itself the registered keeper (it stakes and registers in the registry), and
//! its owner (the keeper operator's account) drives it. The owner sends `vault.flash_draw(
//! executor, amount, call)`; the vault lends and calls `on_flash` back, and the executor fills,
//! sells everything the fill paid and gives all the USDC gained to the vault. Nothing is ever
//! outstanding after a flash draw: either the vault gets at least its principal back in the same
//! invocation, or the whole transaction reverts. The registry deploys executors from the wasm
//! it approves, so the vault knows this is the code it lends to.
//!
//! The two-step proxy (`draw` / `return_proceeds`) lets the same registered keeper serve
//! adapters that draw and return across ledgers, and recover a stale draw.

mod contract;
mod errors;
mod external;
mod liquidate;
mod storage;
mod types;

pub use contract::{Executor, ExecutorArgs, ExecutorClient, ExecutorTrait};
pub use errors::ExecutorError;
pub use types::{FlashCall, Request, Swap, SwapVenue};
