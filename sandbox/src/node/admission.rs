//! What the queue admits from one source account under `--queue-rules strict`, as
//! stellar-core's herder does (src/herder/HerderImpl.cpp `recvTransaction`,
//! src/herder/TransactionQueue.cpp `canAdd`):
//!
//! - One transaction per source account in the queue. The account is the transaction's
//!   source; for a fee bump, its inner transaction's source (FeeBumpTransactionFrame::
//!   getSourceID). A second one is refused with TRY_AGAIN_LATER: not queued, no fee, no
//!   result. So no ledger's transaction set holds two transactions of one source account.
//! - A pending account's transaction of the other kind (classic against Soroban; stellar-core
//!   keeps one queue of each) is refused with TRY_AGAIN_LATER before anything else.
//! - Against the account's pending transaction: a lower sequence number is txBAD_SEQ; a
//!   plain transaction, or a fee bump of another sequence number, is TRY_AGAIN_LATER; a fee
//!   bump of the same sequence number is a replace-by-fee (replace_by_fee.rs), refused with
//!   txINSUFFICIENT_FEE when it bids too little.
//! - The fee source is not limited to one transaction: it may pay for several accounts'
//!   queued transactions, as long as its available balance covers the full fees of all of
//!   them in the queue of that kind (canAdd's mTotalFees check, txINSUFFICIENT_BALANCE).
//!
//! `--queue-rules relaxed` skips all of this: an account may queue transactions with
//! consecutive sequence numbers, and a fee bump replaces the pending one with its sequence.

use crate::apply::parse::ParsedTx;
use crate::apply::refusal::Refusal;
use crate::apply::tx;
use crate::ledger::overlay::Overlay;
use crate::node::core::Node;
use soroban_env_host::xdr::TransactionResultResult;

impl Node {
    /// The strict rule for the source account (HerderImpl::recvTransaction, then canAdd up to
    /// its replace-by-fee check): the index of the pending transaction `ptx` replaces, if any.
    pub fn strict_admission(&self, ptx: &ParsedTx) -> Result<Option<usize>, Refusal> {
        let source = ptx.source();
        let Some(i) = self.pending.iter().position(|p| p.source() == source) else { return Ok(None) };
        let current = &self.pending[i];
        if current.is_soroban() != ptx.is_soroban() {
            return Err(Refusal::TryAgainLater);
        }
        if ptx.tx.seq_num.0 < current.tx.seq_num.0 {
            return Err(Refusal::code(TransactionResultResult::TxBadSeq, 0));
        }
        if ptx.fee_bump.is_none() || ptx.tx.seq_num != current.tx.seq_num {
            return Err(Refusal::TryAgainLater);
        }
        crate::apply::replace_by_fee::can_replace_by_fee(ptx, current).map_err(|min_fee| Refusal::code(TransactionResultResult::TxInsufficientFee, min_fee))?;
        Ok(Some(i))
    }

    /// canAdd's fee accounting: the fee source's available balance, less `ptx`'s full fee,
    /// must cover the full fees of the transactions it already pays for in the queue of
    /// `ptx`'s kind (the one `ptx` replaces, at `replaces`, left out).
    pub fn fee_source_covers_queue(&self, ov: &Overlay, ptx: &ParsedTx, replaces: Option<usize>) -> Result<(), Refusal> {
        let fee_source = ptx.fee_source();
        let queued: i64 = self
            .pending
            .iter()
            .enumerate()
            .filter(|(j, p)| Some(*j) != replaces && p.is_soroban() == ptx.is_soroban() && p.fee_source() == fee_source)
            .map(|(_, p)| p.full_fee())
            .sum();
        let Some(acc) = tx::load_account(ov, &fee_source) else { return Err(Refusal::code(TransactionResultResult::TxNoAccount, 0)) };
        if acc.balance - tx::min_balance(&acc) - ptx.full_fee() < queued {
            return Err(Refusal::code(TransactionResultResult::TxInsufficientBalance, 0));
        }
        Ok(())
    }
}
