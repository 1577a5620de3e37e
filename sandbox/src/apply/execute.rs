//! Applies one transaction at ledger close: fee and sequence first (kept even if the
//! transaction fails, as on the network), then the operations all-or-nothing, then the
//! Soroban refund; and records its result, meta and events.

use crate::apply::classic_events::{fee_event, OpEvents};
use crate::apply::parse::ParsedTx;
use crate::apply::soroban;
use crate::apply::tx;
use crate::base::codec::{b64, is_soroban_op, muxed_to_account};
use crate::base::records::TxRecord;
use crate::ledger::entry::account_key;
use crate::ledger::network::Settings;
use crate::ledger::overlay::Overlay;
use crate::ledger::store::Store;
use soroban_env_host::xdr::*;
use soroban_env_host::LedgerInfo;
use std::sync::Arc;

/// What applying a transaction reads and writes of the node.
pub struct ApplyContext<'a> {
    pub store: &'a mut Arc<Store>,
    pub settings: &'a Arc<Settings>,
    pub network_id: [u8; 32],
    pub modules: &'a soroban_env_host::ModuleCache,
}

/// One applied transaction: its result and meta for the ledger, and what the node records of it.
pub struct Applied {
    pub result_meta: TransactionResultMetaV1,
    /// The fee charged after any refund, for the fee pool.
    pub fee: i64,
    /// Contract code a successful transaction wrote, for the module cache once the ledger closes.
    pub new_code: Vec<Vec<u8>>,
    pub record: TxRecord,
    /// Transaction-level events, for the event log.
    pub tx_events: Vec<TransactionEvent>,
    /// Each operation's contract events, for the event log.
    pub contract_events: Vec<Vec<ContractEvent>>,
}

#[cfg(test)]
pub fn native_contract_id(network_id: &[u8; 32]) -> [u8; 32] {
    crate::apply::classic_events::asset_contract_id(network_id, &Asset::Native)
}

fn change_balance(ov: &mut Overlay, id: &AccountId, delta: i64) {
    if let Some(mut st) = ov.get(&account_key(id)) {
        if let LedgerEntryData::Account(a) = &mut st.entry.data {
            a.balance += delta;
        }
        ov.put(account_key(id), st);
    }
}

fn to_inner(r: &TransactionResultResult) -> InnerTransactionResultResult {
    use InnerTransactionResultResult as I;
    use TransactionResultResult as R;
    match r {
        R::TxSuccess(v) => I::TxSuccess(v.clone()),
        R::TxFailed(v) => I::TxFailed(v.clone()),
        R::TxTooEarly => I::TxTooEarly,
        R::TxTooLate => I::TxTooLate,
        R::TxMissingOperation => I::TxMissingOperation,
        R::TxBadSeq => I::TxBadSeq,
        R::TxBadAuth => I::TxBadAuth,
        R::TxInsufficientBalance => I::TxInsufficientBalance,
        R::TxNoAccount => I::TxNoAccount,
        R::TxInsufficientFee => I::TxInsufficientFee,
        R::TxBadAuthExtra => I::TxBadAuthExtra,
        R::TxNotSupported => I::TxNotSupported,
        R::TxBadSponsorship => I::TxBadSponsorship,
        R::TxBadMinSeqAgeOrGap => I::TxBadMinSeqAgeOrGap,
        R::TxMalformed => I::TxMalformed,
        R::TxSorobanInvalid => I::TxSorobanInvalid,
        _ => I::TxInternalError,
    }
}

