//! The part of the vault's interface the registry calls (see contracts/vault).
use soroban_sdk::{contractclient, Address, Env};

#[allow(dead_code)]
#[contractclient(name = "VaultClient")]
pub trait VaultInterface {
    /// Writes the keeper's outstanding draw off the vault's books and books `recovered`
    /// (already transferred to the vault) into its assets. Returns the amount written down.
    fn write_off(env: Env, registry: Address, keeper: Address, recovered: i128) -> i128;
}
