//! Anvil-style methods under the `sandbox_` prefix.

use crate::base::errors::{invalid, RpcError};
use crate::base::records::Closed;
use crate::ledger::entry::{entry_key, has_ttl, Stored};
use crate::node::core::Node;
use serde_json::{json, Value};
use soroban_env_host::xdr::{AccountId, LedgerEntry, LedgerKey, Limits, ReadXdr, ScAddress};
use std::sync::Arc;

/// A parameter given by name (`{"count": 3}`) or by position (`[3]`).
fn arg<'a>(p: &'a Value, name: &str) -> Option<&'a Value> {
    match p {
        Value::Object(m) => m.get(name),
        Value::Array(a) => a.first(),
        Value::Null => None,
        v => Some(v),
    }
}

fn u64_arg(p: &Value, name: &str) -> Result<Option<u64>, RpcError> {
    match arg(p, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(|| invalid(format!("{name} must be a non-negative integer"))),
        Some(Value::String(s)) => s.parse().map(Some).map_err(|_| invalid(format!("{name} must be a non-negative integer"))),
        Some(_) => Err(invalid(format!("{name} must be a non-negative integer"))),
    }
}

pub fn dispatch(node: &mut Node, method: &str, p: &Value) -> Result<Value, RpcError> {
    match method {
        "sandbox_closeLedgers" => {
            let n = u64_arg(p, "count")?.unwrap_or(1);
            if n > 100_000 {
                return Err(invalid("count: at most 100000 ledgers per call"));
            }
            let order = p.get("order").filter(|v| !v.is_null());
            let arrived = p.get("arrived").filter(|v| !v.is_null());
            if order.is_some() && arrived.is_some() {
                return Err(invalid("order and arrived: give one (order names what applies, arrived what may be chosen)"));
            }
            if let Some(order) = order {
                if n != 1 {
                    return Err(invalid("order: only with count 1 (it names what the next ledger applies)"));
                }
                let closed = node.close_ordered(&hashes_arg(order, "order")?).map_err(invalid)?;
                return Ok(closed_json(node, &closed));
            }
            if let Some(arrived) = arrived {
                if n != 1 {
                    return Err(invalid("arrived: only with count 1 (it names what reached the network before the next ledger)"));
                }
                let closed = node.close_arrived(&hashes_arg(arrived, "arrived")?).map_err(invalid)?;
                return Ok(closed_json(node, &closed));
            }
            if n == 1 {
                let closed = node.close_ledger_report();
                return Ok(closed_json(node, &closed));
            }
            for _ in 0..n {
                node.close_ledger();
            }
            Ok(json!({ "latestLedger": node.latest().seq }))
        }
        "sandbox_setInstant" => match arg(p, "enabled") {
            Some(Value::Bool(b)) => {
                node.cfg.instant = *b;
                Ok(json!({ "instant": *b }))
            }
            _ => Err(invalid("enabled (true or false) is required")),
        },
        "sandbox_advanceTime" => {
            let s = u64_arg(p, "seconds")?.ok_or_else(|| invalid("seconds is required"))?;
            node.chain.clock.advance(s);
            Ok(json!({ "nextCloseTime": node.chain.clock.now(node.latest().close_time) }))
        }
        "sandbox_setTime" => {
            let t = u64_arg(p, "time")?.ok_or_else(|| invalid("time (unix seconds) is required"))?;
            if t < node.latest().close_time {
                return Err(invalid(format!("time {t} is before the last close time {}: ledger time never goes back", node.latest().close_time)));
            }
            node.chain.clock.set(t);
            Ok(json!({ "nextCloseTime": node.chain.clock.now(node.latest().close_time) }))
        }
        "sandbox_snapshot" => Ok(json!({ "id": node.snapshot() })),
        "sandbox_revert" => {
            let id = u64_arg(p, "id")?.ok_or_else(|| invalid("id is required"))?;
            if !node.revert(id as usize) {
                return Err(invalid(format!("no snapshot with id {id}")));
            }
            Ok(json!({ "reverted": true, "latestLedger": node.latest().seq }))
        }
        "sandbox_dumpState" => {
            let history = match p.get("history") {
                None | Some(Value::Null) => true,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(invalid("history must be true or false")),
            };
            match arg(p, "path").and_then(|v| v.as_str()) {
                Some(path) => {
                    crate::node::state::write_file(node, std::path::Path::new(path), history).map_err(RpcError::Internal)?;
                    Ok(json!({ "path": path, "latestLedger": node.latest().seq }))
                }
                None => Ok(crate::node::state::dump(node, history)),
            }
        }
        "sandbox_loadState" => {
            let seq = if let Some(path) = p.get("path").and_then(|v| v.as_str()) {
                crate::node::state::read_file(node, std::path::Path::new(path)).map_err(invalid)?
            } else {
                let state = p.get("state").filter(|v| !v.is_null()).ok_or_else(|| invalid("give {\"state\": <dump>} or {\"path\": FILE}"))?;
                crate::node::state::load(node, state).map_err(invalid)?
            };
            Ok(json!({ "latestLedger": seq }))
        }
        "sandbox_loadSnapshot" => {
            let path = arg(p, "path").and_then(|v| v.as_str()).ok_or_else(|| invalid("path (a LedgerSnapshot JSON file) is required"))?;
            let (seq, entries) = crate::node::snapshot::load_file(node, std::path::Path::new(path)).map_err(invalid)?;
            Ok(json!({ "latestLedger": seq, "entries": entries }))
        }
        "sandbox_dumpSnapshot" => {
            let path = arg(p, "path").and_then(|v| v.as_str()).ok_or_else(|| invalid("path (where to write the LedgerSnapshot JSON) is required"))?;
            let contracts = strkeys::<ScAddress>(p, "contracts", "a contract address (C...)")?;
            let accounts = strkeys::<AccountId>(p, "accounts", "an account address (G...)")?;
            let n = crate::node::snapshot::dump_file(node, std::path::Path::new(path), &contracts, &accounts).map_err(RpcError::Internal)?;
            Ok(json!({ "path": path, "latestLedger": node.latest().seq, "entries": n }))
        }
        "sandbox_forkStatus" => Ok(node.chain.store.upstream().map(|f| f.status()).unwrap_or(Value::Null)),
        "sandbox_setLedgerEntry" => set_entry(node, p),
        "sandbox_setLedgerLimits" => crate::rpc::limits::set(node, p),
        "sandbox_getLedgerLimits" => Ok(crate::rpc::limits::to_json(&node.ledger_limits())),
        "sandbox_pending" => Ok(node.pending_json()),
        m => Err(RpcError::MethodNotFound(m.to_string())),
    }
}

