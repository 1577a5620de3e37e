//! simulateTransaction through soroban-simulation (the preflight stellar-rpc runs).

use crate::base::xdrjson::XdrFormat;
use crate::ledger::network::Settings;
use crate::ledger::store::Store;
use crate::ledger::store::StoreSnapshot;
use serde_json::{json, Value};
use soroban_env_host::e2e_invoke::RecordingInvocationAuthMode;
use soroban_env_host::xdr::*;
use soroban_simulation::simulation::{
    simulate_extend_ttl_op, simulate_invoke_host_function_op, simulate_restore_op, SimulationAdjustmentConfig,
    SimulationAdjustmentFactor,
};
use soroban_env_host::storage::SnapshotSource;
use soroban_env_host::LedgerInfo;
use soroban_simulation::AutoRestoringSnapshotSource;
use std::rc::Rc;
use std::sync::Arc;

/// What a simulation reads of the node: its latest ledger, network, state, settings and seed.
pub struct SimContext<'a> {
    pub latest: u32,
    pub network_id: [u8; 32],
    pub store: &'a Arc<Store>,
    pub settings: &'a Arc<Settings>,
    pub base_seed: [u8; 32],
}

/// PRNG seed of one simulation: the node's seed, the ledger and the transaction's hash.
pub fn simulation_seed(base_seed: &[u8; 32], seq: u32, tx_hash: &[u8; 32]) -> [u8; 32] {
    crate::base::codec::sha256(&[base_seed.as_slice(), &seq.to_be_bytes(), b"simulate".as_slice(), tx_hash.as_slice()].concat())
}

fn clone_mode(m: &RecordingInvocationAuthMode) -> RecordingInvocationAuthMode {
    match m {
        RecordingInvocationAuthMode::Enforcing(a) => RecordingInvocationAuthMode::Enforcing(a.clone()),
        RecordingInvocationAuthMode::Recording(p) => RecordingInvocationAuthMode::Recording(*p),
    }
}

fn restores_entries(d: &SorobanTransactionData) -> bool {
    matches!(&d.ext, SorobanTransactionDataExt::V1(e) if !e.archived_soroban_entries.is_empty())
}

/// Whether declared resources break the per-transaction network limits.
fn exceeds_limits(d: &SorobanTransactionData, s: &Settings) -> bool {
    let r = &d.resources;
    let fp = &r.footprint;
    r.instructions as i64 > s.compute.tx_max_instructions
        || r.disk_read_bytes > s.ledger_cost.tx_max_disk_read_bytes
        || r.write_bytes > s.ledger_cost.tx_max_write_bytes
        || fp.read_write.len() as u32 > s.ledger_cost.tx_max_write_ledger_entries
        || (fp.read_only.len() + fp.read_write.len()) as u32 > s.ledger_cost_ext.tx_max_footprint_entries
}

pub struct SimulateParams {
    pub transaction: String,
    pub auth_mode: Option<String>,
    pub instruction_leeway: Option<u64>,
    pub use_upgraded_auth: bool,
}

/// Diagnostic events: `events` (base64, always there) or `eventsJson` (left out when there
/// are none, as stellar-rpc's omitempty does).
fn put_events(out: &mut Value, fmt: XdrFormat, events: &[DiagnosticEvent]) {
    if !fmt.is_json() || !events.is_empty() {
        out[fmt.key("events", "eventsJson")] = Value::Array(events.iter().map(|e| fmt.typed(e)).collect());
    }
}

/// One stateChanges item. `before` / `after` are null when absent (and always null with JSON,
/// where `beforeJson` / `afterJson` carry the entries), as stellar-rpc renders them.
fn state_change(fmt: XdrFormat, key: &LedgerKey, before: Option<&LedgerEntry>, after: Option<&LedgerEntry>) -> Value {
    let kind = match (before, after) {
        (None, Some(_)) => "created",
        (Some(_), None) => "deleted",
        _ => "updated",
    };
    let mut v = json!({ "type": kind, fmt.key("key", "keyJson"): fmt.typed(key), "before": null, "after": null });
    if let Some(b) = before {
        v[fmt.key("before", "beforeJson")] = fmt.typed(b);
    }
    if let Some(a) = after {
        v[fmt.key("after", "afterJson")] = fmt.typed(a);
    }
    v
}

