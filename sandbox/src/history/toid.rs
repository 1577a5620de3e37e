//! TOIDs: the ids stellar-rpc gives transactions and events (ledger, order, operation), and
//! pages them by.

pub fn toid(ledger: u32, tx_order: u32, op: u32) -> u64 {
    ((ledger as u64) << 32) | ((tx_order as u64) << 12) | op as u64
}
