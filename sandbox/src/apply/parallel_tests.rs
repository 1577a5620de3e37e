//! The stage builder on hand-worked sets, after stellar-core's src/herder/ParallelTxSetBuilder.cpp
//! (`prepareBuilderTxs`, `Stage::tryAdd`, `binPacking`, the stage-count choice).

use super::*;
use soroban_env_host::xdr::{AccountId, LedgerKeyAccount, PublicKey, Uint256};

fn key(n: u8) -> LedgerKey {
    LedgerKey::Account(LedgerKeyAccount { account_id: AccountId(PublicKey::PublicKeyTypeEd25519(Uint256([n; 32]))) })
}

fn set(ids: &[usize]) -> BTreeSet<usize> {
    ids.iter().copied().collect()
}

/// Footprints (read-only, read-write) by key number.
fn footprints(fps: &[(&[u8], &[u8])]) -> Vec<(Vec<LedgerKey>, Vec<LedgerKey>)> {
    fps.iter().map(|(ro, rw)| (ro.iter().map(|&n| key(n)).collect(), rw.iter().map(|&n| key(n)).collect())).collect()
}

fn conflicts_of(fps: &[(Vec<LedgerKey>, Vec<LedgerKey>)]) -> Vec<BTreeSet<usize>> {
    let refs: Vec<(&[LedgerKey], &[LedgerKey])> = fps.iter().map(|(ro, rw)| (&ro[..], &rw[..])).collect();
    conflicts(&refs)
}

/// The hand-worked set: two writers of key 1; a reader, a writer and a reader of key 2; a chain
/// 5–6–7 (6 reads what 5 writes, 7 reads what 6 writes); 8 reads what 3 writes.
fn the_set() -> Vec<(Vec<LedgerKey>, Vec<LedgerKey>)> {
    footprints(&[
        (&[], &[1]),     // 0
        (&[], &[1]),     // 1: RW-RW with 0
        (&[2], &[]),     // 2
        (&[], &[2]),     // 3: RO-RW with 2 and 4
        (&[2], &[]),     // 4: RO-RO with 2 is no conflict
        (&[], &[3]),     // 5
        (&[3], &[4]),    // 6: reads 5's key, writes 7's
        (&[4, 9], &[]),  // 7: not in conflict with 5
        (&[9, 2], &[8]), // 8: reads 2, which 3 writes; 9 only read (by 7 too)
    ])
}

#[test]
fn conflicts_are_rw_rw_and_ro_rw_never_ro_ro() {
    let c = conflicts_of(&the_set());
    let want = [
        set(&[1]),
        set(&[0]),
        set(&[3]),
        set(&[2, 4, 8]),
        set(&[3]),
        set(&[6]),
        set(&[5, 7]),
        set(&[6]),
        set(&[3]),
    ];
    assert_eq!(c, want);
    // A key a transaction both reads and writes is no conflict with itself.
    assert_eq!(conflicts_of(&footprints(&[(&[1], &[1])])), vec![set(&[])]);
}

/// Instructions 10, 20, 5, 15, 5, 10, 10, 10, 30 added in id order into one stage of 4 bins of
/// 100: clusters {0,1} (30), {2,3,4,8} (55 with 8), {5,6,7} (30). Worked by hand:
/// 0 → bin 0 (10); 1 merges with {0} → bin 0 (30); 2 → bin 0 (35); 3 merges {2} → (20), bin 0
/// (50); 4 merges {2,3} → (25), bin 0 (55); 5 → bin 0 (65); 6 merges {5} → (20), bin 0 (75);
/// 7 merges {5,6} → (30), bin 0 (85); 8 merges {2,3,4} → (55): out of bin 0 that leaves 60,
/// 60 + 55 > 100, so bin 1 (55). Bin 0 holds {0,1} and {5,6,7}, bin 1 {2,3,4,8}.
#[test]
fn conflicting_transactions_share_a_cluster_and_bins_take_several_clusters() {
    let c = conflicts_of(&the_set());
    let ins = [10, 20, 5, 15, 5, 10, 10, 10, 30];
    let mut p = Phase::new(1, 4, 100);
    for (id, &i) in ins.iter().enumerate() {
        assert!(p.try_add(id, i, &c[id]), "tx {id}");
    }
    // Clusters as kept: {0,1}, {5,6,7}, {2,3,4,8} (merged ones go last); bins numbered by
    // first appearance.
    assert_eq!(p.stages(), vec![vec![vec![0, 1, 5, 6, 7], vec![2, 3, 4, 8]]]);
}

