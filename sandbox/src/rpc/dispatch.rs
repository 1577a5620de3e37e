//! JSON-RPC dispatch: the request enum (the wire contract) and the Stellar RPC methods.

use crate::apply::refusal::Refusal;
use crate::base::codec::b64;
use crate::base::errors::{invalid, verbatim, RpcError, INVALID_PARAMS};
use crate::node::core::Node;
use crate::rpc::formats::{format_param, tx_json};
use crate::rpc::params::parse;
pub use crate::rpc::params::{EventsReq, HashReq, KeysReq, RangeReq, SimulateReq, TxReq};
use crate::apply::simulate::SimulateParams;
use serde_json::{json, Value};
use soroban_env_host::xdr::{
    LedgerKey, Limits, ReadXdr,
};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

pub struct Ctx {
    pub node: Mutex<Node>,
    pub base_url: String,
    /// Per method: requests answered and the time each held the node (`sandbox_requestStats`).
    pub stats: Mutex<BTreeMap<String, MethodStats>>,
}

#[derive(Default, Clone, Copy)]
pub struct MethodStats {
    pub count: u64,
    pub nanos: u128,
}

impl Ctx {
    pub fn new(node: Node, base_url: String) -> Ctx {
        Ctx { node: Mutex::new(node), base_url, stats: Mutex::new(BTreeMap::new()) }
    }

    /// `sandbox_requestStats`: per method, the requests answered and the milliseconds they held
    /// the node, since it started (or since the last call with `{"reset": true}`).
    fn request_stats(&self, p: &Value) -> Value {
        let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        let out: serde_json::Map<String, Value> =
            stats.iter().map(|(m, s)| (m.clone(), json!({ "count": s.count, "ms": s.nanos as f64 / 1e6 }))).collect();
        if p.get("reset").and_then(|r| r.as_bool()) == Some(true) {
            stats.clear();
        }
        Value::Object(out)
    }

    /// The node, even after a request panicked while holding it (that request failed; the
    /// state it left is still the best there is).
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Node> {
        self.node.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn friendbot_url(&self) -> String {
        format!("{}/friendbot", self.base_url)
    }
}

/// Every method the node answers, with its parameters.
pub enum Request {
    GetHealth,
    GetNetwork,
    GetVersionInfo,
    GetLatestLedger,
    GetFeeStats,
    GetLedgerEntries(KeysReq),
    GetLedgers(RangeReq),
    SimulateTransaction(SimulateReq),
    SendTransaction(TxReq),
    GetTransaction(HashReq),
    GetTransactions(RangeReq),
    GetEvents(EventsReq),
    Cheat(String, Value),
}

impl Request {
    pub fn parse(method: &str, p: &Value) -> Result<Request, RpcError> {
        Ok(match method {
            "getHealth" => Request::GetHealth,
            "getNetwork" => Request::GetNetwork,
            "getVersionInfo" => Request::GetVersionInfo,
            "getLatestLedger" => Request::GetLatestLedger,
            "getFeeStats" => Request::GetFeeStats,
            "getLedgerEntries" => Request::GetLedgerEntries(parse(p, &["keys"])?),
            "getLedgers" => Request::GetLedgers(parse(p, &[])?),
            "simulateTransaction" => Request::SimulateTransaction(parse(p, &["transaction"])?),
            "sendTransaction" => Request::SendTransaction(parse(p, &["transaction"])?),
            "getTransaction" => Request::GetTransaction(parse(p, &["hash"])?),
            "getTransactions" => Request::GetTransactions(parse(p, &[])?),
            "getEvents" => Request::GetEvents(parse(p, &[])?),
            m if m.starts_with("sandbox_") => Request::Cheat(m.to_string(), p.clone()),
            m => return Err(RpcError::MethodNotFound(m.to_string())),
        })
    }
}

/// Handles one JSON-RPC request object.
pub fn handle(ctx: &Ctx, req: &Value) -> Value {
    let id = req.get("id").cloned().unwrap_or(Value::Null);
    let Some(method) = req.get("method").and_then(|m| m.as_str()) else {
        return RpcError::InvalidRequest("missing method".into()).to_json(&id);
    };
    let p = req.get("params").cloned().unwrap_or(Value::Null);
    if method == "sandbox_requestStats" {
        return json!({ "jsonrpc": "2.0", "id": id, "result": ctx.request_stats(&p) });
    }
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Request::parse(method, &p).and_then(|r| dispatch(ctx, method, r))))
        .unwrap_or_else(|_| Err(RpcError::Internal(format!("{method} panicked; the node keeps running"))));
    match result {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": v }),
        Err(e) => e.to_json(&id),
    }
}

