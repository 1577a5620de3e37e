//! The node's tests that cross layers; support.rs builds nodes, keys and envelopes for them
//! and for the modules' own tests.

pub mod support;
mod classic_events;
mod close;
mod fork;
mod node;
mod parallel;
mod queue;
mod rpc_shapes;
mod sim_memo;
mod snapshot;
mod state;
mod transport;