/// A merged cluster above the per-cluster limit (ledger_max_instructions / stages) is refused.
#[test]
fn a_cluster_never_exceeds_the_per_cluster_instructions() {
    let c = conflicts_of(&the_set());
    let mut p = Phase::new(2, 4, 100); // 50 per cluster
    assert!(p.try_add(0, 30, &c[0]));
    // 1 conflicts with 0: 60 > 50 in stage 0; stage 1 does not hold 0, so it goes there.
    assert!(p.try_add(1, 30, &c[1]));
    assert_eq!(p.stages(), vec![vec![vec![0]], vec![vec![1]]]);
    // 2 → stage 0, bin 1 (30 + 40 > 50 in bin 0); 3 conflicts with 2: 60 > 50 in stage 0.
    assert!(p.try_add(2, 40, &c[2]));
    assert!(p.try_add(3, 20, &c[3]), "stage 1 holds no conflict of 3");
    assert!(!p.try_add(4, 51, &c[4]), "above 50 fits no cluster");
    assert_eq!(p.stages(), vec![vec![vec![0], vec![2]], vec![vec![1, 3]]]);
}

/// More independent clusters than ledger_max_dependent_tx_clusters: two bins of 100, three
/// clusters of 60. The third fails in place and after first-fit-decreasing, and stays out; a
/// later 40 still goes in (gaps allowed).
#[test]
fn more_clusters_than_the_ledger_allows_leave_the_extra_out() {
    let none = BTreeSet::new();
    let mut p = Phase::new(1, 2, 100);
    assert!(p.try_add(0, 60, &none));
    assert!(p.try_add(1, 60, &none));
    assert!(!p.try_add(2, 60, &none));
    assert!(p.try_add(3, 40, &none));
    assert_eq!(p.stages(), vec![vec![vec![0, 3], vec![1]]]);
    // Bin 1 takes 40 more; then the stage holds bins × per-cluster (200) and takes nothing.
    assert!(p.try_add(4, 40, &none));
    assert!(!p.try_add(5, 1, &none));
}

/// In place fails, first-fit-decreasing packs: 60, 20, 40 go to bins 0, 0, 1 (80 | 40); 80
/// fits neither, so all four are repacked largest first: 80 → bin 0, 60 → bin 1, 40 → bin 1,
/// 20 → bin 0.
#[test]
fn repacking_largest_first_makes_room() {
    let none = BTreeSet::new();
    let mut p = Phase::new(1, 2, 100);
    for (id, ins) in [60, 20, 40, 80].into_iter().enumerate() {
        assert!(p.try_add(id, ins, &none), "tx {id}");
    }
    assert_eq!(p.stages(), vec![vec![vec![3, 1], vec![0, 2]]]);
}

/// After one repack of an independent transaction failed, an independent transaction that
/// fails in place is refused without repacking, though a repack would fit it
/// (`mTriedCompactingBinPacking`). Three bins of 100: 60 → 0; 50 → 1; 50 → 1 (100); 70 → 2;
/// 50 fails in place and in the repack (70, 60, 50, 50, 50); 30 → bin 0 (90); 40 fails in
/// place, and is refused, although 70, 60, 50, 50, 40, 30 would pack (70+30 | 60+40 | 50+50).
#[test]
fn an_independent_transaction_repacks_once_only() {
    let none = BTreeSet::new();
    let mut p = Phase::new(1, 3, 100);
    let adds = [(60, true), (50, true), (50, true), (70, true), (50, false), (30, true), (40, false)];
    for (id, (ins, ok)) in adds.into_iter().enumerate() {
        assert_eq!(p.try_add(id, ins, &none), ok, "tx {id}");
    }
}

#[test]
fn the_stage_count_kept_is_the_fewest_stages_within_the_fee_tolerance() {
    assert_eq!(pick(&[]), None);
    assert_eq!(pick(&[(1000, 1), (1000, 2)]), Some(0));
    assert_eq!(pick(&[(1000, 2), (1000, 1)]), Some(1));
    // 0.999 × 1000 = 999: 999 is within, 998 is not.
    assert_eq!(pick(&[(999, 1), (1000, 2)]), Some(0));
    assert_eq!(pick(&[(998, 1), (1000, 2)]), Some(1));
    // Equal stage counts: the first.
    assert_eq!(pick(&[(1000, 2), (1000, 2), (0, 0)]), Some(0));
}

#[test]
fn hash_order_sorts_clusters_stages_and_drops_empty_ones() {
    let hash = |i: usize| [[0x20u8, 0x05, 0x4a, 0x60, 0x70, 0x03][i]; 32];
    // Stages [[Q], [P, R]] and [[V, U], [W]] with Q=0 (0x20), R=1 (0x05), P=2 (0x4a), U=3 (0x60),
    // V=4 (0x70), W=5 (0x03), plus an empty cluster and stage.
    let stages = vec![vec![vec![0], vec![2, 1], vec![]], vec![vec![4, 3], vec![5]], vec![]];
    assert_eq!(in_hash_order(&stages, hash), vec![vec![vec![5], vec![3, 4]], vec![vec![1, 2], vec![0]]]);
}
