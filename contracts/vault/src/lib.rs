#![no_std]
//! Pooled liquidation vault.
//!
//! Depositors pool USDC for shares; registered keepers (see contracts/registry) draw pool
//! capital to fill liquidation auctions and return it with the profit, which accrues to the
//! share price. A keeper that keeps capital past the registry's timeout is slashed and the
//! vault writes the drawn capital down in the same transaction.

mod contract;
mod deposit;
mod draw;
mod errors;
pub mod events;
mod flash;
mod registry;
pub mod share_math;
mod storage;
mod types;
pub mod unlock;

pub use contract::{Vault, VaultArgs, VaultClient, VaultTrait};
pub use errors::VaultError;
pub use types::{DepositorInfo, PauseFlags, VaultConfig, VaultState};
