//! Ledger snapshots in the ecosystem's LedgerSnapshot JSON (soroban-ledger-snapshot: what
//! `stellar snapshot create` writes and soroban-sdk tests load): `--snapshot FILE`,
//! `sandbox_loadSnapshot` and `sandbox_dumpSnapshot`.

use crate::base::codec::sha256;
use crate::ledger::entry::{entry_key, has_ttl, Stored};
use crate::ledger::fork::describe_key;
use crate::ledger::store::Store;
use crate::node::core::Node;
use soroban_env_host::xdr::*;
use soroban_ledger_snapshot::LedgerSnapshot;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

/// Passphrases of the public networks, to name the one a snapshot was taken on.
const KNOWN_NETWORKS: [&str; 4] = [
    "Public Global Stellar Network ; September 2015",
    "Test SDF Network ; September 2015",
    "Test SDF Future Network ; October 2022",
    crate::node::config::DEFAULT_PASSPHRASE,
];

/// The public network whose id is `network_id`.
pub fn known_network(network_id: &[u8; 32]) -> Option<&'static str> {
    KNOWN_NETWORKS.iter().copied().find(|p| sha256(p.as_bytes()) == *network_id)
}

/// Without --network-passphrase, a node started on a snapshot runs the public network the
/// file's network_id names (another id is refused at load, naming the flag).
pub fn adopt_network(cfg: &mut crate::node::config::Config, snap: &LedgerSnapshot) {
    if cfg.passphrase_given {
        return;
    }
    if let Some(p) = known_network(&snap.network_id) {
        cfg.passphrase = p.to_string();
    }
}

/// Reads a snapshot file. A file the format refuses is looked at entry by entry, so the error
/// names the first entry that is wrong. soroban-sdk's test snapshots (the ledger under
/// `"ledger"`) are read too.
pub fn read_file(path: &Path) -> Result<LedgerSnapshot, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    if v.get("ledger_entries").is_none() && v.get("ledger").is_some_and(|l| l.get("ledger_entries").is_some()) {
        v = v["ledger"].take();
    }
    let entries = v.get("ledger_entries").and_then(|e| e.as_array()).ok_or_else(|| format!("{}: no ledger_entries array: not a ledger snapshot", path.display()))?;
    for (i, e) in entries.iter().enumerate() {
        entry_from_json(e).map_err(|why| format!("{}: ledger_entries[{i}]{}: {why}", path.display(), kind_hint(e)))?;
    }
    serde_json::from_value(v).map_err(|e| format!("{}: {e}", path.display()))
}

/// One element of ledger_entries, in either layout the format has had.
fn entry_from_json(e: &serde_json::Value) -> Result<(), serde_json::Error> {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct V2 {
        entry: LedgerEntry,
        live_until: Option<u32>,
    }
    if e.is_object() {
        serde_json::from_value::<V2>(e.clone()).map(|_| ())
    } else {
        serde_json::from_value::<(LedgerKey, (LedgerEntry, Option<u32>))>(e.clone()).map(|_| ())
    }
}

/// " (contract_data)": the kind of entry, when the JSON shows it.
fn kind_hint(e: &serde_json::Value) -> String {
    let data = e.pointer("/entry/data").or_else(|| e.pointer("/1/0/data"));
    match data.and_then(|d| d.as_object()).and_then(|o| o.keys().next()) {
        Some(k) => format!(" ({k})"),
        None => String::new(),
    }
}

/// Checks every entry; the error names the entry (its index and key) and what is wrong.
fn entries_of(snap: &LedgerSnapshot) -> Result<Vec<(LedgerKey, Stored)>, String> {
    let mut seen: HashMap<LedgerKey, usize> = HashMap::new();
    let mut out = Vec::with_capacity(snap.ledger_entries.len());
    for (i, (key, (entry, live_until))) in snap.ledger_entries.iter().enumerate() {
        let at = |why: String| format!("ledger_entries[{i}] ({}): {why}", describe_key(key));
        let own = entry_key(entry);
        if own != **key {
            return Err(at(format!("the key does not match its entry, which is {}", describe_key(&own))));
        }
        if matches!(entry.data, LedgerEntryData::Ttl(_)) {
            return Err(at("a TTL entry: a snapshot carries TTLs as each contract entry's live_until".into()));
        }
        if has_ttl(key) && live_until.is_none() {
            return Err(at("contract data and code need a live_until ledger".into()));
        }
        if let Some(first) = seen.insert((**key).clone(), i) {
            return Err(at(format!("the same key as ledger_entries[{first}]")));
        }
        let live_until = if has_ttl(key) { *live_until } else { None };
        out.push(((**key).clone(), Stored { entry: (**entry).clone(), live_until }));
    }
    Ok(out)
}

