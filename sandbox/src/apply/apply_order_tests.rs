//! stellar-core's apply order on a set with known hashes, worked out by hand.

use super::*;
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
    // Full hash XOR set hash (first byte, second byte where the first ties):
    //   classic  batch 1: A1 0x10^0x5a=0x4a  B 0x5b^0x5a=0x01  C 0xa5^0x5a=0xff
    //                     → B (0x01), A1 (0x4a), C (0xff)
    //            batch 2: A2 0xf0^0x5a=0xaa → A2 (after C although 0xaa < 0xff)
    //   Soroban  batch 1: A3 0x00^0x5a=0x5a  D 0x69,0x80  E 0x69,0x01  F 0x69^0x5a=0x33
    //                     → F (0x33), A3 (0x5a), E (0x69 0x01), D (0x69 0x80)
    //            batch 2: A4 0x01^0x5a=0x5b → A4 (after D although 0x5b < 0x69)
    let entries: Vec<Entry> = set.iter().map(|(_, e)| e.clone()).collect();
    let order: Vec<&str> = apply_order(&entries, &set_hash).into_iter().map(|i| set[i].0).collect();
    assert_eq!(order, ["B", "A1", "C", "A2", "F", "A3", "E", "D", "A4"]);
    // Plain hash order (the order of the set's XDR) is another one.
    let mut by_hash: Vec<_> = set.iter().filter(|(_, e)| e.phase == CLASSIC).collect();
    by_hash.sort_by_key(|(_, e)| e.full_hash);
    assert_eq!(by_hash.iter().map(|(n, _)| *n).collect::<Vec<_>>(), ["A1", "B", "C", "A2"]);
    assert!(apply_order(&[], &set_hash).is_empty());
}
