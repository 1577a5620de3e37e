//! simulateTransaction on the node: its current state, through the simulation memo.

use crate::apply::simulate::{simulate_as, SimContext, SimulateParams};
use crate::node::core::Node;
use serde_json::Value;

impl Node {
    /// What a simulation reads of this node.
    pub fn sim_context(&self) -> SimContext<'_> {
        SimContext {
            latest: self.latest().seq,
            network_id: self.network_id,
            store: &self.chain.store,
            settings: &self.settings,
            base_seed: self.base_seed,
        }
    }
}

/// simulate_as with base64 XDR.
#[cfg(test)]
pub fn simulate(node: &Node, p: SimulateParams) -> Result<Value, String> {
    simulate_as(&node.sim_context(), &node.next_ledger_info(), p, None)
}

/// simulateTransaction through the node's memo (sim_memo.rs) unless `--no-simulation-memo` or
/// fork mode: the kept answer of an identical request against the same state, else a simulation.
pub fn simulate_memoized(node: &mut Node, p: SimulateParams, xdr_format: Option<String>) -> Result<Value, String> {
    use crate::apply::sim_memo::{MemoRequest, MemoState};
    let li = node.next_ledger_info();
    if !node.cfg.simulation_memo || node.chain.store.upstream().is_some() {
        return simulate_as(&node.sim_context(), &li, p, xdr_format.as_deref());
    }
    let state = MemoState { generation: node.chain.store.generation(), ledger: li.clone(), settings: node.settings.clone() };
    let req = MemoRequest {
        transaction: p.transaction.clone(),
        auth_mode: p.auth_mode.clone(),
        instruction_leeway: p.instruction_leeway,
        use_upgraded_auth: p.use_upgraded_auth,
        xdr_format,
    };
    if let Some(v) = node.sim_memo.answer(state, &req) {
        return Ok(v);
    }
    // An answer with an `error` field is kept too: outside fork mode nothing transient goes into
    // it (no network read), so an envelope that does not decode, a trap, an auth failure or a
    // budget overrun is the same for the same request against the same state, as every other
    // answer is.
    let v = simulate_as(&node.sim_context(), &li, p, req.xdr_format.as_deref())?;
    node.sim_memo.keep(req, &v);
    Ok(v)
}
