//! The ledger state: entries and their TTLs (the store, with a fork's upstream beneath it),
//! the scratch overlay a transaction writes through, network settings and compiled modules.

pub mod entry;
pub mod fork;
pub mod modules;
pub mod network;
pub mod overlay;
pub mod store;
pub mod upstream;
