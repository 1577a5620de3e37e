//! The Soroban phase as stellar-core builds it since protocol 23 (CAP-63): stages of clusters,
//! after `src/herder/ParallelTxSetBuilder.cpp` (`buildSurgePricedParallelSorobanPhase`).
//!
//! - Two transactions conflict when one's read-write footprint holds a key the other has in
//!   its read-only or read-write footprint (RW-RW and RO-RW; two readers of a key do not
//!   conflict: `prepareBuilderTxs`).
//! - A stage holds clusters: conflicting transactions (transitively) share one. A new
//!   transaction is merged with every cluster it conflicts with (`Stage::tryAdd`).
//! - The clusters are packed into at most `ledger_max_dependent_tx_clusters` bins, each bin
//!   at most `ledger_max_instructions / stage count` instructions (what is applied one after
//!   the other), the stage at most bins × that. A bin becomes a `DependentTxCluster` in the
//!   XDR. Packing is first-fit in place; when that fails, first-fit-decreasing over all the
//!   clusters (once only for a transaction that conflicts with nothing,
//!   `mTriedCompactingBinPacking`).
//! - Transactions are tried in fee order, each in the first stage that takes it; one no stage
//!   takes stays out (surge pricing).
//! - This is done for every stage count from `SOROBAN_PHASE_MIN_STAGE_COUNT` (1) to
//!   `SOROBAN_PHASE_MAX_STAGE_COUNT` (4) (`src/main/Config.cpp` defaults); the set kept is the
//!   one with the fewest non-empty stages among those whose total inclusion fee is at least
//!   0.999 × the best total (`MAX_INCLUSION_FEE_TOLERANCE_FOR_STAGE_COUNT`).
//!
//! One difference: stellar-core's first-fit-decreasing sorts with `std::sort`, which leaves
//! equal-instruction clusters in an unspecified order; the sandbox sorts stably.

use soroban_env_host::xdr::LedgerKey;
use std::collections::{BTreeMap, BTreeSet};

/// stellar-core's SOROBAN_PHASE_MIN_STAGE_COUNT default.
pub const MIN_STAGE_COUNT: u32 = 1;
/// stellar-core's SOROBAN_PHASE_MAX_STAGE_COUNT default.
pub const MAX_STAGE_COUNT: u32 = 4;
/// MAX_INCLUSION_FEE_TOLERANCE_FOR_STAGE_COUNT.
const FEE_TOLERANCE: f64 = 0.999;

/// Stages of clusters of transaction ids (the XDR's executionStages).
pub type Stages = Vec<Vec<Vec<usize>>>;

/// For each transaction, the ids of those it conflicts with, from `(read_only, read_write)`
/// footprints indexed by id.
pub fn conflicts(footprints: &[(&[LedgerKey], &[LedgerKey])]) -> Vec<BTreeSet<usize>> {
    // Per key: (readers, writers).
    let mut by_key: BTreeMap<&LedgerKey, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
    for (id, (ro, rw)) in footprints.iter().enumerate() {
        for k in ro.iter() {
            by_key.entry(k).or_default().0.push(id);
        }
        for k in rw.iter() {
            by_key.entry(k).or_default().1.push(id);
        }
    }
    let mut out = vec![BTreeSet::new(); footprints.len()];
    for (readers, writers) in by_key.values() {
        for (i, &w) in writers.iter().enumerate() {
            for &o in writers[i + 1..].iter().chain(readers) {
                if o != w {
                    out[w].insert(o);
                    out[o].insert(w);
                }
            }
        }
    }
    out
}

#[derive(Clone, Debug)]
struct Cluster {
    instructions: u64,
    txs: BTreeSet<usize>,
    bin: usize,
}

/// One stage being filled (stellar-core's `Stage`).
#[derive(Clone, Debug)]
struct Stage {
    per_cluster: u64,
    per_stage: u64,
    bins: Vec<u64>,
    clusters: Vec<Cluster>,
    instructions: u64,
    tried_compacting: bool,
}

impl Stage {
    fn try_add(&mut self, id: usize, instructions: u64, conflicts: &BTreeSet<usize>) -> bool {
        if self.instructions + instructions > self.per_stage {
            return false;
        }
        let hit: Vec<usize> = (0..self.clusters.len()).filter(|&c| !self.clusters[c].txs.is_disjoint(conflicts)).collect();
        let merged_instructions = instructions + hit.iter().map(|&c| self.clusters[c].instructions).sum::<u64>();
        if merged_instructions > self.per_cluster {
            return false;
        }
        let mut merged = Cluster { instructions: merged_instructions, txs: BTreeSet::from([id]), bin: 0 };
        let mut saved = vec![];
        let mut kept = vec![];
        for (i, c) in std::mem::take(&mut self.clusters).into_iter().enumerate() {
            if hit.contains(&i) {
                merged.txs.extend(c.txs.iter().copied());
                saved.push(c);
            } else {
                kept.push(c);
            }
        }
        self.clusters = kept;
        // In place: take the merged clusters out of their bins, put the new one in the first
        // bin with room.
        for c in &saved {
            self.bins[c.bin] -= c.instructions;
        }
        if let Some(b) = self.bins.iter().position(|&used| used + merged_instructions <= self.per_cluster) {
            self.bins[b] += merged_instructions;
            merged.bin = b;
            self.clusters.push(merged);
            self.instructions += instructions;
            return true;
        }
        for c in &saved {
            self.bins[c.bin] += c.instructions;
        }
        self.clusters.push(merged);
        if saved.is_empty() {
            if self.tried_compacting {
                self.rollback(id, saved);
                return false;
            }
            self.tried_compacting = true;
        }
        match self.first_fit_decreasing() {
            Some(bins) => {
                self.bins = bins;
                self.instructions += instructions;
                true
            }
            None => {
                self.rollback(id, saved);
                false
            }
        }
    }

