//! The queue on an in-process node: surge pricing at close, the lane base fee charged and
//! recorded, the age limit, expiry and the validity sweep, ordered closes, the limits cheat.

use crate::apply::parse::{parse, ParsedTx};
use crate::apply::tx;
use crate::base::codec::{account_id, b64};
use crate::node::config::Config;
use crate::node::core::Node;
use crate::tests::support::{funded, key, muxed, seq_of, signed, submit, transaction};
use ed25519_dalek::SigningKey;
use serde_json::json;
use soroban_env_host::xdr::*;

/// A signed transaction of `ops` native payments of `amount` stroops each to the root account.
fn payment(n: &Node, src: &SigningKey, seq: i64, fee: u32, ops: usize, amount: i64, cond: Preconditions) -> ParsedTx {
    let op = OperationBody::Payment(PaymentOp { destination: muxed(&n.root), asset: Asset::Native, amount });
    let t = Transaction { cond, ..transaction(src, seq, fee, vec![op; ops], TransactionExt::V0) };
    parse(&b64(&signed(n.network_id, t, &[src])), &n.network_id).unwrap()
}

fn send(n: &mut Node, src: &SigningKey, fee: u32, ops: usize) -> [u8; 32] {
    let seq = seq_of(n, src) + 1 + n.pending_from(&account_id(src));
    let p = payment(n, src, seq, fee, ops, 1, Preconditions::None);
    submit(n, p)
}

fn fee_charged(n: &Node, h: &[u8; 32]) -> Option<(u32, i64)> {
    let r = n.chain.txs.get(h)?;
    Some((r.ledger, TransactionResult::from_xdr_base64(&r.result, Limits::none()).unwrap().fee_charged))
}

fn classic_component_base_fee(n: &Node) -> Option<i64> {
    let LedgerCloseMeta::V2(m) = LedgerCloseMeta::from_xdr_base64(&n.latest().meta_b64, Limits::none()).unwrap() else { panic!() };
    let GeneralizedTransactionSet::V1(set) = m.tx_set;
    let TransactionPhase::V0(comps) = &set.phases[0] else { panic!("classic phase is v0") };
    comps.first().map(|TxSetComponent::TxsetCompTxsMaybeDiscountedFee(c)| c.base_fee.unwrap())
}

#[test]
fn surge_takes_the_best_bids_and_charges_the_lowest_included_rate() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1, 2, 3, 4]);
    n.chain.max_tx_set_size = Some(4);
    // Per operation: 100, 300, 250 (two operations), 200.
    let low = send(&mut n, &ks[0], 100, 1);
    let high = send(&mut n, &ks[1], 300, 1);
    let two = send(&mut n, &ks[2], 500, 2);
    let mid = send(&mut n, &ks[3], 200, 1);
    let seq = n.close_ledger();
    assert_eq!(n.latest().header.max_tx_set_size, 4);
    // 300 + 250·2 + 200 = 4 operations; everyone pays 200 per operation.
    assert_eq!(fee_charged(&n, &high), Some((seq, 200)));
    assert_eq!(fee_charged(&n, &two), Some((seq, 400)));
    assert_eq!(fee_charged(&n, &mid), Some((seq, 200)));
    assert_eq!(fee_charged(&n, &low), None);
    assert_eq!(classic_component_base_fee(&n), Some(200));
    assert_eq!(n.latest().fees.classic, vec![200, 200, 200], "per-operation samples for getFeeStats");
    // Alone in the next ledger, the low bid pays the base fee.
    let next = n.close_ledger();
    assert_eq!(fee_charged(&n, &low), Some((next, 100)));
    assert_eq!(classic_component_base_fee(&n), Some(100));
    let stats = crate::history::feestats::get_fee_stats(&n.chain.ledgers);
    assert_eq!(stats["inclusionFee"]["transactionCount"], "8", "4 friendbot + 3 surged + 1");
    assert_eq!(stats["inclusionFee"]["max"], "200");
    assert_eq!(stats["inclusionFee"]["p50"], "100");
    assert_eq!(stats["inclusionFee"]["ledgerCount"], 7, "genesis, 4 friendbot ledgers, 2 closes");
    assert_eq!(stats["sorobanInclusionFee"]["transactionCount"], "0");
}

#[test]
fn an_account_waiting_four_closes_without_progress_is_dropped() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1, 2]);
    n.chain.max_tx_set_size = Some(0);
    let h = send(&mut n, &ks[0], 100, 1);
    for age in 1..4 {
        n.close_ledger();
        assert_eq!(n.queue_ages.get(&account_id(&ks[0])), Some(&age));
        assert_eq!(n.pending.len(), 1);
    }
    n.close_ledger();
    assert!(n.pending.is_empty() && n.queue_ages.is_empty());
    assert!(!n.chain.txs.contains_key(&h));
    // Friendbot's own transaction still lands with no room for classic operations.
    n.friendbot(account_id(&key(9))).unwrap();
    // The sequence number was not used: the account can send again.
    n.chain.max_tx_set_size = Some(1000);
    let again = send(&mut n, &ks[0], 100, 1);
    n.close_ledger();
    assert!(n.chain.txs.get(&again).is_some_and(|r| r.success));
}

