//! The queue of accepted transactions between closes, kept as stellar-core's TransactionQueue
//! keeps it: each ordinary close takes what fits the ledger (txset.rs), then ages the rest
//! and drops what can no longer be included. A dropped transaction is forgotten
//! (getTransaction answers NOT_FOUND), as a network's queue forgets it.
//!
//! - Age: a source account's pending transactions age one ledger per close in which none of
//!   them was applied (applying one restarts the count). At TRANSACTION_QUEUE_TIMEOUT_LEDGERS
//!   (4, stellar-core's HerderImpl) the account's pending transactions are all dropped.
//! - Validity: after each close the queue is checked again against the new state (sequence,
//!   balance, time bounds, signatures, as at submission) and what fails is dropped; before a
//!   close, transactions whose upper time bound has passed for that close are dropped.
//! - Replace-by-fee: a fee bump of a pending transaction (same source account and sequence
//!   number) replaces it at ten times its inclusion fee per operation (replace_by_fee.rs).
//! - Admission: under `--queue-rules strict` (the default) one transaction per source account
//!   (admission.rs), so an account's transactions reach ledgers one at a time.
//! - Arrival: `close_arrived` closes with only some pending transactions as candidates, the
//!   others held aside as if they had not reached the network yet.

use crate::node::core::Node;

use crate::apply::parse::ParsedTx;
use crate::apply::tx::{self};
use crate::apply::txset::{self, Candidate, LedgerLimits};
use crate::base::records::Closed;
use crate::ledger::overlay::Overlay;
use serde_json::{json, Value};
use soroban_env_host::xdr::AccountId;
use std::collections::{HashMap, HashSet};

/// stellar-core's TRANSACTION_QUEUE_TIMEOUT_LEDGERS.
pub const QUEUE_TIMEOUT_LEDGERS: u32 = 4;

impl Node {
    /// Keeps only the pending transactions named in `order`, in that order, for the next close,
    /// and hands back the others (still pending afterwards, in arrival order). A transaction
    /// held back while a later one from the same account goes ahead fails with txBAD_SEQ, as
    /// it would on a network that received them in that order.
    pub fn select_pending(&mut self, order: &[[u8; 32]]) -> Result<Vec<ParsedTx>, String> {
        let mut rest = std::mem::take(&mut self.pending);
        let mut chosen = Vec::with_capacity(order.len());
        for h in order {
            match rest.iter().position(|p| &p.hash == h) {
                Some(i) => chosen.push(rest.remove(i)),
                None => {
                    rest.extend(chosen);
                    self.pending = rest;
                    return Err(format!("order: {} is not pending", hex::encode(h)));
                }
            }
        }
        self.pending = chosen;
        Ok(rest)
    }

    /// Whether `ptx` is known already (stellar-core's isDuplicateTx): applied or pending with
    /// the same hash, or the inner transaction of a pending fee bump.
    pub fn is_duplicate(&self, ptx: &ParsedTx) -> bool {
        self.chain.txs.contains_key(&ptx.hash)
            || self.pending.iter().any(|p| p.hash == ptx.hash || (p.fee_bump.is_some() && ptx.fee_bump.is_none() && p.inner_hash == ptx.hash))
    }

    /// The pending transaction a fee bump would replace (TransactionQueue::canAdd): the one
    /// with its inner transaction's source account and sequence number.
    pub fn replaced_by(&self, ptx: &ParsedTx) -> Option<usize> {
        ptx.fee_bump.as_ref()?;
        let source = ptx.source();
        self.pending.iter().position(|p| p.tx.seq_num == ptx.tx.seq_num && p.source() == source)
    }

    /// Closes one ledger with the pending transactions that fit its limits (by inclusion fee
    /// rate when more is pending, txset.rs), applied in stellar-core's order (apply_order.rs)
    /// or, with `--apply-order arrival`, in arrival order; then ages the queue.
    pub fn close_ledger(&mut self) -> u32 {
        self.close(None, true).seq
    }