pub fn apply_tx(cx: ApplyContext, ptx: &ParsedTx, li: &LedgerInfo, seed: [u8; 32], order: u32) -> Applied {
    let seq = li.sequence_number;
    let settings = cx.settings.clone();
    let network_id = cx.network_id;
    let fee_source = ptx.fee_source();
    let source = ptx.source();
    let modules = cx.modules.clone();
    let mut pending_code: Vec<Vec<u8>> = vec![];
    let store = Arc::make_mut(cx.store);

    // Fee and sequence number.
    let mut ov = Overlay::new(store, seq);
    let validity = tx::check_valid(&ov, ptx, &settings, li.timestamp, 0);
    let fee_balance = tx::load_account(&ov, &fee_source).map(|a| a.balance).unwrap_or(0);
    let mut fee = ptx.charged_fee().min(fee_balance.max(0));
    ov.begin_scope();
    change_balance(&mut ov, &fee_source, -fee);
    let fee_processing = ov.end_scope();
    ov.begin_scope();
    if !matches!(validity, Err(TransactionResultResult::TxBadSeq) | Err(TransactionResultResult::TxNoAccount)) {
        if let Some(mut st) = ov.get(&account_key(&source)) {
            if let LedgerEntryData::Account(a) = &mut st.entry.data {
                a.seq_num = ptx.tx.seq_num.clone();
            }
            ov.put(account_key(&source), st);
        }
    }
    let tx_changes_before = ov.end_scope();
    let committed = ov.into_changes();
    store.apply(committed);

    let mut tx_events: Vec<TransactionEvent> = fee_event(&network_id, &fee_source, fee, TransactionEventStage::BeforeAllTxs).into_iter().collect();
    let mut op_metas: Vec<OperationMetaV2> = vec![];
    let mut op_results: Vec<OperationResult> = vec![];
    let mut diagnostics: Vec<DiagnosticEvent> = vec![];
    let mut return_value = None;
    let mut soroban_fees: Option<(i64, i64, i64)> = None; // non-refundable, refundable used, rent
    let mut tx_changes_after = LedgerEntryChanges(VecM::default());
    let mut success = false;

    let inner_code = match validity {
        Err(code) => code,
        Ok(()) => {
            let mut ov = Overlay::new(store, seq);
            let mut all_ok = true;
            let mut refundable_used = 0;
            let mut non_refundable = 0;
            let mut rent_fee = 0;
            for op in ptx.tx.operations.iter() {
                let op_source = op.source_account.as_ref().map(muxed_to_account).unwrap_or_else(|| source.clone());
                ov.begin_scope();
                let (res, ok, events) = if is_soroban_op(&op.body) {
                    let out = soroban::apply(&mut ov, ptx, &op_source, &settings, li, seed, &modules);
                    pending_code.extend(out.new_code);
                    diagnostics.extend(out.diagnostics);
                    return_value = out.return_value.or(return_value);
                    refundable_used = out.refundable_used;
                    non_refundable = out.non_refundable;
                    rent_fee = out.rent_fee;
                    (out.result, out.success, out.events)
                } else {
                    let mut events = OpEvents::new(&network_id, &ptx.tx.memo);
                    match crate::apply::classic::apply_op(&mut ov, &op_source, &op.body, seq, &mut events) {
                        Ok(r) => (r, true, events.take()),
                        Err(r) => (r, false, vec![]),
                    }
                };
                if !ok {
                    ov.rollback_scope();
                    all_ok = false;
                }
                let changes = ov.end_scope();
                op_results.push(res);
                op_metas.push(OperationMetaV2 { ext: ExtensionPoint::V0, changes, events: events.try_into().unwrap_or_default() });
            }
            if all_ok {
                store.apply(ov.into_changes());
                success = true;
            } else {
                op_metas.clear();
                return_value = None;
            }
            if let Some(data) = ptx.soroban_data() {
                let used = if success { refundable_used } else { 0 };
                let refund = (data.resource_fee - non_refundable - used).max(0).min(fee);
                soroban_fees = Some((non_refundable, used, if success { rent_fee } else { 0 }));
                if refund > 0 {
                    let mut ov = Overlay::new(store, seq);
                    ov.begin_scope();
                    change_balance(&mut ov, &fee_source, refund);
                    tx_changes_after = ov.end_scope();
                    store.apply(ov.into_changes());
                    fee -= refund;
                    // From protocol 23 the refund is an after-all-transactions event.
                    tx_events.extend(fee_event(&network_id, &fee_source, -refund, TransactionEventStage::AfterAllTxs));
                }
            }
            if success {
                TransactionResultResult::TxSuccess(op_results.clone().try_into().unwrap())
            } else {
                TransactionResultResult::TxFailed(op_results.clone().try_into().unwrap())
            }
        }
    };
    if !success {
        pending_code.clear();
    }

    let result = match &ptx.fee_bump {
        None => TransactionResult { fee_charged: fee, result: inner_code, ext: TransactionResultExt::V0 },
        Some(_) => {
            let inner = InnerTransactionResultPair {
                transaction_hash: Hash(ptx.inner_hash),
                result: InnerTransactionResult { fee_charged: 0, result: to_inner(&inner_code), ext: InnerTransactionResultExt::V0 },
            };
            let r = if success { TransactionResultResult::TxFeeBumpInnerSuccess(inner) } else { TransactionResultResult::TxFeeBumpInnerFailed(inner) };
            TransactionResult { fee_charged: fee, result: r, ext: TransactionResultExt::V0 }
        }
    };
    let soroban_meta = ptx.soroban_data().map(|_| {
        let (nr, used, rent) = soroban_fees.unwrap_or((0, 0, 0));
        SorobanTransactionMetaV2 {
            ext: SorobanTransactionMetaExt::V1(SorobanTransactionMetaExtV1 {
                ext: ExtensionPoint::V0,
                total_non_refundable_resource_fee_charged: nr,
                total_refundable_resource_fee_charged: used,
                rent_fee_charged: rent,
            }),
            return_value: return_value.clone(),
        }
    });
    let contract_events: Vec<Vec<ContractEvent>> = op_metas.iter().map(|m| m.events.to_vec()).collect();
    let meta = TransactionMeta::V4(TransactionMetaV4 {
        ext: ExtensionPoint::V0,
        tx_changes_before,
        operations: op_metas.try_into().unwrap_or_default(),
        tx_changes_after: tx_changes_after.clone(),
        soroban_meta,
        events: tx_events.clone().try_into().unwrap_or_default(),
        diagnostic_events: diagnostics.clone().try_into().unwrap_or_default(),
    });

    let close_time = li.timestamp;
    let record = TxRecord {
        hash: ptx.hash,
        ledger: seq,
        close_time,
        order,
        success,
        fee_bump: ptx.fee_bump.is_some(),
        envelope: b64(&ptx.envelope),
        result: b64(&result),
        meta: b64(&meta),
        contract_events: contract_events.iter().map(|v| v.iter().map(b64).collect()).collect(),
        tx_events: tx_events.iter().map(b64).collect(),
        diagnostics: diagnostics.iter().map(b64).collect(),
    };
    Applied {
        result_meta: TransactionResultMetaV1 {
            ext: ExtensionPoint::V0,
            result: TransactionResultPair { transaction_hash: Hash(ptx.hash), result },
            fee_processing,
            tx_apply_processing: meta,
            post_tx_apply_fee_processing: LedgerEntryChanges(VecM::default()),
        },
        fee,
        new_code: pending_code,
        record,
        tx_events,
        contract_events,
    }
}

