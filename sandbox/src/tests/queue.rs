//! The queue on an in-process node: surge pricing at close, the lane base fee charged and
//! recorded, the age limit, expiry and the validity sweep, ordered closes, the limits cheat,
//! and what it admits from one source account under strict and relaxed rules.

use crate::apply::parse::{parse, ParsedTx};
use crate::apply::tx;
use crate::base::codec::{account_id, b64};
use crate::node::config::Config;
use crate::node::core::Node;
use crate::tests::support::{call, ctx, envelope, fee_bump, funded, key, muxed, pay, relaxed, seq_of, signed, submit, transaction};
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
    // Relaxed queue rules: one account queues a chain of six.
    let mut n = Node::new(relaxed()).unwrap();
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
    // Relaxed queue rules: one account queues two, the second unpayable after the first.
    let mut n = Node::new(relaxed()).unwrap();
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
        n.submit(p).map_err(|r| r.name()).unwrap();
        h
    };
    let second = send(&mut n, &ks[0], 100, 1);
    n.close_ledger();
    assert!(n.chain.txs.get(&drain).is_some_and(|r| r.success));
    assert!(!n.chain.txs.contains_key(&late_hash), "expired: never applied");
    assert!(!n.chain.txs.contains_key(&second), "unpayable: dropped");
    assert!(n.pending.is_empty());
}

/// A V2 precondition with only ledger bounds (`max` exclusive, 0 for none).
fn ledger_bounds(min: u32, max: u32) -> Preconditions {
    Preconditions::V2(PreconditionsV2 {
        time_bounds: None,
        ledger_bounds: Some(LedgerBounds { min_ledger: min, max_ledger: max }),
        min_seq_num: None,
        min_seq_age: Duration(0),
        min_seq_ledger_gap: 0,
        extra_signers: VecM::default(),
    })
}

#[test]
fn ledger_bounds_are_checked_at_admission_and_at_close() {
    let mut n = Node::new(relaxed()).unwrap();
    let ks = funded(&mut n, &[1, 2, 3]);
    let next = n.latest().seq + 1;
    let code = |n: &mut Node, k: &SigningKey, cond: Preconditions| {
        let p = payment(n, k, seq_of(n, k) + 1, 100, 1, 1, cond);
        n.submit(p).err().map(|r| r.name())
    };
    // The upper bound is exclusive: a transaction bounded below the next ledger is too late,
    // one whose lower bound is past it too early.
    assert_eq!(code(&mut n, &ks[0], ledger_bounds(0, next)), Some("txTOO_LATE"));
    assert_eq!(code(&mut n, &ks[0], ledger_bounds(next + 1, 0)), Some("txTOO_EARLY"));
    assert!(n.pending.is_empty(), "refused transactions are not queued");
    // Accepted for the next ledger only, but the ledger is full: it is dropped at the close,
    // never applied in a later ledger.
    n.chain.max_tx_set_size = Some(1);
    let first = send(&mut n, &ks[1], 200, 1);
    let bounded = payment(&n, &ks[0], seq_of(&n, &ks[0]) + 1, 100, 1, 1, ledger_bounds(next, next + 1));
    let bounded_hash = bounded.hash;
    n.submit(bounded).map_err(|r| r.name()).unwrap();
    let open = payment(&n, &ks[2], seq_of(&n, &ks[2]) + 1, 100, 1, 1, ledger_bounds(next, 0));
    let open_hash = open.hash;
    n.submit(open).map_err(|r| r.name()).unwrap();
    assert_eq!(n.close_ledger(), next);
    assert!(n.chain.txs.get(&first).is_some_and(|r| r.success));
    assert_eq!(n.pending.len(), 1, "the bounded one expired; the unbounded one waits");
    n.close_ledger();
    assert!(!n.chain.txs.contains_key(&bounded_hash), "expired: never applied");
    assert!(n.chain.txs.get(&open_hash).is_some_and(|r| r.success && r.ledger == next + 1));
}