/// Replaces the node's ledger state with the snapshot's. The node keeps its protocol, its own
/// root account (friendbot) unless the snapshot has it, and its network settings unless the
/// snapshot carries ConfigSetting entries; its latest ledger becomes the snapshot's. Nothing
/// changes when the snapshot is refused.
pub fn load(node: &mut Node, snap: &LedgerSnapshot) -> Result<(u32, usize), String> {
    if snap.network_id != [0; 32] && snap.network_id != node.network_id {
        return Err(match known_network(&snap.network_id) {
            Some(p) => format!("the snapshot is of network {p:?}; this node runs {:?}: start it with --network-passphrase {p:?}", node.cfg.passphrase),
            None => format!(
                "the snapshot's network_id {} is not this node's ({:?}) nor a public network's: start the node with --network-passphrase and the passphrase whose SHA-256 it is",
                hex::encode(snap.network_id),
                node.cfg.passphrase
            ),
        });
    }
    let entries = entries_of(snap)?;
    let count = entries.len();
    let mut store = Store::over(node.chain.store.upstream().cloned());
    if !entries.iter().any(|(k, _)| matches!(k, LedgerKey::ConfigSetting(_))) {
        for (k, s) in node.chain.store.iter().filter(|(k, _)| matches!(k, LedgerKey::ConfigSetting(_))) {
            store.put(k.clone(), s.clone());
        }
    }
    let root_key = crate::ledger::entry::account_key(&crate::base::codec::account_id(&node.root));
    if let Some(root) = node.chain.store.get(&root_key) {
        store.put(root_key, root.clone());
    }
    for (k, s) in entries {
        store.put(k, s);
    }
    let mut header = node.latest().header.clone();
    header.ledger_seq = snap.sequence_number;
    header.scp_value.close_time = TimePoint(snap.timestamp);
    header.previous_ledger_hash = Hash([0; 32]);
    header.scp_value.tx_set_hash = Hash([0; 32]);
    let hash = sha256(&header.to_xdr(Limits::none()).expect("header encodes"));
    crate::node::state::restart_at(node, Arc::new(store), header, hash).map_err(|e| format!("the snapshot's network settings: {e}"))?;
    Ok((snap.sequence_number, count))
}

pub fn load_file(node: &mut Node, path: &Path) -> Result<(u32, usize), String> {
    let snap = read_file(path)?;
    load(node, &snap).map_err(|e| format!("{}: {e}", path.display()))
}

/// The node's state as a snapshot at its latest ledger: everything, or with `contracts` /
/// `accounts` given only their entries — each contract's data and the Wasm its instance runs,
/// each account with its trustlines and data entries.
pub fn dump(node: &Node, contracts: &[ScAddress], accounts: &[AccountId]) -> LedgerSnapshot {
    let mut all = node.chain.store.merged();
    if !contracts.is_empty() || !accounts.is_empty() {
        let contracts: BTreeSet<&ScAddress> = contracts.iter().collect();
        let accounts: BTreeSet<&AccountId> = accounts.iter().collect();
        let mut codes = BTreeSet::new();
        all.retain(|(_, s)| match &s.entry.data {
            LedgerEntryData::ContractData(d) if contracts.contains(&d.contract) => {
                if let ScVal::ContractInstance(ScContractInstance { executable: ContractExecutable::Wasm(h), .. }) = &d.val {
                    codes.insert(h.clone());
                }
                true
            }
            LedgerEntryData::Account(a) => accounts.contains(&a.account_id),
            LedgerEntryData::Trustline(t) => accounts.contains(&t.account_id),
            LedgerEntryData::Data(d) => accounts.contains(&d.account_id),
            _ => false,
        });
        all.extend(codes.into_iter().filter_map(|h| {
            let k = LedgerKey::ContractCode(LedgerKeyContractCode { hash: h });
            let s = node.chain.store.read(&k)?;
            Some((k, s))
        }));
    }
    let l = node.latest();
    LedgerSnapshot {
        ledger_entries: all.into_iter().map(|(k, s)| (Box::new(k), (Box::new(s.entry), s.live_until))).collect(),
        ..LedgerSnapshot::from(node.ledger_info(l.seq, l.close_time), std::iter::empty())
    }
}

pub fn dump_file(node: &Node, path: &Path, contracts: &[ScAddress], accounts: &[AccountId]) -> Result<usize, String> {
    let snap = dump(node, contracts, accounts);
    snap.write_file(path).map_err(|e| format!("writing {}: {e:?}", path.display()))?;
    Ok(snap.ledger_entries.len())
}