/// `transactionData` and `minResourceFee` of a successful simulation (or of its restorePreamble).
fn resources(fmt: XdrFormat, data: &SorobanTransactionData) -> Value {
    json!({ fmt.key("transactionData", "transactionDataJson"): fmt.typed(data), "minResourceFee": data.resource_fee.to_string() })
}

fn adjustments(leeway: Option<u64>) -> SimulationAdjustmentConfig {
    let mut a = SimulationAdjustmentConfig::default_adjustment();
    if let Some(l) = leeway {
        a.instructions = SimulationAdjustmentFactor::new(1.0, l.min(u32::MAX as u64) as u32);
    }
    a
}

/// Returns the stellar-rpc simulateTransaction result object (an `error` field on failure),
/// XDR values in `xdr_format` (the request's `xdrFormat`).
///
/// An envelope that does not decode is an invalid-params error; a transaction that decodes but
/// cannot be simulated answers `{error, latestLedger}`, as stellar-rpc does. So does an unknown
/// `xdrFormat` (with stellar-rpc's message), checked first, as stellar-rpc does.
///
/// `li` is the ledger info the simulation runs with, the node's `next_ledger_info()` read once by
/// the caller (the simulation memo keys on it; on a wall clock a second read may be a second
/// later).
pub fn simulate_as(cx: &SimContext, li: &LedgerInfo, p: SimulateParams, xdr_format: Option<&str>) -> Result<Value, String> {
    let latest = cx.latest;
    let fmt = match XdrFormat::parse(xdr_format) {
        Ok(f) => f,
        Err(e) => return Ok(json!({ "error": e, "latestLedger": latest })),
    };
    // stellar-rpc answers an envelope it cannot decode in the result, not as a JSON-RPC error
    // (cmd/stellar-rpc/internal/methods/simulate_transaction.go).
    let Ok(ptx) = crate::apply::parse::parse(&p.transaction, &cx.network_id) else {
        return Ok(json!({ "error": "Could not unmarshal transaction", "latestLedger": latest }));
    };
    // Fork mode: the host reads entries one at a time; an upstream failure among them is the
    // simulation's error (it names the key and the upstream).
    let upstream = cx.store.upstream();
    upstream.map(|f| f.take_error());
    let result = simulate_parsed(cx, li, ptx, p, fmt);
    let result = match upstream.and_then(|f| f.take_error()) {
        Some(e) => Err(e),
        None => result,
    };
    Ok(result.unwrap_or_else(|e| {
        let mut v = json!({ "error": e, "latestLedger": latest });
        put_events(&mut v, fmt, &[]);
        v
    }))
}

/// stellar-rpc's answer to an ExtendFootprintTtl / RestoreFootprint without SorobanTransactionData.
const NO_FOOTPRINT: &str = "To perform a SimulateTransaction for ExtendFootprintTtl or RestoreFootprint operations, SorobanTransactionData must be provided";

