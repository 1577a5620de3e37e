use soroban_sdk::{contracttype, Address, BytesN, String};

// Registry parameters, fixed at deployment.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RegistryConfig {
    // USDC (7 decimals) pulled from an operator at `register`, refunded at `deregister`.
    pub min_stake: i128,
    // Seconds a draw may stay outstanding; `slash` needs strictly more than this.
    pub slash_timeout: u64,
    // Penalty share of the current stake on slash, in basis points (1-5000); it also sets how
    // much of the stake backs a draw (`KeeperInfo::draw_limit`).
    pub slash_rate_bps: u32,
    // The USDC token contract (SEP-41) the stake is held in.
    pub usdc_token: Address,
    // Hash of the executor wasm `deploy_executor` deploys (uploaded before the registry).
    pub executor_wasm: BytesN<32>,
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
    // USDC currently staked: min_stake, plus bonds added, less bonds withdrawn and what a slash
    // took.
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
    // USDC taken from the stake by slashes (penalty plus the cover of the outstanding draw).
    pub total_slashed: i128,
    // The operator is an executor this registry deployed from `executor_wasm` (set at
    // `register`).
    pub approved: bool,
    // The largest new draw the vault may mark for this keeper:
    // floor(stake * (10000 - slash_rate_bps) / 10000), recomputed whenever the stake changes.
    pub draw_limit: i128,
}
