//! Ledger state files: dumpState / loadState and --state FILE (JSON with base64 XDR entries),
//! with the retained history (ledgers, transactions, events) and the clock, so a node restarted
//! from its file answers as before.

use crate::node::core::Node;

use crate::base::codec::b64;

use crate::base::records::LedgerRecord;
use crate::ledger::entry::{entry_key, Stored};
use crate::ledger::store::Store;
use serde_json::{json, Value};
use soroban_env_host::xdr::{LedgerEntry, LedgerHeader, LedgerKey, Limits, ReadXdr};
use std::sync::Arc;

/// The state; with `history`, also the retained ledgers, transactions and events.
pub fn dump(node: &Node, history: bool) -> Value {
    let l = node.latest();
    let entries: Vec<Value> = node
        .chain
        .store
        .merged()
        .into_iter()
        .map(|(_, s)| {
            let mut v = json!({ "entry": b64(&s.entry) });
            if let Some(t) = s.live_until {
                v["liveUntilLedgerSeq"] = json!(t);
            }
            v
        })
        .collect();
    let mut v = json!({
        "version": 2,
        "passphrase": node.cfg.passphrase,
        "latestLedger": { "sequence": l.seq, "closeTime": l.close_time, "hash": hex::encode(l.hash), "headerXdr": b64(&l.header) },
        "feePool": node.chain.fee_pool,
        "clock": node.chain.clock.to_json(),
        "entries": entries,
    });
    if history {
        v["history"] = node.chain.history_json();
    }
    let deleted: Vec<String> = node.chain.store.deleted().map(b64).collect();
    if !deleted.is_empty() {
        v["deleted"] = json!(deleted);
    }
    v
}

/// Replaces the ledger state with a dump. History (transactions, events) comes from the dump
/// when it has some (trimmed to this node's retention window), else it starts afresh at the
/// dump's latest ledger. Nothing changes when the dump is refused.
pub fn load(node: &mut Node, v: &Value) -> Result<u32, String> {
    if !matches!(v["version"].as_u64(), Some(1 | 2)) {
        return Err("state: unsupported or missing \"version\" (expected 1 or 2)".into());
    }
    if let Some(p) = v["passphrase"].as_str() {
        if p != node.cfg.passphrase {
            return Err(format!("state was dumped on network {p:?}, this node runs {:?}", node.cfg.passphrase));
        }
    }
    let header_b64 = v["latestLedger"]["headerXdr"].as_str().ok_or("state: latestLedger.headerXdr missing")?;
    let header = LedgerHeader::from_xdr_base64(header_b64, Limits::none()).map_err(|e| format!("state: bad headerXdr: {e}"))?;
    let hash: [u8; 32] = hex::decode(v["latestLedger"]["hash"].as_str().unwrap_or(""))
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or("state: latestLedger.hash missing")?;
    let history = match v.get("history").filter(|h| !h.is_null()) {
        Some(h) => {
            let h = crate::history::records::load(h)?;
            let last = h.ledgers.last().unwrap();
            if last.seq != header.ledger_seq || last.hash != hash {
                return Err(format!("state: history ends at ledger {} ({}), latestLedger is {} ({})", last.seq, hex::encode(last.hash), header.ledger_seq, hex::encode(hash)));
            }
            Some(h)
        }
        None => None,
    };
    let mut clock = node.chain.clock.clone();
    if let Some(c) = v.get("clock").filter(|c| !c.is_null()) {
        clock.restore(c)?;
    }
    let mut store = Store::over(node.chain.store.upstream().cloned());
    for k in v.get("deleted").and_then(|d| d.as_array()).map(Vec::as_slice).unwrap_or_default() {
        let k = k.as_str().and_then(|k| LedgerKey::from_xdr_base64(k, Limits::none()).ok()).ok_or("state: deleted holds a bad key")?;
        store.remove(&k);
    }
    for e in v["entries"].as_array().ok_or("state: entries missing")? {
        let entry = LedgerEntry::from_xdr_base64(e["entry"].as_str().ok_or("state: entry without \"entry\"")?, Limits::none())
            .map_err(|err| format!("state: bad entry XDR: {err}"))?;
        let live_until = e["liveUntilLedgerSeq"].as_u64().map(|x| x as u32);
        store.put(entry_key(&entry), Stored { entry, live_until });
    }
    let store = Arc::new(store);
    let settings = crate::ledger::network::Settings::load(&store)?;
    node.chain.store = store;
    node.settings = Arc::new(settings);
    node.chain.clock = clock;
    crate::ledger::modules::add(&node.modules, &node.chain.store.contract_codes());
    node.chain.fee_pool = v["feePool"].as_i64().unwrap_or(0);
    node.chain.txs.clear();
    node.chain.events.clear();
    node.pending.clear();
    node.queue_ages.clear();
    node.chain.ledgers.clear();
    let seq = header.ledger_seq;
    match history {
        Some(h) => {
            node.chain.ledgers.extend(h.ledgers);
            node.chain.txs.extend(h.txs.into_iter().map(|t| (t.hash, t)));
            node.chain.events.extend(h.events);
            node.prune();
        }
        None => node.chain.ledgers.push_back(first_ledger(header, hash)),
    }
    Ok(seq)
}

