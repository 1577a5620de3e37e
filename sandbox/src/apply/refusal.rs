//! Why the queue does not take a transaction: sendTransaction's ERROR (with a result) or
//! TRY_AGAIN_LATER (stellar-core's ADD_STATUS_TRY_AGAIN_LATER, src/herder/TransactionQueue.h).

use crate::apply::tx;
use soroban_env_host::xdr::{TransactionResult, TransactionResultExt, TransactionResultResult};

/// Why the queue did not take a transaction.
#[derive(Debug)]
pub enum Refusal {
    /// sendTransaction's ERROR, with the result stellar-core's checks produced.
    Error(TransactionResult),
    /// sendTransaction's TRY_AGAIN_LATER: the source account has a transaction in the queue.
    TryAgainLater,
}

impl Refusal {
    pub fn code(code: TransactionResultResult, fee_charged: i64) -> Refusal {
        Refusal::Error(TransactionResult { fee_charged, result: code, ext: TransactionResultExt::V0 })
    }

    /// The result code's name, or TRY_AGAIN_LATER.
    pub fn name(&self) -> &'static str {
        match self {
            Refusal::Error(r) => tx::result_code_name(&r.result),
            Refusal::TryAgainLater => "TRY_AGAIN_LATER",
        }
    }
}
