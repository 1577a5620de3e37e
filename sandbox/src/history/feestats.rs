//! getFeeStats: inclusion-fee distributions over the last ledgers, as stellar-rpc's fee windows
//! compute them (cmd/stellar-rpc/internal/feewindow). Each closed ledger keeps its samples in
//! its `LedgerRecord`, so history pruning drops them with the ledger.
//!
//! A sample is what a transaction was charged beyond its resources: a Soroban transaction
//! (exactly one InvokeHostFunction / ExtendFootprintTtl / RestoreFootprint operation) gives
//! `feeCharged - (non-refundable + refundable resource fee charged)` from its meta, any other
//! transaction `feeCharged / operations` (integer division; a fee bump counts its inner
//! transaction's operations and its outer fee charged). Failed transactions count too.

use crate::base::records::{LedgerFees, LedgerRecord};
use std::collections::VecDeque;
use serde_json::{json, Value};
use soroban_env_host::xdr::{
    OperationBody, SorobanTransactionMetaExt, TransactionEnvelope, TransactionMeta, TransactionResultMetaV1,
};

/// Ledgers the classic distribution covers (stellar-rpc's --classic-fee-stats-retention-window
/// default).
pub const CLASSIC_WINDOW: usize = 10;
/// Ledgers the Soroban distribution covers (--soroban-fee-stats-retention-window default).
pub const SOROBAN_WINDOW: usize = 50;

fn operations(env: &TransactionEnvelope) -> Vec<&OperationBody> {
    use soroban_env_host::xdr::FeeBumpTransactionInnerTx as Inner;
    let ops = match env {
        TransactionEnvelope::TxV0(e) => &e.tx.operations,
        TransactionEnvelope::Tx(e) => &e.tx.operations,
        TransactionEnvelope::TxFeeBump(e) => match &e.tx.inner_tx {
            Inner::Tx(i) => &i.tx.operations,
        },
    };
    ops.iter().map(|o| &o.body).collect()
}

/// Samples of the transactions a ledger applied (envelope and result meta, in apply order).
pub fn ledger_fees<'a>(txs: impl IntoIterator<Item = (&'a TransactionEnvelope, &'a TransactionResultMetaV1)>) -> LedgerFees {
    let mut out = LedgerFees::default();
    for (env, rm) in txs {
        let fee_charged = rm.result.result.fee_charged.max(0) as u64;
        let ops = operations(env);
        if ops.is_empty() {
            continue;
        }
        if ops.len() == 1 && crate::base::codec::is_soroban_op(ops[0]) {
            let resource = match &rm.tx_apply_processing {
                TransactionMeta::V4(m) => m.soroban_meta.as_ref().and_then(|s| match &s.ext {
                    SorobanTransactionMetaExt::V1(v) => Some(v.total_non_refundable_resource_fee_charged + v.total_refundable_resource_fee_charged),
                    SorobanTransactionMetaExt::V0 => None,
                }),
                TransactionMeta::V3(m) => m.soroban_meta.as_ref().and_then(|s| match &s.ext {
                    SorobanTransactionMetaExt::V1(v) => Some(v.total_non_refundable_resource_fee_charged + v.total_refundable_resource_fee_charged),
                    SorobanTransactionMetaExt::V0 => None,
                }),
                _ => None,
            };
            // stellar-rpc skips a Soroban transaction without the fee breakdown in its meta.
            if let Some(resource) = resource {
                out.soroban.push(fee_charged.saturating_sub(resource.max(0) as u64));
            }
            continue;
        }
        out.classic.push(fee_charged / ops.len() as u64);
    }
    out
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Distribution {
    pub max: u64,
    pub min: u64,
    pub mode: u64,
    /// p10, p20, ..., p90, p95, p99.
    pub percentiles: [u64; 11],
    pub transaction_count: u32,
    pub ledger_count: u32,
}

const PERCENTILES: [u64; 11] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99];