/// A ledger to start from, with no transactions and no history before it.
fn first_ledger(header: LedgerHeader, hash: [u8; 32]) -> LedgerRecord {
    LedgerRecord {
        seq: header.ledger_seq,
        close_time: header.scp_value.close_time.0,
        hash,
        meta_b64: empty_close_meta(&header, hash),
        header,
        txs: vec![],
        fees: Default::default(),
    }
}

/// Starts the node afresh from `store` at the ledger `header` (a snapshot's or a fork's): no
/// history, nothing pending, and the clock going on from that ledger's close time. Nothing
/// changes when the state's network settings are refused.
pub fn restart_at(node: &mut Node, store: Arc<Store>, header: LedgerHeader, hash: [u8; 32]) -> Result<(), String> {
    let settings = crate::ledger::network::Settings::load(&store)?;
    node.chain.store = store;
    node.settings = Arc::new(settings);
    crate::ledger::modules::add(&node.modules, &node.chain.store.contract_codes());
    node.chain.fee_pool = header.fee_pool;
    node.chain.clock.continue_from(header.scp_value.close_time.0);
    node.chain.txs.clear();
    node.chain.events.clear();
    node.pending.clear();
    node.queue_ages.clear();
    node.chain.ledgers.clear();
    node.chain.ledgers.push_back(first_ledger(header, hash));
    Ok(())
}

fn empty_close_meta(header: &LedgerHeader, hash: [u8; 32]) -> String {
    use soroban_env_host::xdr::*;
    let meta = LedgerCloseMeta::V2(LedgerCloseMetaV2 {
        ext: LedgerCloseMetaExt::V0,
        ledger_header: LedgerHeaderHistoryEntry { hash: Hash(hash), header: header.clone(), ext: LedgerHeaderHistoryEntryExt::V0 },
        tx_set: GeneralizedTransactionSet::V1(TransactionSetV1 {
            previous_ledger_hash: header.previous_ledger_hash.clone(),
            phases: vec![TransactionPhase::V0(VecM::default()), TransactionPhase::V0(VecM::default())].try_into().unwrap(),
        }),
        tx_processing: VecM::default(),
        upgrades_processing: VecM::default(),
        scp_info: VecM::default(),
        total_byte_size_of_live_soroban_state: 0,
        evicted_keys: VecM::default(),
    });
    b64(&meta)
}

pub fn write_file(node: &Node, path: &std::path::Path, history: bool) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_vec(&dump(node, history)).unwrap()).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("writing {}: {e}", path.display()))
}

pub fn read_file(node: &mut Node, path: &std::path::Path) -> Result<u32, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    load(node, &v)
}
