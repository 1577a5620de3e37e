//! Replace-by-fee, as stellar-core's transaction queue allows it: a fee bump of a queued
//! transaction takes its place only when it bids ten times as much per operation.

use crate::apply::parse::ParsedTx;

/// stellar-core's TransactionQueue::FEE_MULTIPLIER: a replacement bids at least ten times the
/// inclusion fee per operation of what it replaces.
pub const FEE_MULTIPLIER: i128 = 10;

/// stellar-core's canReplaceByFee (herder/TransactionQueue.cpp), on inclusion fees:
/// newFee · oldOps ≥ FEE_MULTIPLIER · oldFee · newOps, operations counted as at least one (a
/// fee bump counts its inner operations plus one). When not, the smallest full fee that would
/// do: ⌈FEE_MULTIPLIER · oldFee · newOps / oldOps⌉ plus the new transaction's flat part (its
/// declared resource fee).
pub fn can_replace_by_fee(new: &ParsedTx, old: &ParsedTx) -> Result<(), i64> {
    let (new_fee, new_ops) = (new.inclusion_fee() as i128, new.num_ops().max(1) as i128);
    let (old_fee, old_ops) = (old.inclusion_fee() as i128, old.num_ops().max(1) as i128);
    let min_n = old_fee * new_ops * FEE_MULTIPLIER;
    if new_fee >= 0 && new_fee * old_ops >= min_n {
        return Ok(());
    }
    let min = i64::try_from((min_n + old_ops - 1).div_euclid(old_ops)).unwrap_or(i64::MAX);
    Err(min.saturating_add(new.full_fee() - new.inclusion_fee()))
}
