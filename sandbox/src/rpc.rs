//! JSON-RPC dispatch: the request enum (the wire contract) and the Stellar RPC methods.

use crate::errors::{invalid, RpcError};
use crate::node::{b64, Node, TxRecord};
use crate::simulate::{simulate, SimulateParams};
use crate::tx;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use soroban_env_host::xdr::{LedgerEntryData, LedgerKey, Limits, ReadXdr};
use std::sync::Mutex;

pub struct Ctx {
    pub node: Mutex<Node>,
    pub base_url: String,
}

impl Ctx {
    /// The node, even after a request panicked while holding it (that request failed; the
    /// state it left is still the best there is).
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Node> {
        self.node.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn friendbot_url(&self) -> String {
        format!("{}/friendbot", self.base_url)
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub cursor: Option<String>,
    pub limit: Option<usize>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceConfig {
    pub instruction_leeway: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimulateReq {
    pub transaction: String,
    pub auth_mode: Option<String>,
    pub resource_config: Option<ResourceConfig>,
    /// Record CAP-71 address-v2 credentials; on unless the request says false, as
    /// @stellar/stellar-sdk 17 asks for them by default and decodes them.
    #[serde(default = "upgraded_auth_default")]
    pub use_upgraded_auth: bool,
}

fn upgraded_auth_default() -> bool {
    true
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct RangeReq {
    pub start_ledger: Option<u32>,
    pub pagination: Option<Pagination>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub struct EventFilter {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub contract_ids: Vec<String>,
    #[serde(default)]
    pub topics: Vec<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EventsReq {
    pub start_ledger: Option<u32>,
    pub end_ledger: Option<u32>,
    #[serde(default)]
    pub filters: Vec<EventFilter>,
    pub pagination: Option<Pagination>,
}

/// Every method the node answers, with its parameters.
pub enum Request {
    GetHealth,
    GetNetwork,
    GetVersionInfo,
    GetLatestLedger,
    GetFeeStats,
    GetLedgerEntries { keys: Vec<String> },
    GetLedgers(RangeReq),
    SimulateTransaction(SimulateReq),
    SendTransaction { transaction: String },
    GetTransaction { hash: String },
    GetTransactions(RangeReq),
    GetEvents(EventsReq),
    Cheat(String, Value),
}

fn params<T: DeserializeOwned>(p: &Value) -> Result<T, RpcError> {
    let p = if p.is_null() { json!({}) } else { p.clone() };
    serde_json::from_value(p).map_err(|e| invalid(e.to_string()))
}

#[derive(Deserialize)]
struct Keys {
    keys: Vec<String>,
}
#[derive(Deserialize)]
struct TxParam {
    transaction: String,
}
#[derive(Deserialize)]
struct HashParam {
    hash: String,
}

impl Request {
    pub fn parse(method: &str, p: &Value) -> Result<Request, RpcError> {
        Ok(match method {
            "getHealth" => Request::GetHealth,
            "getNetwork" => Request::GetNetwork,
            "getVersionInfo" => Request::GetVersionInfo,
            "getLatestLedger" => Request::GetLatestLedger,
            "getFeeStats" => Request::GetFeeStats,
            "getLedgerEntries" => Request::GetLedgerEntries { keys: params::<Keys>(p)?.keys },
            "getLedgers" => Request::GetLedgers(params(p)?),
            "simulateTransaction" => Request::SimulateTransaction(params(p)?),
            "sendTransaction" => Request::SendTransaction { transaction: params::<TxParam>(p)?.transaction },
            "getTransaction" => Request::GetTransaction { hash: params::<HashParam>(p)?.hash },
            "getTransactions" => Request::GetTransactions(params(p)?),
            "getEvents" => Request::GetEvents(params(p)?),
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
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Request::parse(method, &p).and_then(|r| dispatch(ctx, r))))
        .unwrap_or_else(|_| Err(RpcError::Internal(format!("{method} panicked; the node keeps running"))));
    match result {
        Ok(v) => json!({ "jsonrpc": "2.0", "id": id, "result": v }),
        Err(e) => e.to_json(&id),
    }
}

pub fn dispatch(ctx: &Ctx, r: Request) -> Result<Value, RpcError> {
    let mut node = ctx.lock();
    match r {
        Request::GetHealth => Ok(json!({
            "status": "healthy",
            "latestLedger": node.latest().seq,
            "oldestLedger": node.oldest().seq,
            "ledgerRetentionWindow": node.cfg.retention_window,
        })),
        Request::GetNetwork => Ok(json!({
            "friendbotUrl": ctx.friendbot_url(),
            "passphrase": node.cfg.passphrase,
            "protocolVersion": crate::network::PROTOCOL_VERSION,
        })),
        Request::GetVersionInfo => Ok(json!({
            "version": concat!("sandbox-", env!("CARGO_PKG_VERSION")),
            "commitHash": "",
            "buildTimestamp": "",
            "captiveCoreVersion": "soroban-env-host 28.0.2 (no stellar-core)",
            "protocolVersion": crate::network::PROTOCOL_VERSION,
        })),
        Request::GetLatestLedger => {
            let l = node.latest();
            Ok(json!({
                "id": hex::encode(l.hash),
                "sequence": l.seq,
                "protocolVersion": crate::network::PROTOCOL_VERSION,
                "closeTime": l.close_time.to_string(),
                "headerXdr": b64(&l.header),
                "metadataXdr": l.meta_b64,
            }))
        }
        Request::GetFeeStats => Ok(crate::feestats::get_fee_stats(&node)),
        Request::GetLedgerEntries { keys } => ledger_entries(&node, &keys),
        Request::GetLedgers(r) => crate::history::get_ledgers(&node, r),
        Request::SimulateTransaction(s) => simulate(
            &node,
            SimulateParams {
                transaction: s.transaction,
                auth_mode: s.auth_mode,
                instruction_leeway: s.resource_config.and_then(|c| c.instruction_leeway),
                use_upgraded_auth: s.use_upgraded_auth,
            },
        )
        .map_err(invalid),
        Request::SendTransaction { transaction } => send(&mut node, &transaction),
        Request::GetTransaction { hash } => get_transaction(&node, &hash),
        Request::GetTransactions(r) => crate::history::get_transactions(&node, r),
        Request::GetEvents(r) => crate::events::get_events(&node, r),
        Request::Cheat(m, p) => crate::cheats::dispatch(&mut node, &m, &p),
    }
}

fn ledger_entries(node: &Node, keys: &[String]) -> Result<Value, RpcError> {
    if keys.len() > 200 {
        return Err(invalid("at most 200 keys per getLedgerEntries request"));
    }
    let mut out = vec![];
    for k in keys {
        let key = LedgerKey::from_xdr_base64(k, Limits::len(1 << 20)).map_err(|e| invalid(format!("key {k:?} is not LedgerKey XDR: {e}")))?;
        let found = match &key {
            LedgerKey::Ttl(t) => node.chain.store.get_ttl_entry(t).map(|e| (e, None)),
            _ => node.chain.store.get(&key).map(|s| (s.entry.clone(), s.live_until)),
        };
        if let Some((entry, live_until)) = found {
            let data: &LedgerEntryData = &entry.data;
            let mut v = json!({ "key": k, "xdr": b64(data), "lastModifiedLedgerSeq": entry.last_modified_ledger_seq });
            if let Some(l) = live_until {
                v["liveUntilLedgerSeq"] = json!(l);
            }
            out.push(v);
        }
    }
    Ok(json!({ "entries": out, "latestLedger": node.latest().seq }))
}

fn send(node: &mut Node, xdr: &str) -> Result<Value, RpcError> {
    let ptx = tx::parse(xdr, &node.network_id).map_err(invalid)?;
    let hash = hex::encode(ptx.hash);
    let latest = node.latest().clone();
    let base = json!({ "hash": hash, "latestLedger": latest.seq, "latestLedgerCloseTime": latest.close_time.to_string() });
    let dup = node.chain.txs.contains_key(&ptx.hash) || node.pending.iter().any(|p| p.hash == ptx.hash);
    let mut v = base;
    if dup {
        v["status"] = json!("DUPLICATE");
        return Ok(v);
    }
    match node.submit(ptx) {
        Ok(()) => {
            v["status"] = json!("PENDING");
            if node.cfg.instant {
                node.close_ledger();
            }
        }
        Err(result) => {
            v["status"] = json!("ERROR");
            v["errorResultXdr"] = json!(b64(&result));
        }
    }
    Ok(v)
}

pub fn tx_json(r: &TxRecord) -> Value {
    let mut v = json!({
        "status": if r.success { "SUCCESS" } else { "FAILED" },
        "txHash": hex::encode(r.hash),
        "applicationOrder": r.order,
        "feeBump": r.fee_bump,
        "envelopeXdr": r.envelope,
        "resultXdr": r.result,
        "resultMetaXdr": r.meta,
        "ledger": r.ledger,
        "events": { "transactionEventsXdr": r.tx_events, "contractEventsXdr": r.contract_events },
    });
    if !r.diagnostics.is_empty() {
        v["diagnosticEventsXdr"] = json!(r.diagnostics);
    }
    v
}

fn get_transaction(node: &Node, hash: &str) -> Result<Value, RpcError> {
    let bytes = hex::decode(hash).ok().and_then(|b| <[u8; 32]>::try_from(b).ok()).ok_or_else(|| invalid(format!("hash {hash:?} is not 64 hex characters")))?;
    let (latest, oldest) = (node.latest(), node.oldest());
    let mut v = match node.chain.txs.get(&bytes) {
        Some(r) => {
            let mut v = tx_json(r);
            v["createdAt"] = json!(r.close_time.to_string());
            v
        }
        None => json!({ "status": "NOT_FOUND", "txHash": hash }),
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

    #[test]
    fn parses_methods_and_params() {
        assert!(matches!(Request::parse("getHealth", &Value::Null), Ok(Request::GetHealth)));
        let r = Request::parse("getLedgerEntries", &json!({ "keys": ["AAAA"] })).ok().unwrap();
        assert!(matches!(r, Request::GetLedgerEntries { keys } if keys == vec!["AAAA".to_string()]));
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
    }
}
