//! The parallel Soroban phase on an in-process node: a close under tight instruction and
//! cluster limits builds stages of clusters as stellar-core's ParallelTxSetBuilder does,
//! leaves out what no stage takes, writes the set's parallel component and applies it in
//! `sortedForApplyParallel` order.

use super::close::{applied, close_meta, entry, sac_transfer_to, soroban_stages};
use crate::apply::apply_order::{apply_order, Entry};
use crate::base::codec::{account_id, sha256};
use crate::node::config::Config;
use crate::node::core::Node;
use crate::tests::support::{funded, key, sac_world, submit};
use serde_json::json;
use soroban_env_host::xdr::*;

fn set_limits(n: &mut Node, p: serde_json::Value) -> Result<serde_json::Value, i64> {
    crate::rpc::cheats::dispatch(n, "sandbox_setLedgerLimits", &p).map_err(|e| e.code())
}

/// Two bins of 100M per stage. Arrival (equal bids): T1 3→4 (60M), T2 5→6 (60M), T4 4→3 (30M,
/// writes T1's accounts), T3 7→8 (60M). One stage: T1 → bin 0; T2 → bin 1; T4 merges with T1
/// (90M) → bin 0; T3 would make the stage 210M > 200M: out. Two stages (50M per cluster) take
/// only T4, three only T4, four nothing: the one-stage set is kept.
#[test]
fn a_close_builds_clusters_from_footprint_conflicts_and_leaves_out_what_no_stage_takes() {
    let mut n = sac_world(31);
    funded(&mut n, &[3, 4, 5, 6, 7, 8]);
    let v = set_limits(&mut n, json!({ "instructions": 100_000_000, "dependentTxClusters": 2 })).unwrap();
    assert_eq!((v["instructions"].as_i64(), v["dependentTxClusters"].as_u64()), (Some(100_000_000), Some(2)));
    let to = |k: u8| account_id(&key(k));
    let txs = [
        sac_transfer_to(&n, 3, &to(4), Some(60_000_000)),
        sac_transfer_to(&n, 5, &to(6), Some(60_000_000)),
        sac_transfer_to(&n, 4, &to(3), Some(30_000_000)),
        sac_transfer_to(&n, 7, &to(8), Some(60_000_000)),
    ];
    let sent: Vec<([u8; 32], Entry)> = txs.iter().map(entry).collect();
    for p in txs {
        submit(&mut n, p);
    }
    n.close_ledger();
    let m = close_meta(&n);
    let entries: Vec<Entry> = sent.iter().map(|(_, e)| e.clone()).collect();
    let stages = soroban_stages(&m.tx_set, &entries);
    // One stage; clusters {T1, T4} and {T2}, each listed by full hash, the clusters by their first.
    assert_eq!(stages.len(), 1);
    let mut clusters: Vec<Vec<usize>> = stages[0].iter().map(|c| { let mut c = c.clone(); c.sort(); c }).collect();
    clusters.sort();
    assert_eq!(clusters, vec![vec![0, 2], vec![1]]);
    let full = |i: usize| entries[i].full_hash;
    assert!(stages[0].iter().all(|c| c.windows(2).all(|w| full(w[0]) < full(w[1]))));
    assert!(full(stages[0][0][0]) < full(stages[0][1][0]));
    let GeneralizedTransactionSet::V1(v1) = &m.tx_set;
    let TransactionPhase::V1(par) = &v1.phases[1] else { panic!("Soroban phase is parallel") };
    assert_eq!(par.base_fee, Some(100), "surged: the lowest included bid");
    // T3 waits for the next ledger.
    assert_eq!(n.pending.len(), 1);
    assert_eq!(n.pending[0].hash, sent[3].0);
    // Applied as sortedForApplyParallel orders that set, everything succeeding.
    let set_hash = sha256(&m.tx_set.to_xdr(Limits::none()).unwrap());
    let expected: Vec<[u8; 32]> = apply_order(&entries, &stages, &set_hash).into_iter().map(|i| sent[i].0).collect();
    assert_eq!(applied(&n), expected);
    for (i, h) in expected.iter().enumerate() {
        let r = &n.chain.txs[h];
        assert_eq!((r.order, r.success), (i as u32 + 1, true));
    }
    n.close_ledger();
    assert_eq!(applied(&n), [sent[3].0]);
}

#[test]
fn dependent_tx_clusters_is_written_to_the_settings_and_checked() {
    let mut n = Node::new(Config::test()).unwrap();
    for bad in [json!({ "dependentTxClusters": 0 }), json!({ "dependentTxClusters": 128 }), json!({ "dependentTxClusters": "x" })] {
        assert_eq!(set_limits(&mut n, bad.clone()).err(), Some(-32602), "{bad}");
    }
    assert_eq!(n.ledger_limits().dependent_tx_clusters, 1);
    set_limits(&mut n, json!({ "dependentTxClusters": 8 })).unwrap();
    let key = LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: ConfigSettingId::ContractParallelComputeV0 });
    let stored = n.chain.store.get(&key).unwrap();
    assert!(matches!(&stored.entry.data,
        LedgerEntryData::ConfigSetting(ConfigSettingEntry::ContractParallelComputeV0(p)) if p.ledger_max_dependent_tx_clusters == 8));
    assert_eq!(n.settings.parallel.ledger_max_dependent_tx_clusters, 8);
}
