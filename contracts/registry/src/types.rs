use soroban_sdk::{contracttype, Address, String};

// Registry parameters, fixed at deployment.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RegistryConfig {
    // USDC (7 decimals) pulled from an operator at `register`, refunded at `deregister`.
    pub min_stake: i128,
    // Seconds a draw may stay outstanding; `slash` needs strictly more than this.
    pub slash_timeout: u64,
    // Share of the current stake sent to the vault on slash, in basis points (<= 10000).
    pub slash_rate_bps: u32,
    // The USDC token contract (SEP-41) the stake is held in.
    pub usdc_token: Address,
}

// Everything the registry knows about one keeper.
//
// The vault reads fields of this struct by name from its map encoding
// (`contracts/vault/src/registry.rs`); fields are added at the end.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct KeeperInfo {
    pub operator: Address,
    pub name: String,
    // USDC currently staked (min_stake, less what a slash took).
    pub stake: i128,
    // Completed executions: full returns plus slashes.
    pub total_executions: u64,
    // Executions reported successful by the vault.
    pub successful_fills: u64,
    // Profit (USDC) booked to the pool from this keeper's returns.
    pub total_profit: i128,
    // Running mean of the response times reported with each execution (floor).
    pub avg_response_time_ms: u64,
    pub has_active_draw: bool,
    // Outstanding draw amount (after partial returns), 0 when none.
    pub draw_amount: i128,
    // Ledger timestamp when the current draw was marked; kept through partial returns; 0 when none.
    pub draw_timestamp: u64,
    // Ledger timestamp of `register`.
    pub registered_at: u64,
    // True once slashed: the keeper cannot draw or register again.
    pub slashed: bool,
    pub slash_count: u32,
    // USDC taken from the stake by slashes.
    pub total_slashed: i128,
}
