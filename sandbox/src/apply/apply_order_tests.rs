//! stellar-core's apply order on a set with known hashes, worked out by hand.

use super::*;
use crate::apply::txset::SOROBAN;
use soroban_env_host::xdr::{PublicKey, Uint256};
use std::cmp::Ordering;

fn acct(n: u8) -> AccountId {
    AccountId(PublicKey::PublicKeyTypeEd25519(Uint256([n; 32])))
}

/// A full hash whose first two bytes are `b0`, `b1`, the rest zero.
fn h(b0: u8, b1: u8) -> [u8; 32] {
    let mut x = [0u8; 32];
    x[0] = b0;
    x[1] = b1;
    x
}

#[test]
fn hashes_compare_xored_with_the_set_hash() {
    let x = h(0x5a, 0x81);
    // 0x10 < 0x5b, but 0x10 ^ 0x5a = 0x4a > 0x5b ^ 0x5a = 0x01.
    assert_eq!(cmp_xored(&h(0x10, 0), &h(0x5b, 0), &x), Ordering::Greater);
    // Equal first bytes: the second decides, 0x01 ^ 0x81 = 0x80 > 0x80 ^ 0x81 = 0x01.
    assert_eq!(cmp_xored(&h(0x33, 0x01), &h(0x33, 0x80), &x), Ordering::Greater);
    assert_eq!(cmp_xored(&h(0x33, 0x01), &h(0x33, 0x01), &x), Ordering::Equal);
}

/// Classic then Soroban; within a phase, batch i = each account's i-th transaction by sequence
/// number, each batch by (full hash XOR set hash).
#[test]
fn apply_order_of_a_set_with_known_hashes() {
    let (a, b, c, d, e, f) = (acct(1), acct(2), acct(3), acct(4), acct(5), acct(6));
    let tx = |name: &'static str, full_hash: [u8; 32], source: &AccountId, seq: i64, phase: usize| {
        (name, Entry { full_hash, source: source.clone(), seq, phase })
    };
    // Set hash: first byte 0x5a, second 0x81, the rest zero.
    let set_hash = h(0x5a, 0x81);
    // Given in arrival order (A's seq 11 before its seq 10, a Soroban one first).
    let set = [
        tx("D", h(0x33, 0x01), &d, 1, SOROBAN),
        tx("A2", h(0xf0, 0x00), &a, 11, CLASSIC),
        tx("E", h(0x33, 0x80), &e, 1, SOROBAN),
        tx("B", h(0x5b, 0x00), &b, 3, CLASSIC),
        tx("A4", h(0x01, 0x00), &a, 13, SOROBAN),
        tx("C", h(0xa5, 0x00), &c, 7, CLASSIC),
        tx("F", h(0x69, 0x00), &f, 1, SOROBAN),
        tx("A1", h(0x10, 0x00), &a, 10, CLASSIC),
        tx("A3", h(0x00, 0x00), &a, 12, SOROBAN),
    ];
    // The Soroban phase as one stage of one cluster.
    let soroban = vec![vec![vec![0, 2, 4, 6, 8]]];
    // Full hash XOR set hash (first byte, second byte where the first ties):
    //   classic  batch 1: A1 0x10^0x5a=0x4a  B 0x5b^0x5a=0x01  C 0xa5^0x5a=0xff
    //                     → B (0x01), A1 (0x4a), C (0xff)
    //            batch 2: A2 0xf0^0x5a=0xaa → A2 (after C although 0xaa < 0xff)
    //   Soroban  the one cluster, in batches as the sandbox orders an account's several:
    //            batch 1: A3 0x00^0x5a=0x5a  D 0x69,0x80  E 0x69,0x01  F 0x69^0x5a=0x33
    //                     → F (0x33), A3 (0x5a), E (0x69 0x01), D (0x69 0x80)
    //            batch 2: A4 0x01^0x5a=0x5b → A4 (after D although 0x5b < 0x69)
    let entries: Vec<Entry> = set.iter().map(|(_, e)| e.clone()).collect();
    let order: Vec<&str> = apply_order(&entries, &soroban, &set_hash).into_iter().map(|i| set[i].0).collect();
    assert_eq!(order, ["B", "A1", "C", "A2", "F", "A3", "E", "D", "A4"]);
    // Plain hash order (the order of the set's XDR) is another one.
    let mut by_hash: Vec<_> = set.iter().filter(|(_, e)| e.phase == CLASSIC).collect();
    by_hash.sort_by_key(|(_, e)| e.full_hash);
    assert_eq!(by_hash.iter().map(|(n, _)| *n).collect::<Vec<_>>(), ["A1", "B", "C", "A2"]);
    assert!(apply_order(&[], &vec![], &set_hash).is_empty());
}

/// `sortedForApplyParallel` on a set with known hashes: the stages and clusters in their XDR
/// (hash) order, each cluster by (full hash XOR set hash), the stages by their first cluster's
/// first transaction; the clusters of a stage keep their XDR order.
#[test]
fn parallel_apply_order_of_stages_and_clusters() {
    let set_hash = h(0x5a, 0x81);
    let names = ["C", "Q", "R", "P", "U", "V", "W"];
    let firsts = [0xff, 0x20, 0x05, 0x4a, 0x60, 0x70, 0x03];
    let entries: Vec<Entry> = (0..7)
        .map(|i| Entry { full_hash: h(firsts[i], 0), source: acct(i as u8 + 1), seq: 1, phase: if i == 0 { CLASSIC } else { SOROBAN } })
        .collect();
    // Stage 1: clusters [Q] and [P, R]; stage 2: [V, U] and [W] (any order in).
    let soroban = vec![vec![vec![1], vec![3, 2]], vec![vec![5, 4], vec![6]]];
    // XDR order (hash): stage 2 first (W 0x03 < R 0x05): [[W], [U, V]], then [[R, P], [Q]].
    // XOR 0x5a: W 0x59; U 0x3a, V 0x2a → [V, U]; R 0x5f, P 0x10 → [P, R]; Q 0x7a.
    // Stages by first cluster's first: stage 1 (P 0x10) before stage 2 (W 0x59).
    let order: Vec<&str> = apply_order(&entries, &soroban, &set_hash).into_iter().map(|i| names[i]).collect();
    assert_eq!(order, ["C", "P", "R", "Q", "W", "V", "U"]);
}

/// An account's several transactions in one cluster go in batches, in sequence order (a sandbox
/// rule; stellar-core's queue holds one per account).
#[test]
fn an_accounts_transactions_keep_sequence_order_in_a_cluster() {
    let set_hash = h(0x5a, 0x81);
    let (x, y) = (acct(1), acct(2));
    let entries = [
        Entry { full_hash: h(0x10, 0), source: x.clone(), seq: 1, phase: SOROBAN }, // XOR 0x4a
        Entry { full_hash: h(0x50, 0), source: x, seq: 2, phase: SOROBAN },         // XOR 0x0a
        Entry { full_hash: h(0x20, 0), source: y, seq: 1, phase: SOROBAN },         // XOR 0x7a
    ];
    // Batch 1: x1 (0x4a), y (0x7a); batch 2: x2, though its 0x0a sorts first.
    assert_eq!(apply_order(&entries, &vec![vec![vec![0, 1, 2]]], &set_hash), [0, 2, 1]);
}
