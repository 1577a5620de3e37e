//! The coordinator: the node's state, ledger close, the pending queue, the clock's use, and
//! what restarts the node elsewhere (snapshots, state files, forks, friendbot).

pub mod admission;
pub mod config;
pub mod core;
pub mod fork_start;
pub mod friendbot;
pub mod queue;
pub mod simulate;
pub mod snapshot;
pub mod state;
