use soroban_sdk::contracterror;

// Registry errors. Codes 200-299; the numbers are part of the public interface and never change.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum RegistryError {
    // Constructor or argument outside its allowed range (min_stake <= 0, slash_rate_bps > 10000).
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
    // `deregister` while the keeper still holds pool capital, or `mark_draw` raising a draw.
    DrawOutstanding = 206,
    // `clear_draw` / `slash` for a keeper without an active draw.
    NoActiveDraw = 207,
    // `slash` before more than `slash_timeout` seconds have passed since the draw was marked.
    SlashTooEarly = 208,
    // The operator was slashed once and may not register or draw again.
    KeeperBanned = 209,
    // Amount <= 0 where a positive amount is required, or negative profit.
    InvalidAmount = 210,
    // Checked arithmetic overflowed.
    Overflow = 211,
    // Name empty or longer than 64 bytes.
    InvalidName = 212,
    // `get_keepers` with start > keeper_count.
    PageOutOfRange = 217,
    // `get_keepers` with limit 0 or above 200.
    InvalidPageSize = 218,
}