/// stellar-rpc's computeFeeDistribution: nearest-rank percentiles (the ceil(p·n/100)-th smallest),
/// the mode as the value of the longest run in sorted order (the smallest on a tie), and an
/// all-zero distribution (ledger count included) when there is no sample.
pub fn distribution(mut fees: Vec<u64>, ledger_count: u32) -> Distribution {
    if fees.is_empty() {
        return Distribution::default();
    }
    fees.sort_unstable();
    let (mut mode, mut best_run) = (fees[0], 0usize);
    let mut run_start = 0usize;
    for i in 1..=fees.len() {
        if i == fees.len() || fees[i] != fees[run_start] {
            let run = i - run_start - 1;
            if run > best_run {
                best_run = run;
                mode = fees[run_start];
            }
            run_start = i;
        }
    }
    let n = fees.len() as u64;
    let pick = |p: u64| fees[((p * n).div_ceil(100) - 1) as usize];
    Distribution {
        max: fees[fees.len() - 1],
        min: fees[0],
        mode,
        percentiles: PERCENTILES.map(pick),
        transaction_count: fees.len() as u32,
        ledger_count,
    }
}

fn to_json(d: &Distribution) -> Value {
    let mut v = json!({
        "max": d.max.to_string(),
        "min": d.min.to_string(),
        "mode": d.mode.to_string(),
        "transactionCount": d.transaction_count.to_string(),
        "ledgerCount": d.ledger_count,
    });
    for (p, x) in PERCENTILES.iter().zip(d.percentiles.iter()) {
        v[format!("p{p}")] = json!(x.to_string());
    }
    v
}

/// The distribution of one kind of sample over the last `window` retained ledgers.
fn window(ledgers: &VecDeque<LedgerRecord>, window: usize, pick: impl Fn(&LedgerFees) -> &Vec<u64>) -> Distribution {
    let ledgers: Vec<_> = ledgers.iter().rev().take(window).collect();
    let fees: Vec<u64> = ledgers.iter().flat_map(|l| pick(&l.fees).iter().copied()).collect();
    distribution(fees, ledgers.len() as u32)
}

/// The getFeeStats result over the retained ledgers (the latest last).
pub fn get_fee_stats(ledgers: &VecDeque<LedgerRecord>) -> Value {
    json!({
        "sorobanInclusionFee": to_json(&window(ledgers, SOROBAN_WINDOW, |f| &f.soroban)),
        "inclusionFee": to_json(&window(ledgers, CLASSIC_WINDOW, |f| &f.classic)),
        "latestLedger": ledgers.back().expect("genesis ledger exists").seq,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(max: u64, min: u64, mode: u64, p: [u64; 11], n: u32) -> Distribution {
        Distribution { max, min, mode, percentiles: p, transaction_count: n, ledger_count: 0 }
    }

    // The cases of stellar-rpc's TestBasicComputeFeeDistribution.
    #[test]
    fn matches_stellar_rpc_reference_cases() {
        assert_eq!(distribution(vec![], 3), Distribution::default());
        assert_eq!(distribution(vec![100], 0), d(100, 100, 100, [100; 11], 1));
        let (a, b) = (100, 1000);
        assert_eq!(distribution(vec![a, a, a, b, a, b, b, b, b, b], 0), d(b, a, b, [a, a, a, a, b, b, b, b, b, b, b], 10));
        assert_eq!(distribution(vec![a, a, a, b, a, b, b, b, b, b, a], 0), d(b, a, b, [a, a, a, a, b, b, b, b, b, b, b], 11));
        assert_eq!(distribution(vec![a, b], 0), d(b, a, a, [a, a, a, a, a, b, b, b, b, b, b], 2));
        assert_eq!(
            distribution(vec![515, 245, 245, 530, 221, 262, 927], 0),
            d(927, 221, 245, [221, 245, 245, 245, 262, 515, 515, 530, 927, 927, 927], 7)
        );
        assert_eq!(
            distribution(vec![515, 245, 530, 221, 262, 927, 927], 0),
            d(927, 221, 927, [221, 245, 262, 262, 515, 530, 530, 927, 927, 927, 927], 7)
        );
    }

    /// The longest run wins; among equally long runs the first (smallest) one.
    #[test]
    fn mode_is_the_longest_run_then_the_smallest() {
        assert_eq!(distribution(vec![5, 7, 7, 9, 9], 0).mode, 7);
        assert_eq!(distribution(vec![9, 9, 9, 1, 2, 2], 0).mode, 9);
        assert_eq!(distribution(vec![3, 2, 1], 0).mode, 1);
    }

    #[test]
    fn json_uses_strings_except_ledger_count() {
        let v = to_json(&distribution(vec![200, 100], 4));
        assert_eq!(v["p50"], "100");
        assert_eq!(v["p99"], "200");
        assert_eq!(v["transactionCount"], "2");
        assert_eq!(v["ledgerCount"], 4);
        assert_eq!(to_json(&distribution(vec![], 4))["ledgerCount"], 0);
    }
}
