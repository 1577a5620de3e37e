//! Selection under ledger limits: each limit, fee order, per-account sequence order, ties by
//! arrival, the lane base fee.

use super::*;
use soroban_env_host::xdr::{PublicKey, Uint256};

fn acct(n: u8) -> AccountId {
    AccountId(PublicKey::PublicKeyTypeEd25519(Uint256([n; 32])))
}

fn classic(src: u8, ops: u32, bid: i64) -> Candidate {
    Candidate { source: acct(src), phase: CLASSIC, bid, ops, res: [ops as i64, 0, 200, 0, 0, 0, 0], pinned: false, footprint: (vec![], vec![]) }
}

/// A Soroban candidate using one unit of every resource but `big` (ten units of that one).
fn soroban(src: u8, bid: i64, big: usize) -> Candidate {
    let mut res = [1, 1_000_000, 1_000, 1_000, 1_000, 1, 1];
    if big > 0 {
        res[big] *= 10;
    }
    Candidate { source: acct(src), phase: SOROBAN, bid, ops: 1, res, pinned: false, footprint: (vec![], vec![]) }
}

fn roomy() -> LedgerLimits {
    LedgerLimits {
        tx_count: 100,
        instructions: 500_000_000,
        disk_read_bytes: 3_500_000,
        disk_read_entries: 500,
        write_bytes: 143_360,
        write_entries: 250,
        txs_size_bytes: 133_120,
        classic_ops: 1000,
        dependent_tx_clusters: 1,
    }
}

#[test]
fn everything_fits_and_pays_the_header_base_fee() {
    let c = vec![classic(1, 1, 500), soroban(2, 900, 0), classic(3, 2, 1000)];
    let s = select(&c, &roomy(), 100);
    assert_eq!(s, Selection { included: vec![0, 1, 2], base_fee: [100, 100], surged: [false, false], stages: vec![vec![vec![1]]] });
}

#[test]
fn soroban_tx_count_keeps_the_highest_bids_and_sets_the_lane_base_fee() {
    let c = vec![soroban(1, 300, 0), soroban(2, 500, 0), soroban(3, 400, 0)];
    let s = select(&c, &LedgerLimits { tx_count: 2, ..roomy() }, 100);
    assert_eq!(s.included, vec![1, 2]);
    assert_eq!(s.base_fee, [100, 400]);
    assert_eq!(s.surged, [false, true]);
}

/// Each Soroban ledger limit binds on its own: with room for 25 units of the resource, the
/// two best bids (10 units each) go in and the third waits.
#[test]
fn each_soroban_resource_limit_binds() {
    let base = roomy();
    let cases: [(usize, LedgerLimits); 6] = [
        (1, LedgerLimits { instructions: 25_000_000, ..base }),
        (2, LedgerLimits { txs_size_bytes: 25_000, ..base }),
        (3, LedgerLimits { disk_read_bytes: 25_000, ..base }),
        (4, LedgerLimits { write_bytes: 25_000, ..base }),
        (5, LedgerLimits { disk_read_entries: 25, ..base }),
        (6, LedgerLimits { write_entries: 25, ..base }),
    ];
    for (big, limits) in cases {
        let c = vec![soroban(1, 200, big), soroban(2, 700, big), soroban(3, 600, big)];
        let s = select(&c, &limits, 100);
        assert_eq!(s.included, vec![1, 2], "resource {big}");
        assert_eq!(s.base_fee[SOROBAN], 600, "resource {big}");
    }
}

#[test]
fn instructions_scale_with_dependent_tx_clusters() {
    let c = vec![soroban(1, 200, 1), soroban(2, 700, 1), soroban(3, 600, 1)];
    let limits = LedgerLimits { instructions: 12_500_000, dependent_tx_clusters: 2, ..roomy() };
    assert_eq!(select(&c, &limits, 100).included, vec![1, 2]);
}