pub fn dispatch(ctx: &Ctx, method: &str, r: Request) -> Result<Value, RpcError> {
    let mut node = ctx.lock();
    let started = Instant::now();
    let out = answer(ctx, &mut node, r);
    let held = started.elapsed().as_nanos();
    drop(node);
    let mut stats = ctx.stats.lock().unwrap_or_else(|e| e.into_inner());
    let s = stats.entry(method.to_string()).or_default();
    s.count += 1;
    s.nanos += held;
    out
}

fn answer(ctx: &Ctx, node: &mut Node, r: Request) -> Result<Value, RpcError> {
    match r {
        Request::GetHealth => Ok(json!({
            "status": "healthy",
            "latestLedger": node.latest().seq,
            "latestLedgerCloseTime": node.latest().close_time.to_string(),
            "oldestLedger": node.oldest().seq,
            "oldestLedgerCloseTime": node.oldest().close_time.to_string(),
            "ledgerRetentionWindow": node.cfg.retention_window,
        })),
        Request::GetNetwork => Ok(json!({
            "friendbotUrl": ctx.friendbot_url(),
            "passphrase": node.cfg.passphrase,
            "protocolVersion": crate::base::protocol::PROTOCOL_VERSION,
        })),
        Request::GetVersionInfo => Ok(json!({
            "version": concat!("sandbox-", env!("CARGO_PKG_VERSION")),
            "commitHash": env!("SANDBOX_COMMIT_HASH"),
            "buildTimestamp": build_timestamp(),
            "captiveCoreVersion": "soroban-env-host 28.0.2 (no stellar-core)",
            "protocolVersion": crate::base::protocol::PROTOCOL_VERSION,
        })),
        Request::GetLatestLedger => {
            let l = node.latest();
            Ok(json!({
                "id": hex::encode(l.hash),
                "sequence": l.seq,
                "protocolVersion": crate::base::protocol::PROTOCOL_VERSION,
                "closeTime": l.close_time.to_string(),
                "headerXdr": b64(&l.header),
                "metadataXdr": l.meta_b64,
            }))
        }
        Request::GetFeeStats => Ok(crate::history::feestats::get_fee_stats(&node.chain.ledgers)),
        Request::GetLedgerEntries(r) => ledger_entries(node, r),
        Request::GetLedgers(r) => crate::rpc::history::get_ledgers(node, r),
        Request::SimulateTransaction(s) => crate::node::simulate::simulate_memoized(
            node,
            SimulateParams {
                transaction: s.transaction,
                auth_mode: s.auth_mode,
                instruction_leeway: s.resource_config.and_then(|c| c.instruction_leeway),
                use_upgraded_auth: s.use_upgraded_auth,
            },
            s.xdr_format,
        )
        .map_err(invalid),
        Request::SendTransaction(r) => send(node, r),
        Request::GetTransaction(r) => get_transaction(node, r),
        Request::GetTransactions(r) => crate::rpc::history::get_transactions(node, r),
        Request::GetEvents(r) => crate::rpc::events::get_events(node, r),
        Request::Cheat(m, p) => crate::rpc::cheats::dispatch(node, &m, &p),
    }
}

/// When the binary was built (UTC, stellar-rpc's `date '+%Y-%m-%dT%H:%M:%S'` layout).
fn build_timestamp() -> String {
    let t: u64 = env!("SANDBOX_BUILD_UNIX").parse().unwrap_or(0);
    crate::rpc::events::rfc3339(t).trim_end_matches('Z').to_string()
}

