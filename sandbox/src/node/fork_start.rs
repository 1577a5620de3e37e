//! Starting a node as a fork of a live network: the upstream's passphrase, latest ledger and
//! network settings, with everything else read lazily (fork.rs).

use crate::base::codec::account_id;
use crate::ledger::entry::Stored;
use crate::ledger::fork::Fork;
use crate::ledger::store::Store;
use crate::ledger::upstream::Upstream;
use crate::node::config::Config;
use crate::node::core::Node;
use serde_json::{json, Value};
use soroban_env_host::xdr::*;
use std::sync::Arc;

/// The upstream, with the node's passphrase set to the upstream's.
pub fn connect(cfg: &mut Config) -> Result<Option<Upstream>, String> {
    let Some(url) = cfg.fork_url.clone() else { return Ok(None) };
    let up = Upstream::new(&url, &cfg.fork_headers)?;
    let net = up.call("getNetwork", json!({})).map_err(|e| format!("fork: upstream {url}: {e}"))?;
    let passphrase = net["passphrase"].as_str().ok_or_else(|| format!("fork: upstream {url}: getNetwork has no passphrase"))?;
    if cfg.passphrase_given && cfg.passphrase != passphrase {
        return Err(format!("fork: upstream {url} runs network {passphrase:?}, not {:?} (--network-passphrase)", cfg.passphrase));
    }
    cfg.passphrase = passphrase.to_string();
    Ok(Some(up))
}

/// The node continues from the upstream's latest ledger: same sequence, hash and close time,
/// the upstream's network settings, and this node's root account (friendbot) funded.
pub fn attach(node: &mut Node, up: Upstream) -> Result<u32, String> {
    let url = up.url.clone();
    let fail = |e: String| format!("fork: upstream {url}: {e}");
    let latest = up.call("getLatestLedger", json!({})).map_err(fail)?;
    let seq = latest["sequence"].as_u64().ok_or_else(|| fail("getLatestLedger has no sequence".into()))? as u32;
    let hash: [u8; 32] = hex::decode(latest["id"].as_str().unwrap_or_default())
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| fail("getLatestLedger has no ledger id".into()))?;
    let header = match latest["headerXdr"].as_str() {
        Some(h) => LedgerHeader::from_xdr_base64(h, Limits::none()).map_err(|e| fail(format!("getLatestLedger headerXdr: {e}")))?,
        None => {
            let mut h = node.latest().header.clone();
            h.ledger_seq = seq;
            h.scp_value.close_time = TimePoint(close_time(&up, &latest, seq).map_err(fail)?);
            h
        }
    };
    let fork = Arc::new(Fork::new(up, seq, node.modules.clone(), node.cfg.quiet));
    let mut store = Store::over(Some(fork.clone()));
    for (k, s) in node.chain.store.iter() {
        store.put(k.clone(), s.clone());
    }
    // The upstream's network settings (each one this node knows of), held locally.
    let setting_keys: Vec<LedgerKey> = ConfigSettingId::VARIANTS
        .iter()
        .map(|id| LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: *id }))
        .collect();
    // An upstream that will not serve them leaves the node on testnet's settings, said once.
    match fork.fetch(&setting_keys) {
        Ok(()) => {
            for k in setting_keys {
                if let Some(s) = fork.peek(&k) {
                    store.put(k, s);
                }
            }
            let _ = fork.settings.set("upstream".into());
        }
        Err(e) => {
            if !node.cfg.quiet {
                eprintln!("sandbox: {e}; running testnet's protocol-28 network settings instead");
            }
            let _ = fork.settings.set(format!("testnet (the upstream's could not be read: {e})"));
        }
    }
    // Friendbot pays from the root account: the upstream's when it has one, topped up here.
    let root_key = crate::ledger::entry::account_key(&account_id(&node.root));
    if let Some(mut root) = fork.get(&root_key)? {
        if let LedgerEntryData::Account(a) = &mut root.entry.data {
            a.balance = a.balance.max(crate::node::core::TOTAL_COINS / 2);
        }
        store.put(root_key, Stored { entry: root.entry, live_until: None });
    }
    crate::node::state::restart_at(node, Arc::new(store), header, hash).map_err(|e| fail(format!("its network settings: {e}")))?;
    Ok(seq)
}

/// Close time of ledger `seq`: getLatestLedger's closeTime, else getLedgers'.
fn close_time(up: &Upstream, latest: &Value, seq: u32) -> Result<u64, String> {
    let as_u64 = |v: &Value| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()));
    if let Some(t) = as_u64(&latest["closeTime"]) {
        return Ok(t);
    }
    let r = up.call("getLedgers", json!({ "startLedger": seq, "pagination": { "limit": 1 } }))?;
    as_u64(&r["ledgers"][0]["ledgerCloseTime"]).ok_or_else(|| format!("no close time for ledger {seq}"))
}
