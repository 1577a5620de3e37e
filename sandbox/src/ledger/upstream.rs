//! Fork mode's client for the upstream Stellar RPC: JSON-RPC over HTTP(S), with the operator's
//! extra headers (an API key, say), counting every request it makes.

use serde_json::{json, Value};
use soroban_env_host::xdr::{LedgerEntry, LedgerEntryData, LedgerEntryExt, LedgerKey, Limits, ReadXdr, WriteXdr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// stellar-rpc's limit on keys per getLedgerEntries request.
pub const MAX_KEYS_PER_REQUEST: usize = 200;

pub struct Upstream {
    pub url: String,
    headers: Vec<(String, String)>,
    agent: ureq::Agent,
    requests: AtomicU64,
    keys: AtomicU64,
}

impl Upstream {
    /// `headers` as given on the command line: `Name: value`.
    pub fn new(url: &str, headers: &[String]) -> Result<Upstream, String> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!("--fork-url {url:?}: expected an http:// or https:// Stellar RPC URL"));
        }
        let headers = headers
            .iter()
            .map(|h| {
                let (name, value) = h.split_once(':').ok_or_else(|| format!("--fork-header {h:?}: expected 'Name: value'"))?;
                let name = name.trim();
                if name.is_empty() || name.contains(char::is_whitespace) {
                    return Err(format!("--fork-header {h:?}: {name:?} is not a header name"));
                }
                Ok((name.to_string(), value.trim().to_string()))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build()
            .new_agent();
        Ok(Upstream { url: url.to_string(), headers, agent, requests: AtomicU64::new(0), keys: AtomicU64::new(0) })
    }

    /// Requests made so far, and ledger keys asked for in them.
    pub fn counts(&self) -> (u64, u64) {
        (self.requests.load(Ordering::Relaxed), self.keys.load(Ordering::Relaxed))
    }

    /// One JSON-RPC call; an error says what failed (transport, HTTP status, JSON-RPC error).
    pub fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        let n = self.requests.fetch_add(1, Ordering::Relaxed) + 1;
        let body = json!({ "jsonrpc": "2.0", "id": n, "method": method, "params": params });
        let mut req = self.agent.post(&self.url);
        for (k, v) in &self.headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let mut res = req.send_json(&body).map_err(|e| format!("{method}: {e}"))?;
        let status = res.status().as_u16();
        let text = res.body_mut().read_to_string().map_err(|e| format!("{method}: reading the answer: {e}"))?;
        if status != 200 {
            let snippet: String = text.chars().take(200).collect();
            return Err(format!("{method}: HTTP {status}: {snippet}"));
        }
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{method}: the answer is not JSON: {e}"))?;
        if let Some(err) = v.get("error") {
            return Err(format!("{method}: {}", err.get("message").and_then(|m| m.as_str()).map(String::from).unwrap_or_else(|| err.to_string())));
        }
        v.get("result").cloned().ok_or_else(|| format!("{method}: the answer has no result"))
    }

    /// getLedgerEntries for at most MAX_KEYS_PER_REQUEST keys: the entries found, each with its
    /// live-until ledger.
    pub fn ledger_entries(&self, keys: &[LedgerKey]) -> Result<Vec<(LedgerKey, LedgerEntry, Option<u32>)>, String> {
        self.keys.fetch_add(keys.len() as u64, Ordering::Relaxed);
        let b64: Vec<String> = keys.iter().map(|k| k.to_xdr_base64(Limits::none()).expect("key encodes")).collect();
        let r = self.call("getLedgerEntries", json!({ "keys": b64 }))?;
        let mut out = vec![];
        for e in r["entries"].as_array().map(Vec::as_slice).unwrap_or_default() {
            out.push(parse_entry(e).map_err(|why| format!("getLedgerEntries: {why}"))?);
        }
        Ok(out)
    }
}

fn parse_entry(e: &Value) -> Result<(LedgerKey, LedgerEntry, Option<u32>), String> {
    let field = |name: &str| e[name].as_str().ok_or_else(|| format!("an entry without {name}"));
    let key = LedgerKey::from_xdr_base64(field("key")?, Limits::none()).map_err(|err| format!("bad key XDR: {err}"))?;
    let data = LedgerEntryData::from_xdr_base64(field("xdr")?, Limits::none()).map_err(|err| format!("bad entry XDR: {err}"))?;
    let ext = match e["extXdr"].as_str() {
        Some(x) => LedgerEntryExt::from_xdr_base64(x, Limits::none()).map_err(|err| format!("bad extXdr: {err}"))?,
        None => LedgerEntryExt::V0,
    };
    let last = e["lastModifiedLedgerSeq"].as_u64().ok_or("an entry without lastModifiedLedgerSeq")? as u32;
    let live_until = e["liveUntilLedgerSeq"].as_u64().map(|l| l as u32);
    Ok((key, LedgerEntry { last_modified_ledger_seq: last, data, ext }, live_until))
}