/// An optional list of strkey addresses (`contracts`, `accounts`).
fn strkeys<T: std::str::FromStr>(p: &Value, name: &str, what: &str) -> Result<Vec<T>, RpcError> {
    match p.get(name) {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| {
                let s = v.as_str().unwrap_or_default();
                s.parse().map_err(|_| invalid(format!("{name}: {v} is not {what}")))
            })
            .collect(),
        Some(_) => Err(invalid(format!("{name} must be an array of strkeys"))),
    }
}

/// `order` / `arrived`: transaction hashes (hex).
fn hashes_arg(v: &Value, name: &str) -> Result<Vec<[u8; 32]>, RpcError> {
    let list = v.as_array().ok_or_else(|| invalid(format!("{name} must be an array of transaction hashes (hex)")))?;
    list.iter()
        .map(|h| {
            let s = h.as_str().ok_or_else(|| invalid(format!("{name}: each hash must be a hex string")))?;
            let bytes = hex::decode(s).map_err(|_| invalid(format!("{name}: {s} is not hex")))?;
            bytes.try_into().map_err(|_| invalid(format!("{name}: {s} is not a 32-byte hash")))
        })
        .collect()
}

/// The answer of a one-ledger `sandbox_closeLedgers`.
fn closed_json(node: &Node, c: &Closed) -> Value {
    let hex = |hs: &[[u8; 32]]| hs.iter().map(hex::encode).collect::<Vec<_>>();
    json!({
        "latestLedger": c.seq,
        "applied": hex(&c.applied),
        "dropped": hex(&c.dropped),
        "baseFee": c.base_fee,
        "surged": c.surged,
        "held": node.pending.len(),
    })
}

/// Writes (or with `{"key", "delete": true}` removes) one ledger entry directly.
fn set_entry(node: &mut Node, p: &Value) -> Result<Value, RpcError> {
    let seq = node.latest().seq;
    if p.get("delete").and_then(|d| d.as_bool()) == Some(true) {
        let k = p.get("key").and_then(|k| k.as_str()).ok_or_else(|| invalid("key (LedgerKey XDR) is required with delete"))?;
        let key = LedgerKey::from_xdr_base64(k, Limits::none()).map_err(|e| invalid(format!("key is not LedgerKey XDR: {e}")))?;
        Arc::make_mut(&mut node.chain.store).remove(&key);
        return Ok(json!({ "deleted": true }));
    }
    let e = p.get("entry").and_then(|e| e.as_str()).ok_or_else(|| invalid("entry (LedgerEntry XDR, base64) is required"))?;
    let mut entry = LedgerEntry::from_xdr_base64(e, Limits::none()).map_err(|e| invalid(format!("entry is not LedgerEntry XDR: {e}")))?;
    entry.last_modified_ledger_seq = seq;
    let key = entry_key(&entry);
    let live_until = if has_ttl(&key) {
        let min = node.settings.config.min_persistent_entry_ttl;
        Some(match p.get("liveUntilLedgerSeq").and_then(|v| v.as_u64()) {
            Some(l) => l as u32,
            None => node.chain.store.get(&key).and_then(|s| s.live_until).unwrap_or(seq + min - 1),
        })
    } else {
        None
    };
    let is_setting = matches!(key, LedgerKey::ConfigSetting(_));
    if let soroban_env_host::xdr::LedgerEntryData::ContractCode(c) = &entry.data {
        crate::ledger::modules::add(&node.modules, &[c.code.to_vec()]);
    }
    Arc::make_mut(&mut node.chain.store).put(key.clone(), Stored { entry, live_until });
    if is_setting {
        node.reload_settings().map_err(invalid)?;
    }
    Ok(json!({ "key": crate::base::codec::b64(&key), "liveUntilLedgerSeq": live_until }))
}
