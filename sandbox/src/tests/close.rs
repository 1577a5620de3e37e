//! Ordinary closes on an in-process node: stellar-core's apply order and the set hash the
//! header commits to, `--apply-order arrival`, `sandbox_closeLedgers {arrived}` and its answer,
//! replace-by-fee.

use crate::apply::apply_order::{apply_order, Entry};
use crate::apply::parse::ParsedTx;
use crate::apply::simulate::SimulateParams;
use crate::apply::tx::{self};
use crate::apply::txset::{CLASSIC, SOROBAN};
use crate::base::codec::{account_id, b64, sha256};
use crate::node::config::{ApplyOrder, Config, QueueRules};
use crate::node::core::Node;
use crate::node::simulate::simulate;
use crate::rpc::dispatch::Ctx;
use crate::tests::support::{call, ctx, envelope, fee_bump, funded, invoke_op, key, native_sac, pay, relaxed, sac_world, seq_of, signed, submit};
use serde_json::{json, Value};
use soroban_env_host::xdr::*;

/// A one-payment transaction from `src` (fee 100) at its next free sequence number.
fn payment(n: &Node, src: u8) -> ParsedTx {
    let k = key(src);
    let seq = seq_of(n, &k) + 1 + n.pending_from(&account_id(&k));
    crate::apply::parse::parse(&envelope(n.network_id, &k, seq, 100, vec![pay(&key(1), 1)], TransactionExt::V0, &[&k]), &n.network_id).unwrap()
}

/// A SAC `transfer` of one stroop from `src` to the root account, simulated, with its
/// source-account authorization and resources, as a signed transaction.
fn sac_transfer(n: &Node, src: u8) -> ParsedTx {
    sac_transfer_to(n, src, &account_id(&n.root), None)
}

