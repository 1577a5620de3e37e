//! Events: the first topic is a short name (at most 9 characters, so it is a compile-time
//! symbol), the `#[topic]` fields follow, the other fields form the data map.
use soroban_sdk::{contractevent, Address, String};

#[contractevent(topics = ["vault_set"])]
pub struct VaultSet {
    pub vault: Address,
}

#[contractevent(topics = ["register"])]
pub struct KeeperRegistered {
    #[topic]
    pub operator: Address,
    pub name: String,
    pub stake: i128,
}

#[contractevent(topics = ["dereg"])]
pub struct KeeperDeregistered {
    #[topic]
    pub operator: Address,
    pub refund: i128,
}

// A new draw (`timestamp` = now) or a partial return lowering it (`timestamp` unchanged).
#[contractevent(topics = ["draw_mark"])]
pub struct DrawMarked {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    pub timestamp: u64,
}

#[contractevent(topics = ["draw_clr"])]
pub struct DrawCleared {
    #[topic]
    pub keeper: Address,
}

#[contractevent(topics = ["execution"])]
pub struct ExecutionRecorded {
    #[topic]
    pub keeper: Address,
    pub success: bool,
    pub profit: i128,
    pub response_time_ms: u64,
}

#[contractevent(topics = ["slash"])]
pub struct KeeperSlashed {
    #[topic]
    pub keeper: Address,
    // Stake sent to the vault.
    pub slashed: i128,
    // Drawn capital the vault wrote down.
    pub written_down: i128,
    pub remaining_stake: i128,
}
