//! Ledger state files: dumpState / loadState and --state FILE (JSON with base64 XDR entries).

use crate::node::{b64, LedgerRecord, Node};
use crate::store::{entry_key, Store, Stored};
use serde_json::{json, Value};
use soroban_env_host::xdr::{LedgerEntry, LedgerHeader, Limits, ReadXdr};
use std::sync::Arc;

pub fn dump(node: &Node) -> Value {
    let l = node.latest();
    let entries: Vec<Value> = node
        .chain
        .store
        .iter()
        .map(|(_, s)| {
            let mut v = json!({ "entry": b64(&s.entry) });
            if let Some(t) = s.live_until {
                v["liveUntilLedgerSeq"] = json!(t);
            }
            v
        })
        .collect();
    json!({
        "version": 1,
        "passphrase": node.cfg.passphrase,
        "latestLedger": { "sequence": l.seq, "closeTime": l.close_time, "hash": hex::encode(l.hash), "headerXdr": b64(&l.header) },
        "feePool": node.chain.fee_pool,
        "entries": entries,
    })
}

/// Replaces the ledger state with a dump; history (transactions, events) starts afresh.
pub fn load(node: &mut Node, v: &Value) -> Result<u32, String> {
    if v["version"].as_u64() != Some(1) {
        return Err("state: unsupported or missing \"version\" (expected 1)".into());
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
    let mut store = Store::default();
    for e in v["entries"].as_array().ok_or("state: entries missing")? {
        let entry = LedgerEntry::from_xdr_base64(e["entry"].as_str().ok_or("state: entry without \"entry\"")?, Limits::none())
            .map_err(|err| format!("state: bad entry XDR: {err}"))?;
        let live_until = e["liveUntilLedgerSeq"].as_u64().map(|x| x as u32);
        store.put(entry_key(&entry), Stored { entry, live_until });
    }
    node.chain.store = Arc::new(store);
    node.reload_settings()?;
    crate::modules::add_all_from(&node.modules, &node.chain.store);
    node.chain.fee_pool = v["feePool"].as_i64().unwrap_or(0);
    node.chain.txs.clear();
    node.chain.events.clear();
    node.pending.clear();
    node.chain.ledgers.clear();
    let seq = header.ledger_seq;
    node.chain.ledgers.push_back(LedgerRecord {
        seq,
        close_time: header.scp_value.close_time.0,
        hash,
        meta_b64: empty_close_meta(&header, hash),
        header,
        txs: vec![],
        fees: Default::default(),
    });
    Ok(seq)
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

pub fn write_file(node: &Node, path: &std::path::Path) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_vec(&dump(node)).unwrap()).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("writing {}: {e}", path.display()))
}

pub fn read_file(node: &mut Node, path: &std::path::Path) -> Result<u32, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    load(node, &v)
}