#[test]
fn an_ordered_close_drops_what_is_past_its_ledger_bound() {
    let mut n = Node::new(relaxed()).unwrap();
    let ks = funded(&mut n, &[1, 2]);
    let next = n.latest().seq + 1;
    let late = payment(&n, &ks[0], seq_of(&n, &ks[0]) + 1, 100, 1, 1, ledger_bounds(0, next + 1));
    let on_time = payment(&n, &ks[1], seq_of(&n, &ks[1]) + 1, 100, 1, 1, ledger_bounds(0, next + 2));
    let (late_hash, on_time_hash) = (late.hash, on_time.hash);
    n.submit(late).map_err(|r| r.name()).unwrap();
    n.submit(on_time).map_err(|r| r.name()).unwrap();
    // Neither is named: both wait a ledger, which takes the first past its last ledger.
    n.close_ordered(&[]).unwrap();
    let closed = n.close_ordered(&[late_hash, on_time_hash]).unwrap();
    assert_eq!(closed.applied, vec![on_time_hash]);
    assert_eq!(closed.dropped, vec![late_hash]);
    assert!(!n.chain.txs.contains_key(&late_hash), "never applied, so never charged");
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

/// `sendTransaction` of a base64 envelope through the RPC handler; its result.
fn send_rpc(c: &crate::rpc::dispatch::Ctx, env: &str) -> serde_json::Value {
    call(c, "sendTransaction", json!({ "transaction": env }))["result"].clone()
}

fn pay_env(nid: [u8; 32], src: &SigningKey, seq: i64, fee: u32, amount: i64) -> String {
    envelope(nid, src, seq, fee, vec![pay(&key(9), amount)], TransactionExt::V0, &[src])
}

#[test]
fn strict_rules_answer_a_second_transaction_of_one_account_try_again_later() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1, 2, 9]);
    let (a, nid, s) = (&ks[0], n.network_id, seq_of(&n, &ks[0]));
    let before = crate::tests::support::balance(&n, a);
    let c = ctx(n);
    assert_eq!(send_rpc(&c, &pay_env(nid, a, s + 1, 100, 1))["status"], "PENDING");
    // The next sequence number, the same one in another transaction, a high bid: all wait.
    for env in [pay_env(nid, a, s + 2, 100, 1), pay_env(nid, a, s + 1, 100, 2), pay_env(nid, a, s + 2, 1_000_000, 1)] {
        let v = send_rpc(&c, &env);
        let latest = c.lock().latest().clone();
        assert_eq!(
            v,
            json!({
                "status": "TRY_AGAIN_LATER",
                "hash": hex::encode(parse(&env, &nid).unwrap().hash),
                "latestLedger": latest.seq,
                "latestLedgerCloseTime": latest.close_time.to_string(),
            }),
            "no errorResultXdr, as stellar-rpc answers it"
        );
    }
    // A sequence number below the pending one's is an error, as in stellar-core's canAdd.
    let v = send_rpc(&c, &pay_env(nid, a, s, 100, 1));
    assert_eq!(v["status"], "ERROR");
    let r = TransactionResult::from_xdr_base64(v["errorResultXdr"].as_str().unwrap(), Limits::none()).unwrap();
    assert_eq!(tx::result_code_name(&r.result), "txBAD_SEQ");
    // Another account is not held up.
    let b_next = seq_of(&c.lock(), &ks[1]) + 1;
    assert_eq!(send_rpc(&c, &pay_env(nid, &ks[1], b_next, 100, 1))["status"], "PENDING");
    let pending = call(&c, "sandbox_pending", json!({}))["result"].clone();
    assert_eq!((pending["pending"].as_array().unwrap().len(), pending["queueRules"].as_str()), (2, Some("strict")));

    // Once a ledger takes the first, the account sends again; the refused ones cost nothing.
    call(&c, "sandbox_closeLedgers", json!({}));
    let n = c.lock();
    assert_eq!((seq_of(&n, a), crate::tests::support::balance(&n, a)), (s + 1, before - 100 - 1));
    drop(n);
    assert_eq!(send_rpc(&c, &pay_env(nid, a, s + 2, 100, 1))["status"], "PENDING");
    call(&c, "sandbox_closeLedgers", json!({}));
    assert_eq!(seq_of(&c.lock(), a), s + 2);
}

#[test]
fn strict_rules_keep_replace_by_fee_of_the_pending_transaction() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1, 2, 3, 9]);
    let (a, payer, other) = (&ks[0], &ks[1], &ks[2]);
    let (nid, s) = (n.network_id, seq_of(&n, a));
    let first = pay_env(nid, a, s + 1, 100, 1);
    let c = ctx(n);
    assert_eq!(send_rpc(&c, &first)["status"], "PENDING");
    // Too low a bid is still txINSUFFICIENT_FEE with the fee that would do.
    let v = send_rpc(&c, &fee_bump(nid, &first, payer, 1999));
    assert_eq!(v["status"], "ERROR");
    let r = TransactionResult::from_xdr_base64(v["errorResultXdr"].as_str().unwrap(), Limits::none()).unwrap();
    assert_eq!((tx::result_code_name(&r.result), r.fee_charged), ("txINSUFFICIENT_FEE", 2000));
    let bump = fee_bump(nid, &first, payer, 2000);
    let v = send_rpc(&c, &bump);
    assert_eq!(v["status"], "PENDING");
    // Another fee source bumping a different sequence number of the same account, however
    // much it bids, is a second transaction of that account: TRY_AGAIN_LATER.
    let later = pay_env(nid, a, s + 2, 100, 1);
    assert_eq!(send_rpc(&c, &fee_bump(nid, &later, other, 10_000_000))["status"], "TRY_AGAIN_LATER");
    // A bump of the pending one's own sequence number, around another inner transaction and
    // from another fee source, is a replace-by-fee (at ten times the bump's bid).
    let twin = pay_env(nid, a, s + 1, 100, 7);
    assert_eq!(send_rpc(&c, &fee_bump(nid, &twin, other, 10_000_000))["status"], "PENDING");
    {
        let n = c.lock();
        assert_eq!(n.pending.len(), 1);
        assert_eq!(n.pending[0].fee_source(), account_id(other));
    }
    call(&c, "sandbox_closeLedgers", json!({}));
    let n = c.lock();
    assert_eq!(seq_of(&n, a), s + 1);
    assert!(n.pending.is_empty());
}

