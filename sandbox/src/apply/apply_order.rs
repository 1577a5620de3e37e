//! The order stellar-core applies a transaction set in (herder/TxSetFrame.cpp,
//! `ApplicableTxSetFrame::getPhasesInApplyOrder` → `TxSetPhaseFrame::sortedForApply`): the
//! phases in order (classic, then Soroban); within a phase, `sortedForApplySequential`:
//!
//! 1. group the transactions by source account (`TxSetUtils::buildAccountTxQueues`), each
//!    account's transactions by sequence number (`AccountTransactionQueue`);
//! 2. batch i holds every account's i-th transaction;
//! 3. each batch is sorted by `ApplyTxSorter`: `lessThanXored(fullHash1, fullHash2, setHash)`
//!    (util/types.cpp), i.e. by the transaction's full hash XOR the set's contents hash,
//!    compared bytewise;
//! 4. the batches are applied one after the other.
//!
//! The full hash is SHA-256 of the TransactionEnvelope XDR, signatures included (for a fee
//! bump, of the fee-bump envelope: `getFullHash`); the set hash is SHA-256 of the
//! GeneralizedTransactionSet XDR (`TxSetXDRFrame`'s `mHash(xdrSha256(xdrTxSet))`).
//!
//! The Soroban phase (protocol 23+, parallel) is ordered by `sortedForApplyParallel`: the
//! stages and clusters as the set's XDR lists them (hash order, parallel.rs `in_hash_order`),
//! each cluster sorted by `ApplyTxSorter`, then the stages sorted by their first cluster's
//! first transaction (`ApplyTxSorter` again); the clusters of a stage keep their XDR order.
//! Applied stage by stage, cluster by cluster (src/ledger/LedgerManagerImpl.cpp
//! `applyParallelPhase` numbers the transactions in that order). The sandbox applies them one
//! after the other in that order; clusters of a stage share no written key, so a parallel
//! apply gives the same results.
//!
//! Where the sandbox differs: an account's several Soroban transactions (the sandbox's queue
//! accepts them, stellar-core's does not) share a cluster (txset.rs), and within it they keep
//! sequence order: they take the places the sort gives the account's transactions, earliest
//! sequence number first.

use crate::apply::parallel::{in_hash_order, Stages};
use crate::apply::txset::CLASSIC;
use soroban_env_host::xdr::AccountId;
use std::cmp::Ordering;
use std::collections::{HashMap, VecDeque};

/// What the apply order depends on, for one transaction of the set.
#[derive(Clone, Debug)]
pub struct Entry {
    /// SHA-256 of the envelope XDR (the fee-bump envelope for a fee bump).
    pub full_hash: [u8; 32],
    /// The (inner) transaction's source account.
    pub source: AccountId,
    /// The (inner) transaction's sequence number.
    pub seq: i64,
    /// txset::CLASSIC or txset::SOROBAN.
    pub phase: usize,
}

/// stellar-core's `lessThanXored(l, r, x)` as an ordering: `l ^ x` against `r ^ x`, bytewise.
pub fn cmp_xored(l: &[u8; 32], r: &[u8; 32], x: &[u8; 32]) -> Ordering {
    l.iter().zip(x).map(|(a, k)| a ^ k).cmp(r.iter().zip(x).map(|(b, k)| b ^ k))
}

/// Indices into `txs` in the order stellar-core applies them, for a set whose contents hash is
/// `set_hash`; `soroban`: the Soroban phase's stages of clusters, of indices into `txs`.
pub fn apply_order(txs: &[Entry], soroban: &Stages, set_hash: &[u8; 32]) -> Vec<usize> {
    let mut out = sequential(txs, set_hash);
    out.extend(parallel(txs, soroban, set_hash));
    out
}

/// `sortedForApplySequential` over the classic phase.
fn sequential(txs: &[Entry], set_hash: &[u8; 32]) -> Vec<usize> {
    let mut out = vec![];
    // Each account's transactions of this phase, by sequence number.
    let mut queues: Vec<VecDeque<usize>> = vec![];
    let mut of_account: HashMap<&AccountId, usize> = HashMap::new();
    for (i, t) in txs.iter().enumerate().filter(|(_, t)| t.phase == CLASSIC) {
        let q = *of_account.entry(&t.source).or_insert_with(|| {
            queues.push(VecDeque::new());
            queues.len() - 1
        });
        queues[q].push_back(i);
    }
    for q in &mut queues {
        q.make_contiguous().sort_by_key(|&i| txs[i].seq);
    }
    loop {
        let mut batch: Vec<usize> = queues.iter_mut().filter_map(VecDeque::pop_front).collect();
        if batch.is_empty() {
            break;
        }
        batch.sort_by(|&a, &b| cmp_xored(&txs[a].full_hash, &txs[b].full_hash, set_hash));
        out.extend(batch);
    }
    out
}

/// `sortedForApplyParallel` over the Soroban phase, flattened.
fn parallel(txs: &[Entry], soroban: &Stages, set_hash: &[u8; 32]) -> Vec<usize> {
    let by_xored = |a: &usize, b: &usize| cmp_xored(&txs[*a].full_hash, &txs[*b].full_hash, set_hash);
    let mut stages = in_hash_order(soroban, |i| txs[i].full_hash);
    for cluster in stages.iter_mut().flatten() {
        cluster.sort_by(by_xored);
        keep_sequence_order(txs, cluster);
    }
    stages.sort_by(|a, b| by_xored(&a[0][0], &b[0][0]));
    stages.into_iter().flatten().flatten().collect()
}

/// Puts each account's transactions of `cluster` in sequence order within the places they hold.
fn keep_sequence_order(txs: &[Entry], cluster: &mut [usize]) {
    let mut places: HashMap<&AccountId, Vec<usize>> = HashMap::new();
    for (p, &i) in cluster.iter().enumerate() {
        places.entry(&txs[i].source).or_default().push(p);
    }
    for ps in places.values().filter(|ps| ps.len() > 1) {
        let mut ids: Vec<usize> = ps.iter().map(|&p| cluster[p]).collect();
        ids.sort_by_key(|&i| txs[i].seq);
        for (&p, i) in ps.iter().zip(ids) {
            cluster[p] = i;
        }
    }
}

#[cfg(test)]
#[path = "apply_order_tests.rs"]
mod tests;
