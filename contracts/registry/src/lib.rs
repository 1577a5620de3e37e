#![no_std]
//! Keeper registry of the pooled liquidation vault.
//!
//! Keepers stake `min_stake` USDC to register and may bond more; a new draw may be at most the
//! part of the stake a slash leaves after its penalty (`draw_limit`). The vault (and only the
//! vault) marks a keeper's draw of pool capital, clears it on return and records execution
//! statistics. A keeper that keeps a draw longer than `slash_timeout` seconds can be slashed by
//! anyone: the penalty and the cover of the draw go from its stake to the vault and the vault
//! writes the drawn capital down in the same transaction. The registry also deploys approved
//! executors and keeps the list of venues they may use.

mod bond;
mod contract;
mod errors;
pub mod events;
mod execution;
mod executor;
mod keeper;
mod slash;
mod storage;
mod types;
mod vault;

pub use contract::{Registry, RegistryArgs, RegistryClient, RegistryTrait};
pub use errors::RegistryError;
pub use types::{KeeperInfo, RegistryConfig};

#[cfg(test)]
mod test_fixture;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_bond;
#[cfg(test)]
mod tests_exec;
#[cfg(test)]
mod tests_scale;
