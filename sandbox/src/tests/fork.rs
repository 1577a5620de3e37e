//! Fork mode against an upstream node served in-process: lazy, cached reads; local writes; the
//! upstream left as it was; upstream failures named.

use crate::base::codec::{account_id, b64};
use crate::ledger::fork::Fork;
use crate::ledger::store::Store;
use crate::ledger::upstream::Upstream;
use crate::node::core::Node;
use crate::tests::support::{envelope, fork_of, http, invoke_op, key, native_sac, pay, sac_world, seq_of, serve};
use serde_json::{json, Value};
use soroban_env_host::xdr::*;
use std::sync::Arc;

fn rpc(port: u16, method: &str, params: Value) -> Value {
    let (_, v) = http(port, "POST", "/rpc", &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string());
    v
}

fn upstream_world() -> Node {
    sac_world(3)
}

fn account_keys() -> Value {
    json!({ "keys": [b64(&crate::ledger::entry::account_key(&account_id(&key(1)))), b64(&crate::ledger::entry::account_key(&account_id(&key(2))))] })
}

#[test]
fn a_fork_reads_lazily_writes_locally_and_leaves_the_upstream_alone() {
    let a = upstream_world();
    let (seq1, sac, nid) = (seq_of(&a, &key(1)), native_sac(&a), a.network_id);
    let up = serve(a);
    let up_latest = rpc(up, "getLatestLedger", json!({}))["result"].clone();
    let up_entries = rpc(up, "getLedgerEntries", account_keys())["result"].clone();

    let b = fork_of(up);
    assert_eq!((b.latest().seq as u64, hex::encode(b.latest().hash)), (up_latest["sequence"].as_u64().unwrap(), up_latest["id"].as_str().unwrap().to_string()));
    let fork = serve(b);
    assert_eq!(rpc(fork, "getLedgerEntries", account_keys())["result"], up_entries);

    // A simulation reads the contract's entries from the upstream and answers as it does.
    let balance = HostFunction::InvokeContract(InvokeContractArgs {
        contract_address: sac,
        function_name: ScSymbol("balance".try_into().unwrap()),
        args: vec![ScVal::Address(ScAddress::Account(account_id(&key(2))))].try_into().unwrap(),
    });
    let draft = envelope(nid, &key(1), seq1 + 1, 100, vec![invoke_op(balance)], TransactionExt::V0, &[]);
    let sim = |port| rpc(port, "simulateTransaction", json!({ "transaction": draft }))["result"].clone();
    assert!(sim(fork).get("error").is_none(), "{}", sim(fork));
    assert_eq!(sim(fork)["results"], sim(up)["results"]);

    // A payment on the fork changes the fork only.
    let env = envelope(nid, &key(1), seq1 + 1, 100, vec![pay(&key(2), 5_000_000)], TransactionExt::V0, &[&key(1)]);
    assert_eq!(rpc(fork, "sendTransaction", json!({ "transaction": env }))["result"]["status"], "PENDING");
    rpc(fork, "sandbox_closeLedgers", json!({ "count": 1 }));
    assert_ne!(rpc(fork, "getLedgerEntries", account_keys())["result"]["entries"], up_entries["entries"]);
    assert_eq!(rpc(up, "getLedgerEntries", account_keys())["result"], up_entries);
    assert_eq!(rpc(up, "getLatestLedger", json!({}))["result"], up_latest);

    // Reads of held entries make no request.
    let requests = |port| rpc(port, "sandbox_forkStatus", json!({}))["result"]["requests"].as_u64().unwrap();
    let before = requests(fork);
    assert!(before > 0);
    rpc(fork, "getLedgerEntries", account_keys());
    sim(fork);
    assert_eq!(requests(fork), before);
    assert_eq!(rpc(up, "sandbox_forkStatus", json!({}))["result"], Value::Null);
    assert_eq!(rpc(fork, "sandbox_forkStatus", json!({}))["result"]["settings"], "upstream");
}

#[test]
fn deletions_on_the_fork_hide_the_upstream_entry() {
    let up = serve(upstream_world());
    let mut b = fork_of(up);
    let k = crate::ledger::entry::account_key(&account_id(&key(2)));
    assert!(b.chain.store.lookup(&k).unwrap().is_some());
    Arc::make_mut(&mut b.chain.store).remove(&k);
    assert!(b.chain.store.lookup(&k).unwrap().is_none());
    assert!(!b.chain.store.merged().iter().any(|(x, _)| x == &k));
}

#[test]
fn an_upstream_failure_names_the_key_and_the_url() {
    let modules = crate::ledger::modules::new_cache();
    let up = Upstream::new("http://127.0.0.1:9/rpc", &[]).unwrap();
    let store = Store::over(Some(Arc::new(Fork::new(up, 1, modules, true))));
    let id = account_id(&key(4));
    let err = store.lookup(&crate::ledger::entry::account_key(&id)).unwrap_err();
    assert!(err.contains(&format!("account {id}")) && err.contains("http://127.0.0.1:9/rpc"), "{err}");
    assert_eq!(store.upstream().unwrap().status()["errors"], 1);
    assert!(Upstream::new("ftp://x", &[]).is_err());
    assert!(Upstream::new("http://x", &["no colon".into()]).is_err());
}