/// getLedgerEntries' key limit (`getLedgerEntriesMaxKeys` in stellar-rpc).
const MAX_LEDGER_KEYS: usize = 200;

fn ledger_entries(node: &Node, r: KeysReq) -> Result<Value, RpcError> {
    let fmt = format_param(&r.xdr_format)?;
    // stellar-rpc's checks and messages (cmd/stellar-rpc/internal/methods/get_ledger_entries.go).
    if r.keys.len() > MAX_LEDGER_KEYS {
        return Err(verbatim(INVALID_PARAMS, format!("key count ({}) exceeds maximum supported ({MAX_LEDGER_KEYS})", r.keys.len())));
    }
    let mut keys = vec![];
    for (i, k) in r.keys.iter().enumerate() {
        let key = LedgerKey::from_xdr_base64(k, Limits::len(1 << 20)).map_err(|_| verbatim(INVALID_PARAMS, format!("cannot unmarshal key value {k} at index {i}")))?;
        // A TTL is served with its entry (`liveUntilLedgerSeq`), never on its own.
        if matches!(key, LedgerKey::Ttl(_)) {
            return Err(verbatim(INVALID_PARAMS, "ledger ttl entries cannot be queried directly"));
        }
        keys.push(key);
    }
    let store = &node.chain.store;
    let entries = store.lookup_many(&keys).map_err(RpcError::Internal)?;
    let mut out = vec![];
    for ((k, key), stored) in r.keys.iter().zip(&keys).zip(entries) {
        if let Some((entry, live_until)) = stored.map(|s| (s.entry, s.live_until)) {
            let key_v = if fmt.is_json() { fmt.typed(key) } else { json!(k) };
            let mut v = json!({
                fmt.key("key", "keyJson"): key_v,
                fmt.key("xdr", "dataJson"): fmt.typed(&entry.data),
                fmt.key("extXdr", "extJson"): fmt.typed(&entry.ext),
                "lastModifiedLedgerSeq": entry.last_modified_ledger_seq,
            });
            if let Some(l) = live_until {
                v["liveUntilLedgerSeq"] = json!(l);
            }
            out.push(v);
        }
    }
    Ok(json!({ "entries": out, "latestLedger": node.latest().seq }))
}

fn send(node: &mut Node, r: TxReq) -> Result<Value, RpcError> {
    let fmt = format_param(&r.xdr_format)?;
    // An envelope that does not decode is stellar-rpc's `invalid_xdr` (methods/send_transaction.go).
    let ptx = crate::apply::parse::parse(&r.transaction, &node.network_id).map_err(|_| verbatim(INVALID_PARAMS, "invalid_xdr"))?;
    let hash = hex::encode(ptx.hash);
    let latest = node.latest().clone();
    let base = json!({ "hash": hash, "latestLedger": latest.seq, "latestLedgerCloseTime": latest.close_time.to_string() });
    let dup = node.is_duplicate(&ptx);
    let mut v = base;
    if dup {
        v["status"] = json!("DUPLICATE");
        return Ok(v);
    }
    // Fork mode: what the transaction reads is fetched now, so a failing upstream refuses it
    // here rather than in the ledger that applies it.
    node.chain.store.prefetch(&crate::apply::keys::tx_keys(&ptx)).map_err(RpcError::Internal)?;
    match node.submit(ptx) {
        Ok(()) => {
            v["status"] = json!("PENDING");
            if node.cfg.instant {
                node.close_ledger();
            }
        }
        // stellar-rpc's sendTransaction (cmd/stellar-rpc/internal/methods/send_transaction.go)
        // answers TRY_AGAIN_LATER with hash, status and the latest ledger only.
        Err(Refusal::TryAgainLater) => v["status"] = json!("TRY_AGAIN_LATER"),
        Err(Refusal::Error(result)) => {
            v["status"] = json!("ERROR");
            v[fmt.key("errorResultXdr", "errorResultJson")] = fmt.typed(&result);
        }
    }
    Ok(v)
}

