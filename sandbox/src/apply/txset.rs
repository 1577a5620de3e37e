//! A ledger's transaction set, chosen from the queue as stellar-core's surge pricing chooses
//! it (herder/SurgePricingUtils.cpp, TxSetFrame.cpp): two phases with limits of their own —
//! classic by the header's max_tx_set_size in operations, Soroban by the ConfigSetting ledger
//! limits — and, when a phase holds more than fits, the highest inclusion fee per operation
//! first, skipping what does not fit and trying the next (gaps allowed). Every transaction
//! of a phase that left something out then pays that phase's lowest included fee per
//! operation (the lane base fee) instead of its own bid.
//!
//! Where the sandbox differs: a source account may have several transactions queued, so its
//! transactions enter in sequence order (the next one becomes a candidate once the previous
//! is in; when one does not fit, the later ones wait too). Equal fee rates go by arrival
//! (stellar-core breaks ties at random).
//!
//! Since protocol 23 the Soroban phase is built into stages of clusters (parallel.rs,
//! stellar-core's ParallelTxSetBuilder.cpp): instructions are no lane limit (TxSetFrame.cpp
//! `createSurgePricingLangeConfig` lifts it) but a Soroban transaction that passes the other
//! limits goes in only if a stage takes it. The whole choice is made for each stage count and
//! the one parallel.rs `pick`s is kept. An account's several Soroban transactions count as
//! conflicting, so they share a cluster (with one transaction per account, as stellar-core's
//! queue has it, this adds nothing).

use crate::apply::parallel::{self, Phase, Stages};
use crate::apply::parse::ParsedTx;
use crate::ledger::network::Settings;
use soroban_env_host::xdr::{
    AccountId, DependentTxCluster, GeneralizedTransactionSet, Hash, LedgerKey, Limits, ParallelTxExecutionStage,
    ParallelTxsComponent, TransactionEnvelope, TransactionPhase, TransactionSetV1, TxSetComponent,
    TxSetComponentTxsMaybeDiscountedFee, VecM, WriteXdr,
};
use sha2::Digest;
use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap, HashMap, VecDeque};

pub const CLASSIC: usize = 0;
pub const SOROBAN: usize = 1;

/// Bytes each phase may take (stellar-core's MAX_TX_SET_ALLOWANCE / 2, 5 MB).
pub const PHASE_BYTE_ALLOWANCE: i64 = 5 * 1024 * 1024;

/// The limits a ledger's transaction set is built under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerLimits {
    /// ledger_max_tx_count (ContractExecutionLanes); a fee-bumped Soroban transaction counts
    /// two, as stellar-core counts its operations.
    pub tx_count: u32,
    pub instructions: i64,
    pub disk_read_bytes: u32,
    pub disk_read_entries: u32,
    pub write_bytes: u32,
    pub write_entries: u32,
    pub txs_size_bytes: u32,
    /// The header's max_tx_set_size: operations of the classic phase.
    pub classic_ops: u32,
    pub dependent_tx_clusters: u32,
}

impl LedgerLimits {
    pub fn new(s: &Settings, classic_ops: u32) -> Self {
        LedgerLimits {
            tx_count: s.lanes.ledger_max_tx_count,
            instructions: s.compute.ledger_max_instructions,
            disk_read_bytes: s.ledger_cost.ledger_max_disk_read_bytes,
            disk_read_entries: s.ledger_cost.ledger_max_disk_read_entries,
            write_bytes: s.ledger_cost.ledger_max_write_bytes,
            write_entries: s.ledger_cost.ledger_max_write_ledger_entries,
            txs_size_bytes: s.bandwidth.ledger_max_txs_size_bytes,
            classic_ops,
            dependent_tx_clusters: s.parallel.ledger_max_dependent_tx_clusters,
        }
    }

