use soroban_sdk::contracttype;

// Pool books. Invariant: the vault's USDC balance == total_usdc - active_liq.
#[contracttype]
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct VaultState {
    // Pool assets: idle USDC plus capital out with keepers.
    pub total_usdc: i128,
    // All shares, including the 1000 dead shares held by the vault itself.
    pub total_shares: i128,
    // Profit booked from keeper returns (gross; write-downs are not netted here).
    pub total_profit: i128,
    // Capital currently drawn by keepers (two-step draws; a flash draw never outlives its
    // transaction).
    pub active_liq: i128,
    // Profit booked but not yet released to the share price, as of lock_start; it unlocks
    // linearly until lock_end (see unlock.rs).
    pub locked_profit: i128,
    pub lock_start: u64,
    pub lock_end: u64,
    // Shares that depositors asked to withdraw (request_withdraw): two-step draws may not take
    // the idle USDC their value needs.
    pub pending_shares: i128,
}

#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct VaultConfig {
    // Upper bound of total_usdc after a deposit.
    pub deposit_cap: i128,
    // Seconds after a depositor's last deposit before it may withdraw.
    pub withdraw_cooldown: u64,
    // Upper bound of one keeper's draw (flash or two-step).
    pub max_draw_per_keeper: i128,
    // The keeper's share of each fill's gross profit, in basis points (<= 5000), paid in USDC
    // to the keeper by the vault.
    pub keeper_fee_bps: u32,
    // Seconds over which booked profit unlocks into the share price (1 s to 30 days).
    pub profit_unlock_secs: u64,
}

// One depositor's record. The vault's own address holds the dead shares.
#[contracttype]
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct DepositorInfo {
    pub shares: i128,
    // USDC paid in for the shares still held: deposits add the amount, withdrawals remove the
    // withdrawn shares' pro-rata part (floor), a full exit sets it to 0.
    pub cost_basis: i128,
    pub total_deposited: i128,
    pub total_withdrawn: i128,
    // Ledger timestamp of the last deposit (starts the withdraw cooldown).
    pub last_deposit_time: u64,
    // Shares the depositor asked to withdraw (request_withdraw), at most `shares`.
    pub withdraw_request: i128,
}

// Admin pause switches. Withdraw and return_proceeds can never be paused.
#[contracttype]
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct PauseFlags {
    pub deposits: bool,
    pub draws: bool,
}
