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
//! accepts them, stellar-core's does not) share a cluster (txset.rs), and the cluster is ordered
//! in batches as above, so they stay in sequence order; with one transaction per account a
//! cluster's batch is a single one, sorted by `ApplyTxSorter` as stellar-core sorts it.

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
    let classic: Vec<usize> = (0..txs.len()).filter(|&i| txs[i].phase == CLASSIC).collect();
    batches(txs, &classic, set_hash)
}

/// `sortedForApplyParallel` over the Soroban phase, flattened.
fn parallel(txs: &[Entry], soroban: &Stages, set_hash: &[u8; 32]) -> Vec<usize> {
    let mut stages = in_hash_order(soroban, |i| txs[i].full_hash);
    for cluster in stages.iter_mut().flatten() {
        *cluster = batches(txs, cluster, set_hash);
    }
    stages.sort_by(|a, b| cmp_xored(&txs[a[0][0]].full_hash, &txs[b[0][0]].full_hash, set_hash));
    stages.into_iter().flatten().flatten().collect()
}

/// `ids` grouped by source account, each account's by sequence number; batch i holds every
/// account's i-th, each batch sorted by `ApplyTxSorter`, the batches one after the other.
/// With one transaction per account: `ids` sorted by `ApplyTxSorter`.
fn batches(txs: &[Entry], ids: &[usize], set_hash: &[u8; 32]) -> Vec<usize> {
    let mut out = Vec::with_capacity(ids.len());
    let mut queues: Vec<VecDeque<usize>> = vec![];
    let mut of_account: HashMap<&AccountId, usize> = HashMap::new();
    for &i in ids {
        let q = *of_account.entry(&txs[i].source).or_insert_with(|| {
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

#[cfg(test)]
#[path = "apply_order_tests.rs"]
mod tests;
