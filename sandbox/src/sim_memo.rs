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

use crate::network::Settings;
use crate::node::Node;
use crate::simulate::{simulate_as, SimulateParams};
use serde_json::Value;
use soroban_env_host::LedgerInfo;
use std::collections::HashMap;
use std::sync::Arc;

/// Answers kept per state at most; past it, further requests are simulated and not kept.
pub const MAX_ENTRIES: usize = 4096;

/// A simulateTransaction request's parameters, as the answer depends on them.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Request {
    transaction: String,
    auth_mode: Option<String>,
    instruction_leeway: Option<u64>,
    use_upgraded_auth: bool,
    xdr_format: Option<String>,
}

/// What a simulation reads of the node besides the request.
struct State {
    generation: u64,
    ledger: LedgerInfo,
    settings: Arc<Settings>,
}

impl State {
    fn of(node: &Node, ledger: LedgerInfo) -> State {
        State { generation: node.chain.store.generation(), ledger, settings: node.settings.clone() }
    }

    fn same(&self, other: &State) -> bool {
        self.generation == other.generation && self.ledger == other.ledger && Arc::ptr_eq(&self.settings, &other.settings)
    }
}

#[derive(Default)]
pub struct SimMemo {
    state: Option<State>,
    answers: HashMap<Request, Value>,
    /// Requests answered from the memo.
    pub hits: u64,
}

#[cfg(test)]
impl SimMemo {
    /// Answers kept now.
    pub fn len(&self) -> usize {
        self.answers.len()
    }
}

impl Node {
    /// simulateTransaction requests answered from the simulation memo.
    #[allow(dead_code)]
    pub fn simulation_memo_hits(&self) -> u64 {
        self.sim_memo.hits
    }
}

/// simulateTransaction through the memo (unless `--no-simulation-memo` or fork mode): the
/// stored answer of an identical request against the same state, else a simulation.
pub fn simulate(node: &mut Node, p: SimulateParams, xdr_format: Option<String>) -> Result<Value, String> {
    let li = node.next_ledger_info();
    if !node.cfg.simulation_memo || node.chain.store.upstream().is_some() {
        return simulate_as(node, &li, p, xdr_format.as_deref());
    }
    let state = State::of(node, li.clone());
    let memo = &mut node.sim_memo;
    if !memo.state.as_ref().is_some_and(|s| s.same(&state)) {
        memo.answers.clear();
        memo.state = Some(state);
    }
    let req = Request {
        transaction: p.transaction.clone(),
        auth_mode: p.auth_mode.clone(),
        instruction_leeway: p.instruction_leeway,
        use_upgraded_auth: p.use_upgraded_auth,
        xdr_format,
    };
    if let Some(v) = memo.answers.get(&req) {
        memo.hits += 1;
        return Ok(v.clone());
    }
    // An Err (an envelope that does not decode) is not kept: it is cheap to find again. An
    // answer with an `error` field is kept: outside fork mode nothing transient goes into it
    // (no network read), so a trap, an auth failure or a budget overrun is the same for the
    // same request against the same state, as every other answer is.
    let v = simulate_as(node, &li, p, req.xdr_format.as_deref())?;
    let memo = &mut node.sim_memo;
    if memo.answers.len() < MAX_ENTRIES {
        memo.answers.insert(req, v.clone());
    }
    Ok(v)
}
