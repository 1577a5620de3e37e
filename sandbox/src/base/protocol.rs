//! The protocol and the network constants the node runs with.

pub const PROTOCOL_VERSION: u32 = 28;
pub const BASE_FEE: u32 = 100;
pub const BASE_RESERVE: u32 = 5_000_000;
/// The ledger header's max_tx_set_size (operations of the classic phase) at genesis.
pub const MAX_TX_SET_SIZE: u32 = 1000;