    /// `close_ledger`, answering what the close did.
    pub fn close_ledger_report(&mut self) -> Closed {
        self.close(None, true)
    }

    /// An ordinary close in which only the pending transactions named in `arrived` have reached
    /// the network: they are the candidates (limits, surge pricing, apply order, ageing and
    /// drops as in any ordinary close). The others are held aside — not candidates, not aged,
    /// not checked, not dropped — and are pending again afterwards, in arrival order. An
    /// account's arrived transactions must be its earliest pending ones (the network could not
    /// have accepted a later sequence number first).
    pub fn close_arrived(&mut self, arrived: &[[u8; 32]]) -> Result<Closed, String> {
        let named: HashSet<[u8; 32]> = arrived.iter().copied().collect();
        if let Some(h) = arrived.iter().find(|h| !self.pending.iter().any(|p| &p.hash == *h)) {
            return Err(format!("arrived: {} is not pending", hex::encode(h)));
        }
        let mut waiting: HashMap<AccountId, [u8; 32]> = HashMap::new();
        for p in &self.pending {
            let source = p.source();
            if !named.contains(&p.hash) {
                waiting.entry(source).or_insert(p.hash);
            } else if let Some(earlier) = waiting.get(&source) {
                return Err(format!(
                    "arrived: {} (sequence {} of {source}) cannot arrive before {}, the account's earlier pending transaction",
                    hex::encode(p.hash),
                    p.tx.seq_num.0,
                    hex::encode(earlier)
                ));
            }
        }
        let rank: HashMap<[u8; 32], usize> = self.pending.iter().enumerate().map(|(i, p)| (p.hash, i)).collect();
        let (now, held): (Vec<ParsedTx>, Vec<ParsedTx>) = std::mem::take(&mut self.pending).into_iter().partition(|p| named.contains(&p.hash));
        let arrived_sources: HashSet<AccountId> = now.iter().map(|p| p.source()).collect();
        let held_ages: Vec<(AccountId, u32)> = held
            .iter()
            .map(|p| p.source())
            .filter(|s| !arrived_sources.contains(s))
            .filter_map(|s| self.queue_ages.get(&s).map(|&age| (s, age)))
            .collect();
        self.pending = now;
        let closed = self.close(None, true);
        self.queue_ages.extend(held_ages);
        self.pending.extend(held);
        self.pending.sort_by_key(|p| rank[&p.hash]);
        Ok(closed)
    }

    /// Closes one ledger applying just the pending transactions named in `order`, in that
    /// order, without limits and at the base fee; one of them past its time or ledger bound is
    /// dropped instead. The others stay pending, neither aged nor dropped.
    pub fn close_ordered(&mut self, order: &[[u8; 32]]) -> Result<Closed, String> {
        let held = self.select_pending(order)?;
        let closed = self.close(None, false);
        self.pending.extend(held);
        Ok(closed)
    }

    /// The classic phase's limit in operations: the value the next header records.
    pub fn max_tx_set_size(&self) -> u32 {
        self.chain.max_tx_set_size.unwrap_or(self.latest().header.max_tx_set_size)
    }

    /// The limits the next ledger's transaction set is built under.
    pub fn ledger_limits(&self) -> LedgerLimits {
        LedgerLimits::new(&self.settings, self.max_tx_set_size())
    }

    fn candidates(&self, pinned: Option<[u8; 32]>) -> Vec<Candidate> {
        self.pending.iter().map(|p| Candidate::of(p, pinned == Some(p.hash))).collect()
    }

    /// Drops pending transactions that can no longer be included in ledger `seq` closing at
    /// `close_time`: upper time or ledger bound passed (stellar-core leaves them out of the set
    /// it builds, then bans them).
    pub fn drop_expired(&mut self, close_time: u64, seq: u32) -> Vec<[u8; 32]> {
        let mut dropped = vec![];
        self.pending.retain(|p| {
            let late = tx::too_late(p, close_time, seq);
            if late {
                dropped.push(p.hash);
            }
            !late
        });
        dropped
    }