    /// `binPacking`: sorts the clusters by instructions, largest first (in place, as
    /// stellar-core does, even when packing fails), and puts each in the first bin with room.
    fn first_fit_decreasing(&mut self) -> Option<Vec<u64>> {
        self.clusters.sort_by_key(|c| std::cmp::Reverse(c.instructions));
        let mut bins = vec![0u64; self.bins.len()];
        let mut placed = Vec::with_capacity(self.clusters.len());
        for c in &self.clusters {
            let b = bins.iter().position(|&used| used + c.instructions <= self.per_cluster)?;
            bins[b] += c.instructions;
            placed.push(b);
        }
        for (c, b) in self.clusters.iter_mut().zip(placed) {
            c.bin = b;
        }
        Some(bins)
    }

    /// `rollbackClusters`: swap-remove the merged cluster (the one holding `id`), put back
    /// the ones it was merged from.
    fn rollback(&mut self, id: usize, saved: Vec<Cluster>) {
        if let Some(i) = self.clusters.iter().position(|c| c.txs.contains(&id)) {
            self.clusters.swap_remove(i);
        }
        self.clusters.extend(saved);
    }

    /// The bins as clusters of ids (`visitAllTransactions`: clusters in order, ids ascending,
    /// a bin's cluster numbered when first met).
    fn bins_as_clusters(&self) -> Vec<Vec<usize>> {
        let mut slot: Vec<Option<usize>> = vec![None; self.bins.len()];
        let mut out: Vec<Vec<usize>> = vec![];
        for c in &self.clusters {
            let s = *slot[c.bin].get_or_insert_with(|| {
                out.push(vec![]);
                out.len() - 1
            });
            out[s].extend(c.txs.iter().copied());
        }
        out
    }
}

/// The Soroban phase for one stage count, filled one transaction at a time.
#[derive(Clone, Debug)]
pub struct Phase {
    stages: Vec<Stage>,
}

impl Phase {
    /// `ParallelPartitionConfig`: `stage_count` stages of `clusters_per_stage` bins, each bin
    /// `ledger_max_instructions / stage_count` instructions.
    pub fn new(stage_count: u32, clusters_per_stage: u32, ledger_max_instructions: i64) -> Phase {
        let per_cluster = ledger_max_instructions.max(0) as u64 / stage_count.max(1) as u64;
        let stage = Stage {
            per_cluster,
            per_stage: per_cluster.saturating_mul(clusters_per_stage as u64),
            bins: vec![0; clusters_per_stage as usize],
            clusters: vec![],
            instructions: 0,
            tried_compacting: false,
        };
        Phase { stages: vec![stage; stage_count as usize] }
    }

    /// Adds transaction `id` to the first stage that takes it; false when none does.
    pub fn try_add(&mut self, id: usize, instructions: u64, conflicts: &BTreeSet<usize>) -> bool {
        self.stages.iter_mut().any(|s| s.try_add(id, instructions, conflicts))
    }

    /// The non-empty stages, each a list of non-empty clusters of ids.
    pub fn stages(&self) -> Stages {
        self.stages.iter().map(Stage::bins_as_clusters).filter(|s| !s.is_empty()).collect()
    }
}

/// `TxSetUtils::sortParallelTxsInHashOrder` (src/herder/TxSetUtils.cpp), the order the XDR
/// lists the phase in: each cluster by full hash, a stage's clusters by their first hash, the
/// stages by their first cluster's first hash. `hash(id)`: the transaction's full hash.
pub fn in_hash_order(stages: &Stages, hash: impl Fn(usize) -> [u8; 32]) -> Stages {
    let mut out = stages.clone();
    for stage in &mut out {
        for cluster in stage.iter_mut() {
            cluster.sort_by_key(|&i| hash(i));
        }
        stage.retain(|c| !c.is_empty());
        stage.sort_by_key(|c| hash(c[0]));
    }
    out.retain(|s| !s.is_empty());
    out.sort_by_key(|s| hash(s[0][0]));
    out
}

/// Which of the tries (total inclusion fee, stages) to keep: the fewest stages among those
/// within the fee tolerance of the best, the first such on a tie. None for no tries.
pub fn pick(tries: &[(i64, usize)]) -> Option<usize> {
    let best = tries.iter().map(|t| t.0).max()?;
    // stellar-core: `int64_t maxTotalInclusionFee *= 0.999` (through a double, truncated).
    let floor = (best as f64 * FEE_TOLERANCE) as i64;
    let mut chosen: Option<usize> = None;
    for (i, &(fee, stages)) in tries.iter().enumerate() {
        if fee >= floor && chosen.is_none_or(|c| stages < tries[c].1) {
            chosen = Some(i);
        }
    }
    chosen
}

#[cfg(test)]
#[path = "parallel_tests.rs"]
mod tests;
