//! Events: the first topic is the event name in snake_case (e.g. "keeper_registered"), the
//! `#[topic]` fields follow, the other fields form the data map.
use soroban_sdk::{contractevent, Address, String};

#[contractevent]
pub struct VaultSet {
    pub vault: Address,
}

#[contractevent]
pub struct KeeperRegistered {
    #[topic]
    pub operator: Address,
    pub name: String,
    pub stake: i128,
}

#[contractevent]
pub struct KeeperDeregistered {
    #[topic]
    pub operator: Address,
    pub refund: i128,
}

// A new draw (`timestamp` = now) or a partial return lowering it (`timestamp` unchanged).
#[contractevent]
pub struct DrawMarked {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    pub timestamp: u64,
}

#[contractevent]
pub struct DrawCleared {
    #[topic]
    pub keeper: Address,
}

#[contractevent]
pub struct ExecutionRecorded {
    #[topic]
    pub keeper: Address,
    pub success: bool,
    pub profit: i128,
    pub response_time_ms: u64,
}

#[contractevent]
pub struct KeeperSlashed {
    #[topic]
    pub keeper: Address,
    // Stake sent to the vault.
    pub slashed: i128,
    // Drawn capital the vault wrote down.
    pub written_down: i128,
    pub remaining_stake: i128,
}