#[test]
fn strict_rules_refuse_the_other_kind_and_a_fee_source_short_of_its_queued_fees() {
    let mut n = Node::new(Config::test()).unwrap();
    let ks = funded(&mut n, &[1, 2, 3, 9]);
    let (a, b, payer) = (&ks[0], &ks[1], &ks[2]);
    let nid = n.network_id;
    let first = parse(&pay_env(nid, a, seq_of(&n, a) + 1, 100, 1), &nid).unwrap();
    submit(&mut n, first);
    // A Soroban transaction of an account with a classic one pending (HerderImpl::recvTransaction).
    let ttl = OperationBody::ExtendFootprintTtl(ExtendFootprintTtlOp { ext: ExtensionPoint::V0, extend_to: 100 });
    let soroban = envelope(nid, a, seq_of(&n, a) + 2, 100, vec![ttl], TransactionExt::V0, &[a]);
    assert_eq!(n.submit(parse(&soroban, &nid).unwrap()).err().map(|r| r.name()), Some("TRY_AGAIN_LATER"));
    n.close_ledger();
    // One fee source may pay for several accounts' queued transactions, while its available
    // balance covers all their full fees (TransactionQueue::canAdd, mTotalFees).
    let available = crate::tests::support::balance(&n, payer) - 2 * crate::base::protocol::BASE_RESERVE as i64;
    let bid = available / 2 + 1;
    let inner_a = pay_env(nid, a, seq_of(&n, a) + 1, 100, 1);
    let inner_b = pay_env(nid, b, seq_of(&n, b) + 1, 100, 1);
    assert!(n.submit(parse(&fee_bump(nid, &inner_a, payer, bid), &nid).unwrap()).is_ok());
    let code = n.submit(parse(&fee_bump(nid, &inner_b, payer, bid), &nid).unwrap()).err().map(|r| r.name());
    assert_eq!(code, Some("txINSUFFICIENT_BALANCE"));
    assert!(n.submit(parse(&fee_bump(nid, &inner_b, payer, available - bid), &nid).unwrap()).is_ok());
    assert_eq!(n.pending.len(), 2);
}

#[test]
fn relaxed_rules_keep_two_pending_from_one_account() {
    let mut n = Node::new(relaxed()).unwrap();
    let ks = funded(&mut n, &[1, 9]);
    let (a, nid, s) = (&ks[0], n.network_id, seq_of(&n, &ks[0]));
    let c = ctx(n);
    assert_eq!(send_rpc(&c, &pay_env(nid, a, s + 1, 100, 1))["status"], "PENDING");
    assert_eq!(send_rpc(&c, &pay_env(nid, a, s + 2, 100, 1))["status"], "PENDING");
    assert_eq!(call(&c, "sandbox_pending", json!({}))["result"]["queueRules"], "relaxed");
    call(&c, "sandbox_closeLedgers", json!({}));
    assert_eq!(seq_of(&c.lock(), a), s + 2);
}

#[test]
fn friendbot_goes_on_under_strict_rules_unless_the_root_account_waits() {
    let mut n = Node::new(Config::test()).unwrap();
    // Back to back: each closes its own ledger, so the root account never waits.
    funded(&mut n, &[1, 2, 3]);
    let root = n.root.clone();
    let nid = n.network_id;
    let own = parse(&pay_env(nid, &root, seq_of(&n, &root) + 1, 100, 1), &nid).unwrap();
    submit(&mut n, own);
    let e = n.friendbot(account_id(&key(4))).unwrap_err();
    assert!(format!("{e:?}").contains("TRY_AGAIN_LATER"), "{e:?}");
    n.close_ledger();
    n.friendbot(account_id(&key(4))).unwrap();
}
