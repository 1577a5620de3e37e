//! Events: the first topic is the event name in snake_case (e.g. "deposited"), the `#[topic]`
//! fields follow, the other fields form the data map.
use soroban_sdk::{contractevent, Address};

#[contractevent]
pub struct RegistrySet {
    pub registry: Address,
}

#[contractevent]
pub struct PauseChanged {
    pub deposits: bool,
    pub draws: bool,
}

#[contractevent]
pub struct Deposited {
    #[topic]
    pub depositor: Address,
    pub amount: i128,
    pub shares: i128,
    // Shares locked with the vault (1000 on the first deposit, else 0).
    pub dead_shares: i128,
}

#[contractevent]
pub struct Withdrawn {
    #[topic]
    pub depositor: Address,
    pub shares: i128,
    pub amount: i128,
}

#[contractevent]
pub struct Drawn {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
}

#[contractevent]
pub struct ProceedsReturned {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    pub profit: i128,
    // Capital still out after this return (0 = draw closed).
    pub remaining: i128,
    pub response_time_ms: u64,
}

#[contractevent]
pub struct DrawWrittenDown {
    #[topic]
    pub keeper: Address,
    // Capital removed from the books.
    pub written_down: i128,
    // Slashed stake received from the registry and booked into total_usdc.
    pub recovered: i128,
}
