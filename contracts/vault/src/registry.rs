//! The part of the registry's interface the vault calls (see contracts/registry).
use soroban_sdk::{contractclient, contracttype, Address, Env, String};

/// Copy of registry::KeeperInfo: the vault decodes what `get_keeper` returns, so the two
/// definitions must stay field-for-field identical (the wasm fixture tests check it).
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct KeeperInfo {
    pub operator: Address,
    pub name: String,
    pub stake: i128,
    pub total_executions: u64,
    pub successful_fills: u64,
    pub total_profit: i128,
    pub avg_response_time_ms: u64,
    pub has_active_draw: bool,
    pub draw_amount: i128,
    pub draw_timestamp: u64,
    pub registered_at: u64,
    pub slashed: bool,
    pub slash_count: u32,
    pub total_slashed: i128,
}

#[allow(dead_code)]
#[contractclient(name = "RegistryClient")]
pub trait RegistryInterface {
    fn get_keeper(env: Env, operator: Address) -> KeeperInfo;
    fn mark_draw(env: Env, vault: Address, keeper: Address, amount: i128);
    fn clear_draw(env: Env, vault: Address, keeper: Address);
    fn record_execution(
        env: Env,
        vault: Address,
        keeper: Address,
        success: bool,
        profit: i128,
        response_time_ms: u64,
    );
}