/// A SAC `transfer` of one stroop from `src` to `dst`, as `sac_transfer`; with `instructions`,
/// declaring that many (the resource fee raised by a stroop per 100 to pay for them).
pub(super) fn sac_transfer_to(n: &Node, src: u8, dst: &AccountId, instructions: Option<u32>) -> ParsedTx {
    let k = key(src);
    let host_fn = HostFunction::InvokeContract(InvokeContractArgs {
        contract_address: native_sac(n),
        function_name: ScSymbol("transfer".try_into().unwrap()),
        args: vec![
            ScVal::Address(ScAddress::Account(account_id(&k))),
            ScVal::Address(ScAddress::Account(dst.clone())),
            ScVal::I128(Int128Parts { hi: 0, lo: 1 }),
        ]
        .try_into()
        .unwrap(),
    });
    let seq = seq_of(n, &k) + 1;
    let draft = envelope(n.network_id, &k, seq, 100, vec![invoke_op(host_fn.clone())], TransactionExt::V0, &[]);
    let sim = simulate(n, SimulateParams { transaction: draft, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
    assert!(sim.get("error").is_none(), "{sim}");
    let auth: Vec<SorobanAuthorizationEntry> = sim["results"][0]["auth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| SorobanAuthorizationEntry::from_xdr_base64(a.as_str().unwrap(), Limits::none()).unwrap())
        .collect();
    let mut data = SorobanTransactionData::from_xdr_base64(sim["transactionData"].as_str().unwrap(), Limits::none()).unwrap();
    if let Some(i) = instructions {
        assert!(i >= data.resources.instructions, "at least what simulation measured");
        data.resources.instructions = i;
        data.resource_fee += i as i64 / 100;
    }
    let op = OperationBody::InvokeHostFunction(InvokeHostFunctionOp { host_function: host_fn, auth: auth.try_into().unwrap() });
    let fee = 100 + data.resource_fee as u32;
    crate::apply::parse::parse(&envelope(n.network_id, &k, seq, fee, vec![op], TransactionExt::V1(data), &[&k]), &n.network_id).unwrap()
}

pub(super) fn close_meta(n: &Node) -> LedgerCloseMetaV2 {
    let LedgerCloseMeta::V2(m) = LedgerCloseMeta::from_xdr_base64(&n.latest().meta_b64, Limits::none()).unwrap() else { panic!("meta v2") };
    m
}

/// Hashes of the transactions in the latest ledger's meta, in the order they were applied.
pub(super) fn applied(n: &Node) -> Vec<[u8; 32]> {
    close_meta(n).tx_processing.iter().map(|p| p.result.transaction_hash.0).collect()
}

/// The full hashes of a tx set's phases, in the order the XDR lists them.
fn phase_hashes(set: &GeneralizedTransactionSet) -> [Vec<[u8; 32]>; 2] {
    let GeneralizedTransactionSet::V1(v1) = set;
    let full = |e: &TransactionEnvelope| sha256(&e.to_xdr(Limits::none()).unwrap());
    let TransactionPhase::V0(comps) = &v1.phases[0] else { panic!("classic phase is v0") };
    let classic = comps.iter().flat_map(|TxSetComponent::TxsetCompTxsMaybeDiscountedFee(c)| c.txs.iter().map(full)).collect();
    let TransactionPhase::V1(par) = &v1.phases[1] else { panic!("Soroban phase is parallel") };
    let soroban = par.execution_stages.iter().flat_map(|s| s.0.iter().flat_map(|c| c.0.iter().map(full))).collect();
    [classic, soroban]
}

/// The Soroban phase's stages of clusters as indices into `entries` (by full hash).
pub(super) fn soroban_stages(set: &GeneralizedTransactionSet, entries: &[Entry]) -> Vec<Vec<Vec<usize>>> {
    let GeneralizedTransactionSet::V1(v1) = set;
    let TransactionPhase::V1(par) = &v1.phases[1] else { panic!("Soroban phase is parallel") };
    let index = |e: &TransactionEnvelope| {
        let h = sha256(&e.to_xdr(Limits::none()).unwrap());
        entries.iter().position(|x| x.full_hash == h).expect("a sent transaction")
    };
    par.execution_stages.iter().map(|s| s.0.iter().map(|c| c.0.iter().map(index).collect()).collect()).collect()
}

/// (hash, apply-order entry) of a pending transaction.
pub(super) fn entry(p: &ParsedTx) -> ([u8; 32], Entry) {
    let phase = if p.is_soroban() { SOROBAN } else { CLASSIC };
    (p.hash, Entry { full_hash: p.full_hash, source: p.source(), seq: p.tx.seq_num.0, phase })
}

#[test]
fn an_ordinary_close_applies_the_set_in_stellar_cores_order() {
    let mut n = sac_world(31);
    // Relaxed queue rules: account 1's two payments make a batch of two (strict rules never
    // let one account into a set twice).
    n.cfg.queue_rules = QueueRules::Relaxed;
    funded(&mut n, &[3, 4, 5, 6]);
    // Classic: two from account 1, one each from 2, 3, 4; Soroban: transfers from 5 and 6.
    let mut sent = vec![];
    for src in [1, 2, 1, 3, 4] {
        let p = payment(&n, src);
        sent.push(entry(&p));
        submit(&mut n, p);
    }
    for src in [5, 6] {
        let p = sac_transfer(&n, src);
        sent.push(entry(&p));
        submit(&mut n, p);
    }
    let seq = n.close_ledger();
    let m = close_meta(&n);
    // The header commits to the set as stellar-core hashes it: SHA-256 of its XDR.
    let set_hash = sha256(&m.tx_set.to_xdr(Limits::none()).unwrap());
    assert_eq!(n.latest().header.scp_value.tx_set_hash.0, set_hash);
    let GeneralizedTransactionSet::V1(v1) = &m.tx_set;
    assert_eq!(v1.previous_ledger_hash.0, n.chain.ledgers[n.chain.ledgers.len() - 2].hash);
    // Each phase lists its transactions by full hash.
    let [classic, soroban] = phase_hashes(&m.tx_set);
    assert_eq!((classic.len(), soroban.len()), (5, 2));
    assert!(classic.is_sorted() && soroban.is_sorted());
    let entries: Vec<Entry> = sent.iter().map(|(_, e)| e.clone()).collect();
    assert!(classic.iter().all(|h| entries.iter().any(|e| e.full_hash == *h && e.phase == CLASSIC)));
    // Applied in the order the algorithm gives for that set hash.
    let expected: Vec<[u8; 32]> = apply_order(&entries, &soroban_stages(&m.tx_set, &entries), &set_hash).into_iter().map(|i| sent[i].0).collect();
    let got = applied(&n);
    assert_eq!(got, expected);
    let arrival: Vec<[u8; 32]> = sent.iter().map(|(h, _)| *h).collect();
    assert_ne!(got, arrival, "this seed's set shuffles the arrival order");
    // Classic first; account 1's second payment alone in the second batch, so last of its phase.
    let phase_of = |h: &[u8; 32]| sent.iter().find(|(x, _)| x == h).unwrap().1.phase;
    assert_eq!(got.iter().map(phase_of).collect::<Vec<_>>(), [CLASSIC, CLASSIC, CLASSIC, CLASSIC, CLASSIC, SOROBAN, SOROBAN]);
    assert_eq!(got[4], sent[2].0);
    // applicationOrder (getTransaction) follows the apply order, and everything succeeded.
    for (i, h) in got.iter().enumerate() {
        let r = &n.chain.txs[h];
        assert_eq!((r.ledger, r.order, r.success), (seq, i as u32 + 1, true));
    }
    assert_eq!(n.latest().txs, got);
}

/// The same five payments closed by a node with each `--apply-order`.
fn five_payments(order: ApplyOrder) -> (Vec<[u8; 32]>, Vec<[u8; 32]>, [u8; 32]) {
    let mut n = Node::new(Config { seed: Some(5), apply_order: order, ..Config::test() }).unwrap();
    funded(&mut n, &[1, 2, 3, 4, 5]);
    let sent: Vec<[u8; 32]> = [5, 4, 3, 2, 1].into_iter().map(|s| { let p = payment(&n, s); submit(&mut n, p) }).collect();
    n.close_ledger();
    (sent, applied(&n), n.latest().header.scp_value.tx_set_hash.0)
}

#[test]
fn apply_order_arrival_keeps_the_arrival_order() {
    let (sent, by_arrival, arrival_set_hash) = five_payments(ApplyOrder::Arrival);
    assert_eq!(by_arrival, sent);
    let (sent_core, by_core, core_set_hash) = five_payments(ApplyOrder::Core);
    assert_eq!(sent_core, sent, "a seeded node: the same transactions");
    assert_eq!(core_set_hash, arrival_set_hash, "the same set, only applied in another order");
    assert_ne!(by_core, sent);
    let mut a = by_core.clone();
    a.sort();
    let mut b = sent.clone();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn ordered_and_friendbot_closes_keep_their_order() {
    let mut n = Node::new(Config { seed: Some(5), ..Config::test() }).unwrap();
    funded(&mut n, &[1, 2, 3, 4, 5]);
    let sent: Vec<[u8; 32]> = [1, 2, 3, 4, 5].into_iter().map(|s| { let p = payment(&n, s); submit(&mut n, p) }).collect();
    let order = [sent[3], sent[0], sent[4], sent[2], sent[1]];
    let closed = n.close_ordered(&order).unwrap();
    assert_eq!((closed.applied.as_slice(), applied(&n).as_slice()), (&order[..], &order[..]));
    // Friendbot's close applies what is pending in arrival order, its own transaction last.
    let sent: Vec<[u8; 32]> = [5, 4, 3, 2, 1].into_iter().map(|s| { let p = payment(&n, s); submit(&mut n, p) }).collect();
    let fb = n.friendbot(account_id(&key(9))).unwrap();
    assert_eq!(applied(&n), [sent, vec![fb]].concat());
}

fn hexes(hs: &[[u8; 32]]) -> Value {
    json!(hs.iter().map(hex::encode).collect::<Vec<_>>())
}

#[test]
fn arrived_closes_hold_the_others_back_unaged() {
    // Relaxed queue rules: account 3 queues two transactions (the order check of `arrived`).
    let mut n = Node::new(relaxed()).unwrap();
    funded(&mut n, &[1, 2, 3, 4, 5, 6, 7, 8]);
    let h1 = { let p = payment(&n, 1); submit(&mut n, p) };
    let h2 = { let p = payment(&n, 2); submit(&mut n, p) };
    let h3 = { let p = payment(&n, 3); submit(&mut n, p) };
    // Pending already past its upper time bound: dropped when it arrives, not while held.
    let late = {
        let k = key(8);
        let t = Transaction {
            source_account: MuxedAccount::Ed25519(Uint256(k.verifying_key().to_bytes())),
            fee: 100,
            seq_num: SequenceNumber(seq_of(&n, &k) + 1),
            cond: Preconditions::Time(TimeBounds { min_time: TimePoint(0), max_time: TimePoint(1) }),
            memo: Memo::None,
            operations: vec![Operation { source_account: None, body: pay(&key(1), 1) }].try_into().unwrap(),
            ext: TransactionExt::V0,
        };
        crate::apply::parse::parse(&b64(&signed(n.network_id, t, &[&k])), &n.network_id).unwrap()
    };
    let h_late = late.hash;
    n.pending.push(late);
    let c = ctx(n);
    let close = |arrived: &[[u8; 32]]| call(&c, "sandbox_closeLedgers", json!({ "count": 1, "arrived": hexes(arrived) }));

    let v = close(&[h1]);
    let seq = c.lock().latest().seq;
    assert_eq!(
        v["result"],
        json!({ "latestLedger": seq, "applied": hexes(&[h1]), "dropped": [], "baseFee": [100, 100], "surged": [false, false], "held": 3 })
    );

    // No room for classic operations: h2 arrives and waits, aging; h3 and the late one are
    // held back all along.
    c.lock().chain.max_tx_set_size = Some(0);
    for age in 1..4 {
        let v = close(&[h2]);
        assert_eq!((v["result"]["applied"].clone(), v["result"]["dropped"].clone(), v["result"]["surged"].clone()), (json!([]), json!([]), json!([true, false])));
        assert_eq!(c.lock().queue_ages.get(&account_id(&key(2))), Some(&age));
    }
    let v = close(&[h2]);
    assert_eq!(v["result"]["dropped"], hexes(&[h2]), "the fourth close without progress drops it");
    assert_eq!(v["result"]["held"], 2);
    for _ in 0..3 {
        assert_eq!(close(&[])["result"]["held"], 2);
    }
    {
        let n = c.lock();
        assert_eq!(n.pending.iter().map(|p| p.hash).collect::<Vec<_>>(), [h3, h_late], "held through 8 closes");
        assert!(!n.queue_ages.contains_key(&account_id(&key(3))), "never aged");
    }

    // Arrived but left out: back in its arrival place among the held ones.
    let (h5, h6, h7) = {
        let mut n = c.lock();
        let h5 = { let p = payment(&n, 5); submit(&mut n, p) };
        let h6 = { let p = payment(&n, 6); submit(&mut n, p) };
        let h7 = { let p = payment(&n, 7); submit(&mut n, p) };
        (h5, h6, h7)
    };
    close(&[h6]);
    assert_eq!(c.lock().pending.iter().map(|p| p.hash).collect::<Vec<_>>(), [h3, h_late, h5, h6, h7]);

    // Errors: an unknown hash, a later transaction before its account's earlier one. Nothing closes.
    let before = c.lock().latest().seq;
    let unknown = [7u8; 32];
    let e = close(&[h3, unknown]);
    assert_eq!(e["error"]["code"], -32602);
    assert_eq!(e["error"]["message"], format!("invalid params: arrived: {} is not pending", hex::encode(unknown)));
    let h3b = { let mut n = c.lock(); let p = payment(&n, 3); submit(&mut n, p) };
    let e = close(&[h3b]);
    assert_eq!(e["error"]["code"], -32602);
    assert!(e["error"]["message"].as_str().unwrap().contains(&hex::encode(h3)), "{e}");
    let e = call(&c, "sandbox_closeLedgers", json!({ "count": 2, "arrived": [] }));
    assert_eq!(e["error"]["code"], -32602);
    assert_eq!(c.lock().latest().seq, before);
    assert_eq!(c.lock().pending.len(), 6);

    // The late one arrives: dropped, and the rest applies at the base fee.
    c.lock().chain.max_tx_set_size = Some(1000);
    let v = close(&[h3, h3b, h_late]);
    assert_eq!(v["result"]["dropped"], hexes(&[h_late]));
    assert_eq!(v["result"]["applied"], hexes(&[h3, h3b]), "one account's: in sequence order");
    assert_eq!(v["result"]["held"], 3);
    // A plain count-1 close answers the same fields; longer runs only the ledger.
    let v = call(&c, "sandbox_closeLedgers", json!({ "count": 1 }));
    assert_eq!(v["result"]["held"], 0);
    assert_eq!(v["result"]["applied"].as_array().unwrap().len(), 3);
    let v = call(&c, "sandbox_closeLedgers", json!([2]));
    assert_eq!(v["result"], json!({ "latestLedger": c.lock().latest().seq }));
}

#[test]
fn a_fee_bump_replaces_a_pending_transaction_at_ten_times_its_fee() {
    // Relaxed queue rules: the account's second pending transaction stays behind the
    // replaced one (tests/queue.rs has the strict case).
    let mut n = Node::new(relaxed()).unwrap();
    funded(&mut n, &[1, 2, 3]);
    let nid = n.network_id;
    let (a, payer) = (key(1), key(3));
    let s = seq_of(&n, &a);
    let first = envelope(nid, &a, s + 1, 100, vec![pay(&key(2), 1)], TransactionExt::V0, &[&a]);
    let second = envelope(nid, &a, s + 2, 100, vec![pay(&key(2), 1)], TransactionExt::V0, &[&a]);
    let c = ctx(n);
    let send = |env: &str| call(&c, "sendTransaction", json!({ "transaction": env }))["result"].clone();
    let old = send(&first);
    assert_eq!(old["status"], "PENDING");
    assert_eq!(send(&second)["status"], "PENDING");
    // One close without room: the account's queue age is 1.
    call(&c, "sandbox_setLedgerLimits", json!({ "classicOps": 0 }));
    call(&c, "sandbox_closeLedgers", json!({}));
    assert_eq!(c.lock().queue_ages.get(&account_id(&a)), Some(&1));

    // 100 over one operation; a fee bump counts two: it needs 100 · 10 · 2 = 2000.
    let v = send(&fee_bump(nid, &first, &payer, 1999));
    assert_eq!(v["status"], "ERROR");
    let r = TransactionResult::from_xdr_base64(v["errorResultXdr"].as_str().unwrap(), Limits::none()).unwrap();
    assert_eq!((tx::result_code_name(&r.result), r.fee_charged), ("txINSUFFICIENT_FEE", 2000));
    assert_eq!(c.lock().pending.len(), 2);
    let bump = fee_bump(nid, &first, &payer, 2000);
    let new = send(&bump);
    assert_eq!(new["status"], "PENDING");
    assert_eq!(send(&bump)["status"], "DUPLICATE");
    assert_eq!(send(&first)["status"], "DUPLICATE", "the inner transaction of a pending fee bump");
    {
        let n = c.lock();
        let pending: Vec<String> = n.pending.iter().map(|p| hex::encode(p.hash)).collect();
        assert_eq!(pending.len(), 2);
        assert_eq!(pending[0], new["hash"].as_str().unwrap(), "in the replaced one's place");
        assert_eq!(n.queue_ages.get(&account_id(&a)), Some(&1), "the account's age is kept");
    }

    let payer_before = {
        let n = c.lock();
        crate::tests::support::balance(&n, &payer)
    };
    call(&c, "sandbox_setLedgerLimits", json!({ "classicOps": 1000 }));
    let v = call(&c, "sandbox_closeLedgers", json!({ "count": 1 }))["result"].clone();
    assert_eq!(v["applied"], json!([new["hash"], send_hash(&c, &second)]), "sequence order within the account");
    let got = |h: &Value| call(&c, "getTransaction", json!({ "hash": h }))["result"].clone();
    let applied = got(&new["hash"]);
    assert_eq!((applied["status"].as_str(), applied["feeBump"].as_bool()), (Some("SUCCESS"), Some(true)));
    let r = TransactionResult::from_xdr_base64(applied["resultXdr"].as_str().unwrap(), Limits::none()).unwrap();
    assert_eq!(r.fee_charged, 200, "the base fee for two operations");
    assert_eq!(crate::tests::support::balance(&c.lock(), &payer), payer_before - 200);
    assert_eq!(got(&old["hash"])["status"], "NOT_FOUND");
}

/// The hash sendTransaction answers for an envelope (without sending it).
fn send_hash(c: &Ctx, env: &str) -> Value {
    json!(hex::encode(crate::apply::parse::parse(env, &c.lock().network_id).unwrap().hash))
}

/// Soroban transactions compare inclusion fees (the declared resource fee left out) and the
/// minimum fee adds the replacement's resource fee back.
#[test]
fn replace_by_fee_compares_inclusion_fees() {
    let n = Node::new(Config::test()).unwrap();
    let nid = n.network_id;
    let (a, payer) = (key(1), key(3));
    let data = SorobanTransactionData {
        ext: SorobanTransactionDataExt::V0,
        resources: SorobanResources { footprint: LedgerFootprint { read_only: VecM::default(), read_write: VecM::default() }, instructions: 1, disk_read_bytes: 0, write_bytes: 0 },
        resource_fee: 5000,
    };
    let upload = invoke_op(HostFunction::UploadContractWasm(vec![0u8; 8].try_into().unwrap()));
    let inner = envelope(nid, &a, 7, 5300, vec![upload], TransactionExt::V1(data), &[&a]);
    let old = crate::apply::parse::parse(&inner, &nid).unwrap();
    assert_eq!(old.inclusion_fee(), 300);
    let bump = |fee| crate::apply::parse::parse(&fee_bump(nid, &inner, &payer, fee), &nid).unwrap();
    // (F - 5000) · 1 ≥ 10 · 300 · 2 ⇔ F ≥ 11 000.
    assert_eq!(crate::apply::replace_by_fee::can_replace_by_fee(&bump(10_999), &old), Err(11_000));
    assert_eq!(crate::apply::replace_by_fee::can_replace_by_fee(&bump(11_000), &old), Ok(()));
    // A fee bump replacing a fee bump: 6000 over two operations → 60 000 per two.
    assert_eq!(crate::apply::replace_by_fee::can_replace_by_fee(&bump(64_999), &bump(11_000)), Err(65_000));
}
