use soroban_sdk::contracterror;

// Vault errors. Codes 100-199; the numbers are part of the public interface and never change.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum VaultError {
    // Constructor configuration out of range (deposit_cap <= 0, max_draw_per_keeper <= 0).
    InvalidConfig = 100,
    // The registry address is not stored yet (`set_registry`).
    NotInit = 101,
    // `set_registry` called a second time.
    AlreadyInit = 102,
    // Amount or shares <= 0.
    InvalidAmount = 103,
    // A deposit that would mint no shares for the depositor.
    ZeroShares = 104,
    // Shares exist but the pool holds no assets: shares cannot be priced.
    PoolInsolvent = 105,
    // Checked arithmetic overflowed.
    Overflow = 106,
    // total_usdc + amount would exceed deposit_cap.
    DepositCapExceeded = 107,
    // withdraw before last_deposit_time + withdraw_cooldown.
    CooldownActive = 108,
    // withdraw of more shares than the depositor holds.
    InsufficientShares = 109,
    // The vault's idle USDC (total_usdc - active_liq) does not cover the request.
    InsufficientLiquidity = 110,
    DepositsPaused = 111,
    DrawsPaused = 112,
    // draw above max_draw_per_keeper.
    DrawCapExceeded = 113,
    // The keeper already holds a draw: one outstanding draw per keeper.
    DrawOutstanding = 114,
    // return_proceeds / write_off for a keeper without an outstanding draw.
    NoActiveDraw = 115,
    // The registry reports the keeper as slashed.
    KeeperSlashed = 116,
    // write_off from anyone but the stored registry.
    Unauthorized = 117,
    // A withdraw whose shares are worth 0 USDC (the shares are kept).
    ZeroAssets = 118,
    // Constructor: withdraw_cooldown above 30 days.
    InvalidCooldown = 119,
    // Constructor: keeper_fee_bps above 5000.
    InvalidKeeperFee = 120,
    // Constructor: profit_unlock_secs of 0 or above 30 days.
    InvalidUnlockPeriod = 121,
    // flash_draw by a keeper that is not an executor deployed by the registry.
    NotApprovedExecutor = 122,
    // A flash draw whose receiver returned less than the principal.
    FlashNotRepaid = 123,
    // A two-step draw that would take idle USDC that requested withdrawals need.
    WithdrawalPending = 124,
}