    /// Takes what the next ledger applies out of the queue, in arrival order, each with the
    /// base fee of its phase; the rest stays pending. `pinned` (friendbot's transaction) goes
    /// in regardless of limits and fee.
    pub fn take_tx_set(&mut self, pinned: Option<[u8; 32]>) -> (Vec<ParsedTx>, txset::Selection) {
        let sel = txset::select(&self.candidates(pinned), &self.ledger_limits(), self.latest().header.base_fee as i64);
        let mut chosen = Vec::with_capacity(sel.included.len());
        let mut rest = Vec::with_capacity(self.pending.len() - sel.included.len());
        let mut next = sel.included.iter().peekable();
        for (i, p) in std::mem::take(&mut self.pending).into_iter().enumerate() {
            if next.peek() == Some(&&i) {
                next.next();
                chosen.push(p);
            } else {
                rest.push(p);
            }
        }
        self.pending = rest;
        (chosen, sel)
    }

    /// After an ordinary close that applied transactions from `applied` sources: ages the
    /// queue, drops timed-out accounts' transactions, then those no longer valid; answers the
    /// hashes dropped.
    pub fn queue_upkeep(&mut self, applied: &HashSet<AccountId>) -> Vec<[u8; 32]> {
        let sources: HashSet<AccountId> = self.pending.iter().map(|p| p.source()).collect();
        self.queue_ages.retain(|a, _| sources.contains(a));
        let mut timed_out = HashSet::new();
        for s in sources {
            let age = self.queue_ages.entry(s.clone()).or_insert(0);
            if applied.contains(&s) {
                *age = 0;
            }
            *age += 1;
            if *age >= QUEUE_TIMEOUT_LEDGERS {
                timed_out.insert(s);
            }
        }
        for s in &timed_out {
            self.queue_ages.remove(s);
        }
        let mut dropped = vec![];
        self.pending.retain(|p| {
            let out = timed_out.contains(&p.source());
            if out {
                dropped.push(p.hash);
            }
            !out
        });
        if self.pending.is_empty() {
            return dropped;
        }
        let now = self.chain.clock.now(self.latest().close_time);
        let ov = Overlay::new(&self.chain.store, self.latest().seq + 1);
        let mut ahead: HashMap<AccountId, i64> = HashMap::new();
        let settings = self.settings.clone();
        self.pending.retain(|p| {
            let n = ahead.entry(p.source()).or_insert(0);
            let ok = tx::check_valid(&ov, p, &settings, now, *n).is_ok();
            if ok {
                *n += 1;
            } else {
                dropped.push(p.hash);
            }
            ok
        });
        dropped
    }

    /// `sandbox_pending`: the queue in arrival order, with each transaction's bid, age and
    /// whether the next ledger would take it as things stand.
    pub fn pending_json(&self) -> Value {
        let cands = self.candidates(None);
        let sel = txset::select(&cands, &self.ledger_limits(), self.latest().header.base_fee as i64);
        let next: HashSet<usize> = sel.included.iter().copied().collect();
        let list: Vec<Value> = self
            .pending
            .iter()
            .zip(cands.iter())
            .enumerate()
            .map(|(i, (p, c))| {
                json!({
                    "hash": hex::encode(p.hash),
                    "source": p.source().to_string(),
                    "sequence": p.tx.seq_num.0.to_string(),
                    "soroban": c.phase == txset::SOROBAN,
                    "operations": c.ops,
                    "fee": p.full_fee().to_string(),
                    "inclusionFee": c.bid.to_string(),
                    "feePerOperation": c.fee_per_op().to_string(),
                    "age": self.queue_ages.get(&p.source()).copied().unwrap_or(0),
                    "nextLedger": next.contains(&i),
                })
            })
            .collect();
        json!({
            "pending": list,
            "nextLedgerBaseFee": { "classic": sel.base_fee[txset::CLASSIC].to_string(), "soroban": sel.base_fee[txset::SOROBAN].to_string() },
            "latestLedger": self.latest().seq,
            "queueRules": self.cfg.queue_rules.name(),
        })
    }
}
