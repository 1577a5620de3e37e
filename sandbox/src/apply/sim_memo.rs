//! The simulation memo: a simulateTransaction request the node has answered against the same
//! state is answered again from memory, without running the host (clients that poll the same
//! read, such as several keepers asking an oracle's `lastprice` each ledger, build byte-identical
//! requests: same zero source account, same sequence number).
//!
//! A simulation is a function of the request's parameters and of the node's state, nothing else:
//! - the ledger entries it reads: the store's generation (store.rs), a number every write to the
//!   store (a transaction applied at close, a temporary entry evicted, a cheat, a snapshot or
//!   state loaded, a revert, a fork attached) replaces with one never used before;
//! - the ledger info it runs with (`next_ledger_info`: sequence, close time (moved by time
//!   travel), protocol, network id, base reserve, the TTL limits);
//! - the network settings in force (compared by identity: a reload makes a new `Arc`, and the
//!   memo holds the one it keyed on, so its address cannot be reused while it is compared);
//! - the node's PRNG seed and network id, which a node keeps for its life (the memo is per node).
//!
//! The memo keeps the answers of the current state only: when any of those changes, every
//! entry goes. So memory is bounded by one ledger's distinct requests, and at most `MAX_ENTRIES`.
//! In fork mode it is off: reads fill the upstream's cache without a store write, and an
//! upstream failure is transient.

use crate::ledger::network::Settings;
use serde_json::Value;
use soroban_env_host::LedgerInfo;
use std::collections::HashMap;
use std::sync::Arc;

/// Answers kept per state at most; past it, further requests are simulated and not kept.
pub const MAX_ENTRIES: usize = 4096;

/// A simulateTransaction request's parameters, as the answer depends on them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MemoRequest {
    pub transaction: String,
    pub auth_mode: Option<String>,
    pub instruction_leeway: Option<u64>,
    pub use_upgraded_auth: bool,
    pub xdr_format: Option<String>,
}

/// What a simulation reads of the node besides the request.
pub struct MemoState {
    /// The store's generation (`Store::generation`).
    pub generation: u64,
    /// The ledger info the simulation runs with (`Node::next_ledger_info`).
    pub ledger: LedgerInfo,
    /// The network settings in force.
    pub settings: Arc<Settings>,
}

impl MemoState {
    fn same(&self, other: &MemoState) -> bool {
        self.generation == other.generation && self.ledger == other.ledger && Arc::ptr_eq(&self.settings, &other.settings)
    }
}

#[derive(Default)]
pub struct SimMemo {
    state: Option<MemoState>,
    answers: HashMap<MemoRequest, Value>,
    /// Requests answered from the memo.
    pub hits: u64,
}

impl SimMemo {
    /// The kept answer to `req` against `state`. A state other than the one the answers were
    /// kept against drops them all first.
    pub fn answer(&mut self, state: MemoState, req: &MemoRequest) -> Option<Value> {
        if !self.state.as_ref().is_some_and(|s| s.same(&state)) {
            self.answers.clear();
            self.state = Some(state);
        }
        let v = self.answers.get(req).cloned();
        if v.is_some() {
            self.hits += 1;
        }
        v
    }

    /// Keeps `v` as the answer to `req` against the state of the last `answer` (up to MAX_ENTRIES).
    pub fn keep(&mut self, req: MemoRequest, v: &Value) {
        if self.answers.len() < MAX_ENTRIES {
            self.answers.insert(req, v.clone());
        }
    }

    /// Answers kept now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.answers.len()
    }
}
