//! Approved executors: contracts this registry deploys from its executor wasm. A keeper whose
//! operator is one of them is `approved` (the vault lets only those flash-draw).
use soroban_sdk::{vec, Address, BytesN, Env, Val, Vec};

use crate::errors::RegistryError;
use crate::storage;

/// Deploys `config.executor_wasm` at the address derived from this registry and `salt`, with
/// the constructor arguments (owner, vault, usdc, registry), and records it as an executor.
pub fn execute_deploy(
    env: &Env,
    owner: &Address,
    salt: BytesN<32>,
) -> Result<Address, RegistryError> {
    let vault = storage::get_vault(env)?;
    let config = storage::get_config(env);
    let args: Vec<Val> = vec![
        env,
        owner.to_val(),
        vault.to_val(),
        config.usdc_token.to_val(),
        env.current_contract_address().to_val(),
    ];
    // deploy_v2 is deprecated in favour of deploy_contract(ContractExecutable::Wasm(hash), ..),
    // which makes the same host call (create_contract_with_constructor).
    #[allow(deprecated)]
    let executor = env
        .deployer()
        .with_current_contract(salt)
        .deploy_v2(config.executor_wasm, args);
    storage::set_executor(env, &executor);
    Ok(executor)
}