/// Classic transactions rank by fee per operation and count operations against
/// max_tx_set_size; a transaction too big for what is left is skipped, smaller ones still go in.
#[test]
fn classic_ops_limit_ranks_by_fee_per_operation_with_gaps() {
    // 400/op (3 ops), 300/op (2 ops), 200/op (1 op), room for 4 operations.
    let c = vec![classic(1, 2, 600), classic(2, 1, 200), classic(3, 3, 1200)];
    let s = select(&c, &LedgerLimits { classic_ops: 4, ..roomy() }, 100);
    assert_eq!(s.included, vec![1, 2]);
    assert_eq!(s.base_fee, [200, 100]);
    assert_eq!(s.surged, [true, false]);
}

#[test]
fn fee_bumps_count_their_extra_operation() {
    // 450 over 2 operations (a fee bump of one) is 225 per operation, below 250.
    let bump = Candidate { ops: 2, res: [2, 0, 300, 0, 0, 0, 0], ..classic(1, 1, 450) };
    let c = vec![bump, classic(2, 1, 250)];
    let s = select(&c, &LedgerLimits { classic_ops: 2, ..roomy() }, 100);
    assert_eq!(s.included, vec![1]);
    assert_eq!(s.base_fee[CLASSIC], 250);
    let s = select(&c, &LedgerLimits { classic_ops: 3, ..roomy() }, 100);
    assert_eq!(s.included, vec![0, 1]);
    assert_eq!(s.base_fee[CLASSIC], 100, "all fit: no surge");
}

#[test]
fn an_accounts_later_transaction_never_passes_its_earlier_one() {
    // Account 1 bids low then high; account 2 bids in between; room for one.
    let c = vec![classic(1, 1, 100), classic(1, 1, 1000), classic(2, 1, 500)];
    let s = select(&c, &LedgerLimits { classic_ops: 1, ..roomy() }, 100);
    assert_eq!(s.included, vec![2]);
    // Room for two: account 2, then account 1's first; its second waits.
    let s = select(&c, &LedgerLimits { classic_ops: 2, ..roomy() }, 100);
    assert_eq!(s.included, vec![0, 2]);
    assert_eq!(s.base_fee[CLASSIC], 100);
}

#[test]
fn a_chain_blocked_in_one_phase_waits_in_the_other() {
    let c = vec![classic(1, 1, 100), soroban(1, 5000, 0), soroban(2, 300, 0)];
    let s = select(&c, &LedgerLimits { classic_ops: 0, ..roomy() }, 100);
    assert_eq!(s.included, vec![2]);
    assert_eq!(s.surged, [true, false]);
}

#[test]
fn equal_fee_rates_go_by_arrival() {
    let c = vec![soroban(3, 400, 0), soroban(1, 400, 0), soroban(2, 400, 0), soroban(4, 400, 0)];
    let s = select(&c, &LedgerLimits { tx_count: 2, ..roomy() }, 100);
    assert_eq!(s.included, vec![0, 1]);
    // Same rate by a different split: 800 over 2 operations ties with 400 over 1.
    let c = vec![classic(1, 1, 400), classic(2, 2, 800), classic(3, 1, 400)];
    let s = select(&c, &LedgerLimits { classic_ops: 3, ..roomy() }, 100);
    assert_eq!(s.included, vec![0, 1]);
}

#[test]
fn pinned_transactions_go_in_whatever_the_limits() {
    let mut friendbot = classic(9, 1, 100);
    friendbot.pinned = true;
    let c = vec![classic(1, 1, 900), friendbot];
    let s = select(&c, &LedgerLimits { classic_ops: 0, ..roomy() }, 100);
    assert_eq!(s.included, vec![1]);
}

