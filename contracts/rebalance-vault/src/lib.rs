#![no_std]
// Amounts are written with 7 decimals split off (`1_000_0000000` = 1,000 units), as Blend does.
#![allow(clippy::inconsistent_digit_grouping)]
//! Rebalance-vault fixture: an external vault that holds several tokens with target weights
//! (basis points) and lets its authorized rebalancer move its OWN funds back to the targets
//! through a Soroswap-interface router. Prices come from a SEP-40 oracle when one is
//! configured, else from fixed prices the admin sets. Every token is assumed to have 7
//! decimals (Stellar classic assets); prices have 7 decimals.

mod contract;
mod errors;
mod events;
mod external;
mod plan;
mod storage;

pub use contract::{RebalanceVault, RebalanceVaultClient};
pub use errors::RebalanceError;
pub use storage::{AssetDrift, DriftReport, VaultConfig};

#[cfg(test)]
mod test;