fn get_transaction(node: &Node, r: HashReq) -> Result<Value, RpcError> {
    let fmt = format_param(&r.xdr_format)?;
    let hash = r.hash.as_str();
    // stellar-rpc's checks and messages (cmd/stellar-rpc/internal/methods/get_transaction.go).
    if hash.len() != 64 {
        return Err(verbatim(INVALID_PARAMS, format!("unexpected hash length ({})", hash.len())));
    }
    let bytes: [u8; 32] = hex::decode(hash)
        .map_err(|e| verbatim(INVALID_PARAMS, format!("incorrect hash: {e}")))?
        .try_into()
        .map_err(|_| verbatim(INVALID_PARAMS, format!("unexpected hash length ({})", hash.len())))?;
    let (latest, oldest) = (node.latest(), node.oldest());
    let mut v = match node.chain.txs.get(&bytes) {
        Some(r) => {
            let mut v = tx_json(r, fmt)?;
            v["createdAt"] = json!(r.close_time.to_string());
            v
        }
        // stellar-rpc's NOT_FOUND carries the zero values of the fields Go does not omit
        // (TransactionDetails and createdAt in go-stellar-sdk protocols/rpc).
        None => json!({ "status": "NOT_FOUND", "txHash": hash, "applicationOrder": 0, "feeBump": false, "ledger": 0, "createdAt": "0" }),
    };
    v["latestLedger"] = json!(latest.seq);
    v["latestLedgerCloseTime"] = json!(latest.close_time.to_string());
    v["oldestLedger"] = json!(oldest.seq);
    v["oldestLedgerCloseTime"] = json!(oldest.close_time.to_string());
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::xdrjson::XdrFormat;

    #[test]
    fn parses_methods_and_params() {
        assert!(matches!(Request::parse("getHealth", &Value::Null), Ok(Request::GetHealth)));
        let r = Request::parse("getLedgerEntries", &json!({ "keys": ["AAAA"], "xdrFormat": "json" })).ok().unwrap();
        assert!(matches!(r, Request::GetLedgerEntries(k) if k.keys == vec!["AAAA".to_string()] && k.xdr_format.as_deref() == Some("json")));
        let r = Request::parse("simulateTransaction", &json!({ "transaction": "x", "authMode": "record", "resourceConfig": { "instructionLeeway": 5 } })).ok().unwrap();
        let Request::SimulateTransaction(s) = r else { panic!() };
        assert_eq!(s.auth_mode.as_deref(), Some("record"));
        assert_eq!(s.resource_config.and_then(|c| c.instruction_leeway), Some(5));
        let r = Request::parse("getEvents", &json!({ "startLedger": 3, "filters": [{ "type": "contract", "topics": [["*", "**"]] }], "pagination": { "limit": 2 } })).ok().unwrap();
        let Request::GetEvents(e) = r else { panic!() };
        assert_eq!(e.filters[0].topics[0], vec!["*".to_string(), "**".to_string()]);
        assert!(matches!(Request::parse("sandbox_snapshot", &Value::Null), Ok(Request::Cheat(m, _)) if m == "sandbox_snapshot"));
    }

    #[test]
    fn rejects_unknown_methods_and_bad_params() {
        assert_eq!(Request::parse("eth_call", &Value::Null).err().map(|e| e.code()), Some(-32601));
        assert_eq!(Request::parse("sendTransaction", &json!({})).err().map(|e| e.code()), Some(-32602));
        assert_eq!(Request::parse("getTransaction", &json!({ "hash": 5 })).err().map(|e| e.code()), Some(-32602));
        assert_eq!(Request::parse("getTransaction", &json!({ "hash": null })).err(), Some(invalid("hash is required")));
        assert_eq!(Request::parse("getLedgerEntries", &Value::Null).err(), Some(invalid("keys is required")));
    }

    #[test]
    fn refuses_an_unknown_xdr_format_with_stellar_rpcs_error() {
        let e = format_param(&Some("xml".into())).err().unwrap().to_json(&json!(1));
        assert_eq!(e["error"], json!({ "code": -32602, "message": "got 'xml': expected base64, json for optional 'xdrFormat'" }));
        assert_eq!(format_param(&None).ok(), Some(XdrFormat::Base64));
        assert_eq!(format_param(&Some(String::new())).ok(), Some(XdrFormat::Base64));
    }
}
