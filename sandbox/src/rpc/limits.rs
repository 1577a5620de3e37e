//! `sandbox_setLedgerLimits` / `sandbox_getLedgerLimits`: the per-ledger limits transaction
//! sets are built under. The Soroban ones are written into the ConfigSetting ledger entries
//! (so getLedgerEntries shows them), the classic one is the header's max_tx_set_size from the
//! next ledger on. A change applies from the next close.

use crate::apply::txset::LedgerLimits;
use crate::base::errors::{invalid, RpcError};
use crate::ledger::entry::Stored;
use crate::node::core::Node;
use serde_json::{json, Map, Value};
use soroban_env_host::xdr::{ConfigSettingEntry, LedgerEntryData};
use std::sync::Arc;

const NAMES: [&str; 9] = [
    "txCount",
    "instructions",
    "diskReadBytes",
    "diskReadEntries",
    "writeBytes",
    "writeEntries",
    "txsSizeBytes",
    "classicOps",
    "dependentTxClusters",
];

/// stellar-core's MAX_LEDGER_DEPENDENT_TX_CLUSTERS (src/ledger/NetworkConfig.h): a valid
/// ledger_max_dependent_tx_clusters is 1 to 127 (`isValidConfigSettingEntry`).
const MAX_DEPENDENT_TX_CLUSTERS: u64 = 128;

pub fn to_json(l: &LedgerLimits) -> Value {
    json!({
        "txCount": l.tx_count,
        "instructions": l.instructions,
        "diskReadBytes": l.disk_read_bytes,
        "diskReadEntries": l.disk_read_entries,
        "writeBytes": l.write_bytes,
        "writeEntries": l.write_entries,
        "txsSizeBytes": l.txs_size_bytes,
        "classicOps": l.classic_ops,
        "dependentTxClusters": l.dependent_tx_clusters,
    })
}

fn number(m: &Map<String, Value>, name: &str, max: u64) -> Result<Option<u64>, RpcError> {
    let bad = || invalid(format!("{name} must be an integer from 0 to {max}"));
    let v = match m.get(name) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(n)) => n.as_u64().ok_or_else(bad)?,
        Some(Value::String(s)) => s.parse::<u64>().map_err(|_| bad())?,
        Some(_) => return Err(bad()),
    };
    if v > max {
        return Err(bad());
    }
    Ok(Some(v))
}

/// A ledger limit below its per-transaction counterpart is refused, as stellar-core refuses
/// such a settings upgrade.
fn at_least(name: &str, value: i64, tx_name: &str, tx_value: i64) -> Result<(), RpcError> {
    if value < tx_value {
        return Err(invalid(format!(
            "{name} {value} is below the per-transaction limit {tx_name} ({tx_value}); a ledger limit must hold at least one transaction"
        )));
    }
    Ok(())
}

pub fn set(node: &mut Node, p: &Value) -> Result<Value, RpcError> {
    let Value::Object(m) = p else {
        return Err(invalid(format!("give the limits by name: {{{}}}", NAMES.map(|n| format!("{n}?")).join(", "))));
    };
    if let Some(k) = m.keys().find(|k| !NAMES.contains(&k.as_str())) {
        return Err(invalid(format!("unknown limit {k:?} (known: {})", NAMES.join(", "))));
    }
    let u32max = u32::MAX as u64;
    let mut l = node.ledger_limits();
    let u = |v: u64| v as u32;
    if let Some(v) = number(m, "txCount", u32max)? {
        l.tx_count = u(v);
    }
    if let Some(v) = number(m, "instructions", i64::MAX as u64)? {
        l.instructions = v as i64;
    }
    if let Some(v) = number(m, "diskReadBytes", u32max)? {
        l.disk_read_bytes = u(v);
    }
    if let Some(v) = number(m, "diskReadEntries", u32max)? {
        l.disk_read_entries = u(v);
    }
    if let Some(v) = number(m, "writeBytes", u32max)? {
        l.write_bytes = u(v);
    }
    if let Some(v) = number(m, "writeEntries", u32max)? {
        l.write_entries = u(v);
    }
    if let Some(v) = number(m, "txsSizeBytes", u32max)? {
        l.txs_size_bytes = u(v);
    }
    if let Some(v) = number(m, "dependentTxClusters", MAX_DEPENDENT_TX_CLUSTERS - 1)? {
        if v == 0 {
            return Err(invalid("dependentTxClusters must be an integer from 1 to 127"));
        }
        l.dependent_tx_clusters = u(v);
    }
    let classic_ops = number(m, "classicOps", u32max)?.map(u);
    let s = node.settings.clone();
    let (cost, bw) = (&s.ledger_cost, &s.bandwidth);
    at_least("instructions", l.instructions, "tx_max_instructions", s.compute.tx_max_instructions)?;
    at_least("diskReadBytes", l.disk_read_bytes.into(), "tx_max_disk_read_bytes", cost.tx_max_disk_read_bytes.into())?;
    at_least("diskReadEntries", l.disk_read_entries.into(), "tx_max_disk_read_entries", cost.tx_max_disk_read_entries.into())?;
    at_least("writeBytes", l.write_bytes.into(), "tx_max_write_bytes", cost.tx_max_write_bytes.into())?;
    at_least("writeEntries", l.write_entries.into(), "tx_max_write_ledger_entries", cost.tx_max_write_ledger_entries.into())?;
    at_least("txsSizeBytes", l.txs_size_bytes.into(), "tx_max_size_bytes", bw.tx_max_size_bytes.into())?;

    let mut compute = s.compute.clone();
    compute.ledger_max_instructions = l.instructions;
    let mut cost = s.ledger_cost.clone();
    cost.ledger_max_disk_read_bytes = l.disk_read_bytes;
    cost.ledger_max_disk_read_entries = l.disk_read_entries;
    cost.ledger_max_write_bytes = l.write_bytes;
    cost.ledger_max_write_ledger_entries = l.write_entries;
    let mut bw = s.bandwidth.clone();
    bw.ledger_max_txs_size_bytes = l.txs_size_bytes;
    let mut lanes = s.lanes.clone();
    lanes.ledger_max_tx_count = l.tx_count;
    let mut parallel = s.parallel.clone();
    parallel.ledger_max_dependent_tx_clusters = l.dependent_tx_clusters;
    let changed = [
        (compute != s.compute, ConfigSettingEntry::ContractComputeV0(compute)),
        (cost != s.ledger_cost, ConfigSettingEntry::ContractLedgerCostV0(cost)),
        (bw != s.bandwidth, ConfigSettingEntry::ContractBandwidthV0(bw)),
        (lanes != s.lanes, ConfigSettingEntry::ContractExecutionLanes(lanes)),
        (parallel != s.parallel, ConfigSettingEntry::ContractParallelComputeV0(parallel)),
    ];
    let seq = node.latest().seq;
    let mut wrote = false;
    for (differs, setting) in changed {
        if differs {
            let (key, Stored { mut entry, live_until }) = crate::ledger::network::setting_entry(setting);
            entry.last_modified_ledger_seq = seq;
            debug_assert!(matches!(entry.data, LedgerEntryData::ConfigSetting(_)));
            Arc::make_mut(&mut node.chain.store).put(key, Stored { entry, live_until });
            wrote = true;
        }
    }
    if wrote {
        node.reload_settings().map_err(RpcError::Internal)?;
    }
    if let Some(ops) = classic_ops {
        node.chain.max_tx_set_size = Some(ops);
    }
    Ok(to_json(&node.ledger_limits()))
}