#[test]
fn progress_restarts_the_age_so_a_long_chain_drains() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1]);
    n.chain.max_tx_set_size = Some(1);
    let hs: Vec<_> = (0..6).map(|_| send(&mut n, &ks[0], 100, 1)).collect();
    for _ in 0..6 {
        n.close_ledger();
    }
    let ledgers: Vec<u32> = hs.iter().map(|h| fee_charged(&n, h).unwrap().0).collect();
    let first = ledgers[0];
    assert_eq!(ledgers, (first..first + 6).collect::<Vec<_>>());
}

#[test]
fn ordered_closes_neither_age_nor_drop_held_transactions() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1]);
    n.chain.max_tx_set_size = Some(0);
    let h = send(&mut n, &ks[0], 100, 1);
    for _ in 0..6 {
        n.close_ordered(&[]).unwrap();
    }
    assert_eq!(n.pending.len(), 1);
    // `order` applies what it names whatever the limits, at the base fee.
    n.close_ordered(&[h]).unwrap();
    assert_eq!(fee_charged(&n, &h).map(|f| f.1), Some(100));
}

#[test]
fn expired_and_invalidated_transactions_leave_the_queue() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1, 2]);
    // Accepted, then its upper time bound passes before the close.
    let seq = seq_of(&n, &ks[1]) + 1;
    let late = payment(&n, &ks[1], seq, 100, 1, 1, Preconditions::Time(TimeBounds { min_time: TimePoint(0), max_time: TimePoint(1) }));
    let late_hash = late.hash;
    n.pending.push(late);
    // Two from one account; the first spends nearly everything, so after it applies the
    // second can no longer pay its fee and is dropped, not applied.
    n.chain.max_tx_set_size = Some(1);
    let drain = {
        let ov = crate::ledger::overlay::Overlay::new(&n.chain.store, 0);
        let balance = tx::load_account(&ov, &account_id(&ks[0])).unwrap().balance;
        let spend = balance - 2 * crate::base::protocol::BASE_RESERVE as i64 - 100 - 50;
        let p = payment(&n, &ks[0], seq_of(&n, &ks[0]) + 1, 100, 1, spend, Preconditions::None);
        let h = p.hash;
        n.submit(p).map_err(|r| tx::result_code_name(&r.result)).unwrap();
        h
    };
    let second = send(&mut n, &ks[0], 100, 1);
    n.close_ledger();
    assert!(n.chain.txs.get(&drain).is_some_and(|r| r.success));
    assert!(!n.chain.txs.contains_key(&late_hash), "expired: never applied");
    assert!(!n.chain.txs.contains_key(&second), "unpayable: dropped");
    assert!(n.pending.is_empty());
}

#[test]
fn ledger_limits_cheat_writes_settings_and_refuses_bad_input() {
    let mut n = Node::new(Config::test()).unwrap();
    let set = |n: &mut Node, p: serde_json::Value| crate::rpc::cheats::dispatch(n, "sandbox_setLedgerLimits", &p);
    let before = crate::rpc::limits::to_json(&n.ledger_limits());
    for bad in [
        json!({ "txCount": 3, "instructions": 5 }),
        json!({ "txCount": -1 }),
        json!({ "txCount": 3, "typo": 1 }),
        json!([3]),
        json!({ "classicOps": 1, "writeBytes": 100 }),
        json!({ "txCount": 4294967296u64 }),
    ] {
        assert_eq!(set(&mut n, bad.clone()).err().map(|e| e.code()), Some(-32602), "{bad}");
        assert_eq!(crate::rpc::limits::to_json(&n.ledger_limits()), before, "nothing changed by {bad}");
    }
    let v = set(&mut n, json!({ "txCount": 3, "instructions": "200000000", "classicOps": 7 })).unwrap();
    assert_eq!((v["txCount"].as_u64(), v["instructions"].as_i64(), v["classicOps"].as_u64()), (Some(3), Some(200_000_000), Some(7)));
    assert_eq!(crate::rpc::cheats::dispatch(&mut n, "sandbox_getLedgerLimits", &serde_json::Value::Null).unwrap(), v);
    let key = LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: ConfigSettingId::ContractExecutionLanes });
    let stored = n.chain.store.get(&key).unwrap();
    assert!(matches!(&stored.entry.data, LedgerEntryData::ConfigSetting(ConfigSettingEntry::ContractExecutionLanes(l)) if l.ledger_max_tx_count == 3));
    n.close_ledger();
    assert_eq!(n.latest().header.max_tx_set_size, 7);
}
