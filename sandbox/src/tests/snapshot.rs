//! LedgerSnapshot files: a dump loads into a fresh node that answers as the first did; a bad
//! file is refused with the entry named, and nothing changes.

use crate::apply::simulate::SimulateParams;
use crate::base::codec::account_id;
use crate::node::config::Config;
use crate::node::core::Node;
use crate::node::simulate::simulate;
use crate::node::snapshot::{dump, load, read_file};
use crate::tests::support::{envelope, invoke_op, key, native_sac, node, sac_world, seq_of};
use soroban_env_host::xdr::*;
use soroban_ledger_snapshot::LedgerSnapshot;

fn world() -> Node {
    sac_world(5)
}

fn balance_call(n: &Node) -> serde_json::Value {
    let f = HostFunction::InvokeContract(InvokeContractArgs {
        contract_address: native_sac(n),
        function_name: ScSymbol("balance".try_into().unwrap()),
        args: vec![ScVal::Address(ScAddress::Account(account_id(&key(2))))].try_into().unwrap(),
    });
    let draft = envelope(n.network_id, &key(1), seq_of(n, &key(1)) + 1, 100, vec![invoke_op(f)], TransactionExt::V0, &[]);
    simulate(n, SimulateParams { transaction: draft, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap()
}

/// Through the file format (JSON text), as a user's file would go.
fn through_json(s: &LedgerSnapshot) -> LedgerSnapshot {
    let mut text = vec![];
    s.write(&mut text).unwrap();
    LedgerSnapshot::read(text.as_slice()).unwrap()
}

#[test]
fn a_dump_loads_into_a_fresh_node_that_answers_identically() {
    let a = world();
    let snap = through_json(&dump(&a, &[], &[]));
    assert_eq!((snap.sequence_number, snap.timestamp, snap.protocol_version), (a.latest().seq, a.latest().close_time, 28));
    let mut b = Node::new(Config { seed: Some(5), ..Config::test() }).unwrap();
    load(&mut b, &snap).unwrap();
    assert_eq!(b.chain.store.merged(), a.chain.store.merged());
    assert_eq!((b.latest().seq, b.latest().close_time), (a.latest().seq, a.latest().close_time));
    let (sa, sb) = (balance_call(&a), balance_call(&b));
    assert!(sa.get("error").is_none(), "{sa}");
    assert_eq!(sa, sb);
}

#[test]
fn a_dump_of_given_contracts_and_accounts_holds_only_theirs() {
    let a = world();
    let snap = dump(&a, &[native_sac(&a)], &[account_id(&key(2))]);
    let kinds: Vec<String> = snap
        .ledger_entries
        .iter()
        .map(|(k, _)| match &**k {
            LedgerKey::ContractData(d) => format!("data {}", d.contract),
            LedgerKey::Account(x) => format!("account {}", x.account_id),
            other => format!("{:?}", other.discriminant()),
        })
        .collect();
    assert!(kinds.iter().any(|k| k == &format!("account {}", account_id(&key(2)))), "{kinds:?}");
    assert!(kinds.iter().any(|k| k.starts_with("data ")), "{kinds:?}");
    assert!(kinds.iter().all(|k| k == &format!("account {}", account_id(&key(2))) || k == &format!("data {}", native_sac(&a))), "{kinds:?}");
}

#[test]
fn a_snapshot_without_settings_or_root_keeps_the_nodes_own() {
    let a = world();
    let mut snap = dump(&a, &[native_sac(&a)], &[]);
    snap.sequence_number = 55_000_000;
    let mut b = node();
    load(&mut b, &snap).unwrap();
    assert_eq!(b.latest().seq, 55_000_000);
    b.friendbot(account_id(&key(9))).unwrap();
    assert_eq!(b.latest().seq, 55_000_001);
}

#[test]
fn a_bad_entry_is_named_and_nothing_is_loaded() {
    let a = world();
    let mut snap = dump(&a, &[], &[]);
    let i = snap.ledger_entries.iter().position(|(k, _)| matches!(**k, LedgerKey::ContractData(_))).unwrap();
    snap.ledger_entries[i].1 .1 = None;
    let mut b = world();
    b.close_ledger();
    let before = (b.latest().seq, b.chain.store.merged());
    let err = load(&mut b, &snap).unwrap_err();
    assert!(err.starts_with(&format!("ledger_entries[{i}] (")) && err.contains("live_until"), "{err}");
    assert_eq!((b.latest().seq, b.chain.store.merged()), before);

    let mut snap = dump(&a, &[], &[]);
    let other = snap.ledger_entries[0].0.clone();
    snap.ledger_entries[3].0 = other;
    assert!(load(&mut b, &snap).unwrap_err().contains("ledger_entries[3] (") );
}

#[test]
fn a_file_the_format_refuses_names_the_entry() {
    let a = world();
    let dir = std::env::temp_dir().join(format!("sandbox-snap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.json");
    let mut text = vec![];
    dump(&a, &[], &[]).write(&mut text).unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&text).unwrap();
    v["ledger_entries"][2]["entry"]["data"] = serde_json::json!({ "account": { "balance": "lots" } });
    std::fs::write(&path, v.to_string()).unwrap();
    let err = read_file(&path).unwrap_err();
    assert!(err.contains("ledger_entries[2] (account)"), "{err}");
}

#[test]
fn a_snapshot_of_another_network_names_it() {
    let a = world();
    let mut snap = dump(&a, &[], &[]);
    snap.network_id = crate::base::codec::sha256(b"Public Global Stellar Network ; September 2015");
    let err = load(&mut node(), &snap).unwrap_err();
    assert!(err.contains("--network-passphrase \"Public Global Stellar Network ; September 2015\""), "{err}");
}

#[test]
fn without_a_passphrase_a_node_takes_the_public_network_its_snapshot_names() {
    const MAINNET: &str = "Public Global Stellar Network ; September 2015";
    let a = world();
    let mut snap = dump(&a, &[], &[]);
    snap.network_id = crate::base::codec::sha256(MAINNET.as_bytes());
    let mut cfg = Config::test();
    crate::node::snapshot::adopt_network(&mut cfg, &snap);
    assert_eq!(cfg.passphrase, MAINNET);
    let mut n = Node::new(cfg).unwrap();
    assert_eq!(load(&mut n, &snap).unwrap().0, snap.sequence_number);

    // --network-passphrase wins (and the load then names the mismatch); an unknown id adopts nothing.
    let mut given = Config { passphrase: "Test SDF Network ; September 2015".into(), passphrase_given: true, ..Config::test() };
    crate::node::snapshot::adopt_network(&mut given, &snap);
    assert_eq!(given.passphrase, "Test SDF Network ; September 2015");
    snap.network_id = crate::base::codec::sha256(b"Some Private Network ; 2026");
    let mut cfg = Config::test();
    crate::node::snapshot::adopt_network(&mut cfg, &snap);
    assert_eq!(cfg.passphrase, crate::node::config::DEFAULT_PASSPHRASE);
    let err = load(&mut Node::new(cfg).unwrap(), &snap).unwrap_err();
    assert!(err.contains("nor a public network's: start the node with --network-passphrase"), "{err}");
}