/// What a transaction records when applying it panicked (a host bug): txINTERNAL_ERROR, no
/// fee; any fee and sequence change already committed stays, as the ledger saw it.
pub fn internal_error(ptx: &ParsedTx, li: &LedgerInfo, order: u32) -> Applied {
    let result = TransactionResult { fee_charged: 0, result: TransactionResultResult::TxInternalError, ext: TransactionResultExt::V0 };
    let meta = TransactionMeta::V4(TransactionMetaV4 {
        ext: ExtensionPoint::V0,
        tx_changes_before: LedgerEntryChanges(VecM::default()),
        operations: VecM::default(),
        tx_changes_after: LedgerEntryChanges(VecM::default()),
        soroban_meta: None,
        events: VecM::default(),
        diagnostic_events: VecM::default(),
    });
    let record = TxRecord {
        hash: ptx.hash,
        ledger: li.sequence_number,
        close_time: li.timestamp,
        order,
        success: false,
        fee_bump: ptx.fee_bump.is_some(),
        envelope: b64(&ptx.envelope),
        result: b64(&result),
        meta: b64(&meta),
        contract_events: vec![],
        tx_events: vec![],
        diagnostics: vec![],
    };
    Applied {
        result_meta: TransactionResultMetaV1 {
            ext: ExtensionPoint::V0,
            result: TransactionResultPair { transaction_hash: Hash(ptx.hash), result },
            fee_processing: LedgerEntryChanges(VecM::default()),
            tx_apply_processing: meta,
            post_tx_apply_fee_processing: LedgerEntryChanges(VecM::default()),
        },
        fee: 0,
        new_code: vec![],
        record,
        tx_events: vec![],
        contract_events: vec![],
    }
}