    /// Per phase: [operations, instructions, bytes, disk read bytes, write bytes, disk read
    /// entries, write entries] (stellar-core's Resource order).
    /// Instructions are left to the stage builder (parallel.rs).
    fn per_phase(&self) -> [Res; 2] {
        let m = i64::MAX;
        [
            [self.classic_ops as i64, m, PHASE_BYTE_ALLOWANCE, m, m, m, m],
            [
                self.tx_count as i64,
                m,
                PHASE_BYTE_ALLOWANCE.min(self.txs_size_bytes as i64),
                self.disk_read_bytes as i64,
                self.write_bytes as i64,
                self.disk_read_entries as i64,
                self.write_entries as i64,
            ],
        ]
    }
}

type Res = [i64; 7];

/// What selection needs to know of one queued transaction.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub source: AccountId,
    pub phase: usize,
    /// Inclusion fee bid (the full fee less a Soroban transaction's declared resource fee).
    pub bid: i64,
    pub ops: u32,
    pub res: Res,
    /// Goes in first whatever the limits say (friendbot's own transaction).
    pub pinned: bool,
    /// A Soroban transaction's footprint: (read-only, read-write) keys.
    pub footprint: (Vec<LedgerKey>, Vec<LedgerKey>),
}

impl Candidate {
    pub fn of(ptx: &ParsedTx, pinned: bool) -> Candidate {
        let ops = ptx.num_ops();
        let size = ptx.size as i64;
        let mut footprint = (vec![], vec![]);
        let (phase, res) = match ptx.soroban_data().filter(|_| ptx.is_soroban()) {
            Some(d) => {
                footprint = (d.resources.footprint.read_only.to_vec(), d.resources.footprint.read_write.to_vec());
                let r = &d.resources;
                let res = [
                    ops as i64,
                    r.instructions as i64,
                    size,
                    r.disk_read_bytes as i64,
                    r.write_bytes as i64,
                    crate::apply::fees::disk_read_entries(ptx, d, true) as i64,
                    r.footprint.read_write.len() as i64,
                ];
                (SOROBAN, res)
            }
            None => (CLASSIC, [ops as i64, 0, size, 0, 0, 0, 0]),
        };
        Candidate { source: ptx.source(), phase, bid: ptx.inclusion_fee(), ops, res, pinned, footprint }
    }

    /// Inclusion fee per operation, rounded down (stellar-core's computePerOpFee).
    pub fn fee_per_op(&self) -> i64 {
        self.bid / self.ops.max(1) as i64
    }
}

/// The outcome: which candidates go in (indices, ascending = arrival order) and what each
/// phase's transactions pay per operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    pub included: Vec<usize>,
    pub base_fee: [i64; 2],
    /// Whether a phase left a transaction out for lack of room (surge pricing in effect).
    pub surged: [bool; 2],
    /// The Soroban phase's stages of clusters, of candidate indices.
    pub stages: Stages,
}

impl Selection {
    /// `stages` with each candidate index replaced by its position in `included` (the order
    /// take_tx_set hands the transactions over in).
    pub fn stages_of_included(&self) -> Stages {
        let pos = |i: &usize| self.included.binary_search(i).expect("staged candidates are included");
        self.stages.iter().map(|s| s.iter().map(|c| c.iter().map(pos).collect()).collect()).collect()
    }
}

/// A candidate at the head of its account's queue, ordered by priority.
#[derive(PartialEq, Eq)]
struct Head {
    pinned: bool,
    bid: i64,
    ops: u32,
    arrival: usize,
}

