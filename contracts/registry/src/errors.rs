use soroban_sdk::contracterror;

// Registry errors. Codes 200-299; the numbers are part of the public interface and never change.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum RegistryError {
    // Constructor: min_stake <= 0.
    InvalidConfig = 200,
    // `register` for an operator that already has a record.
    AlreadyRegistered = 201,
    // The operator has no record.
    NotRegistered = 202,
    // A vault-only entry point called by anyone but the stored vault.
    Unauthorized = 203,
    // `set_vault` has not been called yet.
    VaultNotSet = 204,
    // `set_vault` called a second time.
    VaultAlreadySet = 205,
    // `deregister` / `withdraw_bond` while the keeper holds pool capital, or `mark_draw` raising
    // a draw.
    DrawOutstanding = 206,
    // `clear_draw` / `slash` for a keeper without an active draw.
    NoActiveDraw = 207,
    // `slash` before more than `slash_timeout` seconds have passed since the draw was marked.
    SlashTooEarly = 208,
    // The operator was slashed once and may not register, draw or add bond again.
    KeeperBanned = 209,
    // Amount <= 0 where a positive amount is required (draw marks, bonds), or negative profit.
    InvalidAmount = 210,
    // Checked arithmetic overflowed.
    Overflow = 211,
    // Name empty or longer than 64 bytes.
    InvalidName = 212,
    // Constructor: slash_rate_bps == 0 or > 5000.
    InvalidSlashRate = 213,
    // Constructor: slash_timeout == 0 or > 7 days.
    InvalidTimeout = 214,
    // `withdraw_bond` would leave less than min_stake.
    BondBelowMinimum = 215,
    // `mark_draw` of a new draw above the keeper's draw_limit.
    BondTooSmall = 216,
    // `get_keepers` with start > keeper_count.
    PageOutOfRange = 217,
    // `get_keepers` with limit 0 or above 200.
    InvalidPageSize = 218,
}
