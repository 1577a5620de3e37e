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
//! stellar-core sorts the Soroban phase with `sortedForApplyParallel` (each cluster by
//! `ApplyTxSorter`, stages by their first transaction). The sandbox writes that phase as one
//! stage of one cluster and uses the batches for it too: with one transaction per account (what
//! stellar-core's queue allows) the batches are a single one sorted by `ApplyTxSorter`, the
//! same order; with an account's several queued transactions (the sandbox allows that) they
//! stay in sequence order.

use crate::apply::txset::{CLASSIC, SOROBAN};
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
/// `set_hash`.
pub fn apply_order(txs: &[Entry], set_hash: &[u8; 32]) -> Vec<usize> {
    let mut out = Vec::with_capacity(txs.len());
    for phase in [CLASSIC, SOROBAN] {
        // Each account's transactions of this phase, by sequence number.
        let mut queues: Vec<VecDeque<usize>> = vec![];
        let mut of_account: HashMap<&AccountId, usize> = HashMap::new();
        for (i, t) in txs.iter().enumerate().filter(|(_, t)| t.phase == phase) {
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
    }
    out
}

#[cfg(test)]
#[path = "apply_order_tests.rs"]
mod tests;