fn simulate_parsed(cx: &SimContext, li: &LedgerInfo, ptx: crate::apply::parse::ParsedTx, p: SimulateParams, fmt: XdrFormat) -> Result<Value, String> {
    let latest = cx.latest;
    // stellar-rpc's checks, in its order and words.
    if ptx.tx.operations.len() != 1 {
        return Err("Transaction contains more than one operation".into());
    }
    if !matches!(ptx.tx.memo, soroban_env_host::xdr::Memo::None) {
        return Err("Transaction contains a memo. Soroban transactions do not support memos.".into());
    }
    let op = &ptx.tx.operations[0];
    let source = op.source_account.as_ref().map(crate::base::codec::muxed_to_account).unwrap_or_else(|| ptx.source());
    let store = cx.store.clone();
    let adj = adjustments(p.instruction_leeway);
    let cfg = &cx.settings.config;
    match &op.body {
        OperationBody::InvokeHostFunction(inv) => {
            let auth_mode = match (p.auth_mode.as_deref(), inv.auth.is_empty()) {
                (Some("enforce"), _) | (None, false) => RecordingInvocationAuthMode::Enforcing(inv.auth.to_vec()),
                (Some("record_allow_nonroot"), _) => RecordingInvocationAuthMode::recording(false, p.use_upgraded_auth),
                (Some("record"), _) | (None, true) => RecordingInvocationAuthMode::recording(true, p.use_upgraded_auth),
                (Some(other), _) => return Err(format!("unknown authMode {other:?}: use enforce, record or record_allow_nonroot")),
            };
            // The host draws recorded auth nonces from this seed. stellar-rpc seeds every
            // simulation at random; here it derives from the transaction (deterministic for a
            // seeded node), so two different transactions simulated in the same ledger for the
            // same signer never get the same nonce.
            let seed = simulation_seed(&cx.base_seed, li.sequence_number, &ptx.inner_hash);
            let run = |snapshot: Rc<dyn SnapshotSource>, auth_mode| {
                simulate_invoke_host_function_op(snapshot, cfg, &adj, li, inv.host_function.clone(), auth_mode, &source, seed, true)
                    .map_err(|e| format!("simulation failed: {e}"))
            };
            let mut r = run(Rc::new(StoreSnapshot(store.clone())), clone_mode(&auth_mode))?;
            // Archived entries are restored by the invocation itself (protocol 23+); only when
            // that makes the transaction exceed the network limits is the restoration split off
            // into a restorePreamble, as stellar-rpc does.
            let mut preamble = None;
            if r.transaction_data.as_ref().is_some_and(|d| restores_entries(d) && exceeds_limits(d, cx.settings)) {
                let auto = Rc::new(AutoRestoringSnapshotSource::new(Rc::new(StoreSnapshot(store)), li).map_err(|e| e.to_string())?);
                r = run(auto.clone(), auth_mode)?;
                preamble = auto.simulate_restore_keys_op(cfg, &adj, li).map_err(|e| format!("restore simulation failed: {e}"))?;
            }
            let (Ok(ret), Some(data)) = (&r.invoke_result, &r.transaction_data) else {
                let msg = match &r.invoke_result {
                    Err(e) => format!("HostError: {e:?}"),
                    Ok(_) => "simulation produced no transaction data".into(),
                };
                let mut out = json!({ "error": msg, "latestLedger": latest });
                put_events(&mut out, fmt, &r.diagnostic_events);
                return Ok(out);
            };
            let state_changes: Vec<Value> = r
                .modified_entries
                .iter()
                .filter_map(|d| {
                    let entry = d.state_after.as_ref().or(d.state_before.as_ref())?;
                    Some(state_change(fmt, &crate::ledger::entry::entry_key(entry), d.state_before.as_ref(), d.state_after.as_ref()))
                })
                .collect();
            let mut result = json!({ fmt.key("xdr", "returnValueJson"): fmt.typed(ret) });
            // `auth` is always there (an empty list included); `authJson` only when non-empty.
            if !fmt.is_json() || !r.auth.is_empty() {
                result[fmt.key("auth", "authJson")] = Value::Array(r.auth.iter().map(|a| fmt.typed(a)).collect());
            }
            let mut out = resources(fmt, data);
            out["latestLedger"] = json!(latest);
            out["results"] = json!([result]);
            out["stateChanges"] = json!(state_changes);
            put_events(&mut out, fmt, &r.diagnostic_events);
            if let Some(p) = preamble {
                out["restorePreamble"] = resources(fmt, &p.transaction_data);
            }
            Ok(out)
        }
        OperationBody::ExtendFootprintTtl(ext) => {
            let keys = ptx.soroban_data().ok_or(NO_FOOTPRINT)?.resources.footprint.read_only.to_vec();
            let r = simulate_extend_ttl_op(&StoreSnapshot(store), cfg, &adj, li, &keys, ext.extend_to)
                .map_err(|e| format!("simulation failed: {e}"))?;
            let mut out = resources(fmt, &r.transaction_data);
            out["latestLedger"] = json!(latest);
            put_events(&mut out, fmt, &[]);
            Ok(out)
        }
        OperationBody::RestoreFootprint(_) => {
            let keys = ptx.soroban_data().ok_or(NO_FOOTPRINT)?.resources.footprint.read_write.to_vec();
            let r = simulate_restore_op(&StoreSnapshot(store), cfg, &adj, li, &keys).map_err(|e| format!("simulation failed: {e}"))?;
            let mut out = resources(fmt, &r.transaction_data);
            out["latestLedger"] = json!(latest);
            put_events(&mut out, fmt, &[]);
            Ok(out)
        }
        // Go's name of the operation type (`OperationTypePayment`).
        other => Err(format!("Transaction contains unsupported operation type: OperationType{}", other.name())),
    }
}