impl Ord for Head {
    fn cmp(&self, o: &Self) -> Ordering {
        // Fee rates compared as bid1 · ops2 vs bid2 · ops1 (stellar-core's feeRate3WayCompare);
        // earlier arrival first among equals.
        let rate = (self.bid as i128 * o.ops.max(1) as i128).cmp(&(o.bid as i128 * self.ops.max(1) as i128));
        self.pinned.cmp(&o.pinned).then(rate).then(o.arrival.cmp(&self.arrival))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Chooses what the next ledger applies from `cands` (in arrival order): the whole choice for
/// each Soroban stage count, keeping the one parallel.rs `pick`s.
pub fn select(cands: &[Candidate], limits: &LedgerLimits, header_base_fee: i64) -> Selection {
    let conflicts = conflicts(cands);
    let tries: Vec<Try> = (parallel::MIN_STAGE_COUNT..=parallel::MAX_STAGE_COUNT)
        .map(|n| fill(cands, limits, &conflicts, Phase::new(n, limits.dependent_tx_clusters, limits.instructions)))
        .collect();
    let fees: Vec<(i64, usize)> = tries
        .iter()
        .map(|t| (t.included.iter().filter(|&&i| cands[i].phase == SOROBAN).map(|&i| cands[i].bid).sum(), t.stages.len()))
        .collect();
    let Try { mut included, surged, stages } = tries.into_iter().nth(parallel::pick(&fees).unwrap_or(0)).expect("a try per stage count");
    included.sort_unstable();
    let mut base_fee = [header_base_fee; 2];
    for phase in [CLASSIC, SOROBAN] {
        if surged[phase] {
            let lowest = included.iter().map(|&i| &cands[i]).filter(|c| c.phase == phase).map(Candidate::fee_per_op).min();
            base_fee[phase] = lowest.unwrap_or(header_base_fee);
        }
    }
    Selection { included, base_fee, surged, stages }
}

/// Conflicts between Soroban candidates: their footprints' (parallel.rs), and an account's
/// transactions with each other.
fn conflicts(cands: &[Candidate]) -> Vec<BTreeSet<usize>> {
    let fps: Vec<(&[LedgerKey], &[LedgerKey])> = cands.iter().map(|c| (&c.footprint.0[..], &c.footprint.1[..])).collect();
    let mut out = parallel::conflicts(&fps);
    let mut of_account: HashMap<&AccountId, Vec<usize>> = HashMap::new();
    for (i, c) in cands.iter().enumerate().filter(|(_, c)| c.phase == SOROBAN) {
        of_account.entry(&c.source).or_default().push(i);
    }
    for ids in of_account.values() {
        for &a in ids {
            out[a].extend(ids.iter().copied().filter(|&b| b != a));
        }
    }
    out
}

struct Try {
    included: Vec<usize>,
    surged: [bool; 2],
    stages: Stages,
}

/// One pass in fee order (per-account sequence order kept) under `limits`, the Soroban
/// transactions also needing a place in `phase`'s stages. A pinned Soroban transaction no stage
/// takes gets a stage of its own at the end.
fn fill(cands: &[Candidate], limits: &LedgerLimits, conflicts: &[BTreeSet<usize>], mut phase: Phase) -> Try {
    let mut chains: HashMap<&AccountId, VecDeque<usize>> = HashMap::new();
    for (i, c) in cands.iter().enumerate() {
        chains.entry(&c.source).or_default().push_back(i);
    }
    let head = |i: usize| Head { pinned: cands[i].pinned, bid: cands[i].bid, ops: cands[i].ops, arrival: i };
    let mut heap: BinaryHeap<Head> = chains.values_mut().filter_map(|q| q.pop_front()).map(head).collect();
    let mut left = limits.per_phase();
    let mut included = vec![];
    let mut surged = [false; 2];
    let mut forced = vec![];
    while let Some(h) = heap.pop() {
        let i = h.arrival;
        let c = &cands[i];
        let room = &mut left[c.phase];
        let mut fits = c.pinned || c.res.iter().zip(room.iter()).all(|(r, l)| r <= l);
        if fits && c.phase == SOROBAN && !phase.try_add(i, c.res[1].max(0) as u64, &conflicts[i]) {
            fits = c.pinned;
            forced.extend(Some(i).filter(|_| c.pinned));
        }
        if !fits {
            // Left out; the account's later transactions wait behind it.
            surged[c.phase] = true;
            continue;
        }
        for (l, r) in room.iter_mut().zip(c.res.iter()) {
            *l = l.saturating_sub(*r);
        }
        included.push(i);
        if let Some(next) = chains.get_mut(&c.source).and_then(|q| q.pop_front()) {
            heap.push(head(next));
        }
    }
    let mut stages = phase.stages();
    stages.extend(forced.into_iter().map(|i| vec![vec![i]]));
    Try { included, surged, stages }
}

/// The two phases of a GeneralizedTransactionSet v1 as stellar-core writes them on protocol
/// 23+ (TxSetFrame.cpp `sequentialPhaseToXdr`, `parallelPhaseToXdr`): classic as one
/// discounted-fee component in full-hash order (`TxSetUtils::hashTxSorter`); Soroban as a
/// parallel component of `soroban`'s stages of clusters, in hash order as
/// `TxSetUtils::sortParallelTxsInHashOrder` puts them (parallel.rs `in_hash_order`).
/// `txs`: (full hash — SHA-256 of the envelope XDR, see ParsedTx::full_hash —, envelope, phase);
/// `soroban`: stages of clusters of indices into `txs`, holding each Soroban transaction once.
pub fn phases(txs: &[(&[u8; 32], &TransactionEnvelope, usize)], soroban: &Stages, base_fee: [i64; 2]) -> VecM<TransactionPhase> {
    let mut classic: Vec<_> = txs.iter().filter(|t| t.2 == CLASSIC).collect();
    classic.sort_by_key(|t| *t.0);
    let classic: Vec<TransactionEnvelope> = classic.into_iter().map(|t| t.1.clone()).collect();
    debug_assert_eq!(
        soroban.iter().flatten().flatten().count(),
        txs.iter().filter(|t| t.2 == SOROBAN).count(),
        "every Soroban transaction in one cluster"
    );
    let classic_phase = if classic.is_empty() {
        TransactionPhase::V0(VecM::default())
    } else {
        let comp = TxSetComponent::TxsetCompTxsMaybeDiscountedFee(TxSetComponentTxsMaybeDiscountedFee {
            base_fee: Some(base_fee[CLASSIC]),
            txs: classic.try_into().unwrap_or_default(),
        });
        TransactionPhase::V0(vec![comp].try_into().expect("one component"))
    };
    let stages = parallel::in_hash_order(soroban, |i| *txs[i].0);
    let soroban_phase = TransactionPhase::V1(if stages.is_empty() {
        ParallelTxsComponent { base_fee: None, execution_stages: VecM::default() }
    } else {
        let stage = |s: &Vec<Vec<usize>>| {
            let clusters: Vec<DependentTxCluster> =
                s.iter().map(|c| DependentTxCluster(c.iter().map(|&i| txs[i].1.clone()).collect::<Vec<_>>().try_into().unwrap_or_default())).collect();
            ParallelTxExecutionStage(clusters.try_into().unwrap_or_default())
        };
        let execution_stages: Vec<ParallelTxExecutionStage> = stages.iter().map(stage).collect();
        ParallelTxsComponent { base_fee: Some(base_fee[SOROBAN]), execution_stages: execution_stages.try_into().unwrap_or_default() }
    });
    vec![classic_phase, soroban_phase].try_into().expect("two phases")
}

/// The ledger's GeneralizedTransactionSet (v1) and its contents hash, SHA-256 of its XDR
/// (stellar-core's TxSetXDRFrame: `mHash(xdrSha256(xdrTxSet))`), what the header's
/// `scp_value.tx_set_hash` holds and the apply order is drawn from.
pub fn tx_set(previous_ledger_hash: [u8; 32], phases: VecM<TransactionPhase>) -> (GeneralizedTransactionSet, [u8; 32]) {
    let set = GeneralizedTransactionSet::V1(TransactionSetV1 { previous_ledger_hash: Hash(previous_ledger_hash), phases });
    let hash: [u8; 32] = sha2::Sha256::digest(set.to_xdr(Limits::none()).expect("tx set encodes")).into();
    (set, hash)
}

#[cfg(test)]
#[path = "txset_tests.rs"]
mod tests;
