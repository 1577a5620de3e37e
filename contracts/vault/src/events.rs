//! Events: the first topic is a short name (at most 9 characters, so it is a compile-time
//! symbol), the `#[topic]` fields follow, the other fields form the data map.
use soroban_sdk::{contractevent, Address};

#[contractevent(topics = ["registry"])]
pub struct RegistrySet {
    pub registry: Address,
}

#[contractevent(topics = ["pause"])]
pub struct PauseChanged {
    pub deposits: bool,
    pub draws: bool,
}

#[contractevent(topics = ["deposit"])]
pub struct Deposited {
    #[topic]
    pub depositor: Address,
    pub amount: i128,
    pub shares: i128,
    // Shares locked with the vault (1000 on the first deposit, else 0).
    pub dead_shares: i128,
}

#[contractevent(topics = ["withdraw"])]
pub struct Withdrawn {
    #[topic]
    pub depositor: Address,
    pub shares: i128,
    pub amount: i128,
}

#[contractevent(topics = ["draw"])]
pub struct Drawn {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
}

#[contractevent(topics = ["return"])]
pub struct ProceedsReturned {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    pub profit: i128,
    // Capital still out after this return (0 = draw closed).
    pub remaining: i128,
    pub response_time_ms: u64,
}

#[contractevent(topics = ["write_off"])]
pub struct DrawWrittenOff {
    #[topic]
    pub keeper: Address,
    // Capital removed from the books.
    pub written_down: i128,
    // Slashed stake received from the registry and booked into total_usdc.
    pub recovered: i128,
}
