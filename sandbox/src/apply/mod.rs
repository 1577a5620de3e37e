//! Transactions: parsing, validity, fees, tx sets and apply order, applying classic operations
//! and Soroban invocations with their events, and simulation. Reads and writes the ledger.

pub mod apply_order;
pub mod classic;
pub mod classic_events;
pub mod execute;
pub mod fees;
pub mod keys;
pub mod parallel;
pub mod parse;
pub mod refusal;
pub mod replace_by_fee;
pub mod sim_memo;
pub mod simulate;
pub mod soroban;
pub mod tx;
pub mod txset;