#[test]
fn tx_set_phases_carry_the_lane_base_fees() {
    use soroban_env_host::xdr::{TransactionV1Envelope, Transaction};
    let env = TransactionEnvelope::Tx(TransactionV1Envelope { tx: Transaction::default(), signatures: VecM::default() });
    let (a, b) = ([2u8; 32], [1u8; 32]);
    let p = phases(&[(&a, &env, CLASSIC), (&b, &env, CLASSIC), (&a, &env, SOROBAN)], &vec![vec![vec![2]]], [250, 100]);
    let TransactionPhase::V0(comps) = &p[0] else { panic!("classic phase is v0") };
    let TxSetComponent::TxsetCompTxsMaybeDiscountedFee(c) = &comps[0];
    assert_eq!((c.base_fee, c.txs.len()), (Some(250), 2));
    let TransactionPhase::V1(par) = &p[1] else { panic!("Soroban phase is parallel") };
    assert_eq!(par.base_fee, Some(100));
    assert_eq!(par.execution_stages[0].0[0].0.len(), 1);
    let empty = phases(&[], &vec![], [100, 100]);
    assert!(matches!(&empty[1], TransactionPhase::V1(ParallelTxsComponent { base_fee: None, .. })));
}

/// A Soroban candidate declaring `instructions`, writing the keys numbered in `rw`.
fn soroban_at(src: u8, bid: i64, instructions: i64, rw: &[u8]) -> Candidate {
    let mut c = soroban(src, bid, 0);
    c.res[1] = instructions;
    let key = |n: u8| soroban_env_host::xdr::LedgerKey::Account(soroban_env_host::xdr::LedgerKeyAccount { account_id: acct(100 + n) });
    c.footprint = (vec![], rw.iter().map(|&n| key(n)).collect());
    c
}

/// One cluster per stage, 20M: A (bid 300, 15M), B and C (200 each, 8M). One stage takes A
/// (300); two stages of 10M take B and C (400); three and four take nothing. The two-stage set
/// is kept; A waits, and the lane pays 200.
#[test]
fn more_stages_are_kept_when_they_take_more_fees() {
    let c = vec![soroban_at(1, 300, 15_000_000, &[]), soroban_at(2, 200, 8_000_000, &[]), soroban_at(3, 200, 8_000_000, &[])];
    let s = select(&c, &LedgerLimits { instructions: 20_000_000, dependent_tx_clusters: 1, ..roomy() }, 100);
    assert_eq!(s.included, vec![1, 2]);
    assert_eq!(s.stages, vec![vec![vec![1]], vec![vec![2]]]);
    assert_eq!((s.base_fee[SOROBAN], s.surged[SOROBAN]), (200, true));
}

/// Two clusters per stage, 20M: A and B (10M each) write key 1, C (5M) too, D (5M) writes
/// key 2. One stage: A → bin 0; B merges (20M); C would make it 25M: out; D → bin 1. Two
/// stages (10M) also take 1100 in fees but in two stages; the one-stage set is kept.
#[test]
fn writers_of_one_key_share_a_cluster_up_to_the_cluster_limit() {
    let c = vec![
        soroban_at(1, 500, 10_000_000, &[1]),
        soroban_at(2, 400, 10_000_000, &[1]),
        soroban_at(3, 300, 5_000_000, &[1]),
        soroban_at(4, 200, 5_000_000, &[2]),
    ];
    let s = select(&c, &LedgerLimits { instructions: 20_000_000, dependent_tx_clusters: 2, ..roomy() }, 100);
    assert_eq!(s.included, vec![0, 1, 3]);
    assert_eq!(s.stages, vec![vec![vec![0, 1], vec![3]]]);
    assert_eq!(s.base_fee[SOROBAN], 200);
    assert_eq!(s.stages_of_included(), vec![vec![vec![0, 1], vec![2]]]);
}

/// An account's Soroban transactions share a cluster (a sandbox rule for its chains).
#[test]
fn an_accounts_soroban_transactions_share_a_cluster() {
    let c = vec![soroban_at(1, 500, 1_000_000, &[]), soroban_at(2, 400, 1_000_000, &[]), soroban_at(1, 300, 1_000_000, &[])];
    let limits = LedgerLimits { instructions: 1_500_000, dependent_tx_clusters: 2, ..roomy() };
    let s = select(&c, &limits, 100);
    // 0 → bin 0, 1 → bin 1, 2 merges with 0: 2M > 1.5M, out.
    assert_eq!(s.stages, vec![vec![vec![0], vec![1]]]);
    assert!(s.surged[SOROBAN]);
}
