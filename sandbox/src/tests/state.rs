//! State files: a dump loads into a fresh node with or without its history, and refusals.

use crate::base::codec::account_id;
use crate::base::xdrjson::XdrFormat;
use crate::node::config::Config;
use crate::node::core::Node;
use crate::node::state::{dump, load};
use crate::rpc::formats::tx_json;
use crate::tests::support::key;

fn node_with_history() -> (Node, [u8; 32]) {
    let mut n = Node::new(Config::test()).unwrap();
    let h = n.friendbot(account_id(&key(7))).unwrap();
    n.friendbot(account_id(&key(8))).unwrap();
    n.close_ledger();
    (n, h)
}

#[test]
fn history_survives_a_dump_and_load() {
    let (a, h) = node_with_history();
    let file = dump(&a, true);
    let mut b = Node::new(Config::test()).unwrap();
    assert_eq!(load(&mut b, &file).unwrap(), a.latest().seq);
    assert_eq!(b.chain.history_json()["ledgers"], a.chain.history_json()["ledgers"]);
    assert_eq!(b.oldest().seq, a.oldest().seq);
    let json = |n: &Node| tx_json(&n.chain.txs[&h], XdrFormat::Json).unwrap();
    assert_eq!(json(&b), json(&a));
}

#[test]
fn without_history_the_node_starts_at_the_latest_ledger() {
    let (a, h) = node_with_history();
    let mut b = Node::new(Config::test()).unwrap();
    load(&mut b, &dump(&a, false)).unwrap();
    assert_eq!((b.oldest().seq, b.latest().seq), (a.latest().seq, a.latest().seq));
    assert!(!b.chain.txs.contains_key(&h));
}

#[test]
fn a_shorter_retention_window_trims_the_loaded_history() {
    let (a, _) = node_with_history();
    let mut b = Node::new(Config { retention_window: 2, ..Config::test() }).unwrap();
    load(&mut b, &dump(&a, true)).unwrap();
    assert_eq!(b.oldest().seq, a.latest().seq - 1);
    assert!(b.chain.txs.values().all(|t| t.ledger >= b.oldest().seq));
}

#[test]
fn a_refused_dump_changes_nothing() {
    let (a, _) = node_with_history();
    let mut file = dump(&a, true);
    file["history"]["ledgers"].as_array_mut().unwrap().pop();
    let (mut b, h) = node_with_history();
    b.close_ledger();
    let before = b.latest().seq;
    assert!(load(&mut b, &file).unwrap_err().contains("history ends at ledger"));
    assert_eq!(b.latest().seq, before);
    assert!(b.chain.txs.contains_key(&h));
}
