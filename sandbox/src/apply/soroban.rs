//! Soroban operations at apply time: InvokeHostFunction through the host's e2e_invoke (auth
//! enforced), ExtendFootprintTtl, RestoreFootprint, with resource-fee accounting.

use crate::apply::fees::{resource_fees, restored_indices};
use crate::apply::parse::ParsedTx;
use crate::ledger::entry::{has_ttl, is_temporary, Stored};
use crate::ledger::network::Settings;
use crate::ledger::overlay::Overlay;
use sha2::{Digest, Sha256};
use soroban_env_host::budget::Budget;
use soroban_env_host::e2e_invoke::{self, entry_size_for_rent, TtlLedgerEntryMeta};
use soroban_env_host::fees::{compute_rent_fee, LedgerEntryRentChange};
use soroban_env_host::xdr::*;
use soroban_env_host::{HostError, LedgerInfo, ModuleCache};

pub struct SorobanOutcome {
    pub result: OperationResult,
    pub success: bool,
    pub events: Vec<ContractEvent>,
    pub diagnostics: Vec<DiagnosticEvent>,
    pub return_value: Option<ScVal>,
    /// Refundable fee consumed (rent plus events); the rest of the refundable part goes back.
    pub refundable_used: i64,
    pub non_refundable: i64,
    /// The rent part of `refundable_used`.
    pub rent_fee: i64,
    /// Contract code this call wrote (for the module cache, once the ledger closes).
    pub new_code: Vec<Vec<u8>>,
}

fn op(r: OperationResultTr) -> OperationResult {
    OperationResult::OpInner(r)
}

fn failed(result: OperationResult, non_refundable: i64, diagnostics: Vec<DiagnosticEvent>) -> SorobanOutcome {
    SorobanOutcome { result, success: false, events: vec![], diagnostics, return_value: None, refundable_used: 0, non_refundable, rent_fee: 0, new_code: vec![] }
}

fn xdr<T: WriteXdr>(v: &T) -> Vec<u8> {
    v.to_xdr(Limits::none()).expect("xdr encodes")
}

fn is_budget_error(e: &HostError) -> bool {
    e.error.is_type(ScErrorType::Budget) && e.error.is_code(ScErrorCode::ExceededLimit)
}

pub fn apply(ov: &mut Overlay, ptx: &ParsedTx, source: &AccountId, s: &Settings, li: &LedgerInfo, seed: [u8; 32], modules: &ModuleCache) -> SorobanOutcome {
    let data = ptx.soroban_data().expect("checked soroban data").clone();
    let (non_refundable, _) = resource_fees(ptx, &data, s, 0);
    let max_refundable = data.resource_fee - non_refundable;
    let body = &ptx.tx.operations[0].body;
    match body {
        OperationBody::InvokeHostFunction(o) => invoke(ov, ptx, o, source, &data, s, li, seed, non_refundable, max_refundable, modules),
        OperationBody::ExtendFootprintTtl(o) => extend(ov, &data, o.extend_to, s, li, non_refundable, max_refundable),
        OperationBody::RestoreFootprint(_) => restore(ov, &data, s, li, non_refundable, max_refundable),
        _ => unreachable!("not a soroban operation"),
    }
}

fn rent_size(budget: &Budget, entry: &LedgerEntry) -> u32 {
    let size = xdr(entry).len() as u32;
    entry_size_for_rent(budget, entry, size).unwrap_or(size)
}

#[allow(clippy::too_many_arguments)]
fn invoke(
    ov: &mut Overlay, ptx: &ParsedTx, o: &InvokeHostFunctionOp, source: &AccountId, data: &SorobanTransactionData,
    s: &Settings, li: &LedgerInfo, seed: [u8; 32], non_refundable: i64, max_refundable: i64, modules: &ModuleCache,
) -> SorobanOutcome {
    let res_fail = |r: InvokeHostFunctionResult, d| failed(op(OperationResultTr::InvokeHostFunction(r)), non_refundable, d);
    let budget = match Budget::try_from_configs(
        data.resources.instructions as u64,
        s.config.tx_memory_limit as u64,
        s.config.cpu_cost_params.clone(),
        s.config.memory_cost_params.clone(),
    ) {
        Ok(b) => b,
        Err(_) => return res_fail(InvokeHostFunctionResult::Malformed, vec![]),
    };
    let sizing_budget = Budget::default();
    let fp = &data.resources.footprint;
    let restored = restored_indices(data);
    let mut entries: Vec<(Option<Vec<u8>>, Option<TtlLedgerEntryMeta>)> = Vec::new();
    let ro_len = fp.read_only.len();
    for (i, key) in fp.read_only.iter().chain(fp.read_write.iter()).enumerate() {
        let Some(mut st) = ov.get(key) else {
            entries.push((None, None));
            continue;
        };
        if let Some(live_until) = st.live_until {
            if live_until < li.sequence_number {
                if is_temporary(key) {
                    entries.push((None, None));
                    continue;
                }
                let rw_index = i.checked_sub(ro_len).map(|x| x as u32);
                if !rw_index.is_some_and(|x| restored.contains(&x)) {
                    return res_fail(InvokeHostFunctionResult::EntryArchived, vec![]);
                }
                // Restored before the call, as stellar-core does: live for the minimum
                // persistent TTL from this ledger (the host charges it as rent of a new entry).
                st.live_until = Some(li.sequence_number + s.config.min_persistent_entry_ttl - 1);
            }
        }
        let bytes = xdr(&st.entry);
        let meta = st.live_until.map(|l| TtlLedgerEntryMeta {
            live_until_ledger: l,
            // Sized with its own budget: rent sizing is not part of the transaction's metering.
            entry_size_for_rent: entry_size_for_rent(&sizing_budget, &st.entry, bytes.len() as u32).unwrap_or(bytes.len() as u32),
        });
        entries.push((Some(bytes), meta));
    }
    let auth: Vec<Vec<u8>> = o.auth.iter().map(xdr).collect();
    let mut diagnostics = vec![];
    let out = e2e_invoke::invoke_host_function(
        &budget,
        true,
        xdr(&o.host_function),
        xdr(&data.resources),
        &restored,
        xdr(source),
        auth.into_iter(),
        li.clone(),
        entries.into_iter(),
        seed.to_vec(),
        &mut diagnostics,
        None,
        Some(modules.clone()),
    );
    if std::env::var_os("SANDBOX_DEBUG").is_some() {
        match &out {
            Ok(o) => eprintln!("invoke result: {:?}", o.encoded_invoke_result.as_ref().map(|_| ())),
            Err(e) => eprintln!("invoke error: {e:?}"),
        }
    }
    let out = match out {
        Ok(o) => o,
        Err(e) if is_budget_error(&e) => return res_fail(InvokeHostFunctionResult::ResourceLimitExceeded, diagnostics),
        Err(_) => return res_fail(InvokeHostFunctionResult::Trapped, diagnostics),
    };
    let ret_bytes = match out.encoded_invoke_result {
        Ok(b) => b,
        Err(e) if is_budget_error(&e) => return res_fail(InvokeHostFunctionResult::ResourceLimitExceeded, diagnostics),
        Err(_) => return res_fail(InvokeHostFunctionResult::Trapped, diagnostics),
    };
    let return_value = ScVal::from_xdr(&ret_bytes, Limits::none()).unwrap_or(ScVal::Void);
    let events: Vec<ContractEvent> = out
        .encoded_contract_events
        .iter()
        .filter_map(|b| ContractEvent::from_xdr(b, Limits::none()).ok())
        .collect();
    let events_size: u32 = out.encoded_contract_events.iter().map(|b| b.len() as u32).sum::<u32>() + ret_bytes.len() as u32;
    if events_size > s.events.tx_max_contract_events_size_bytes {
        return res_fail(InvokeHostFunctionResult::ResourceLimitExceeded, diagnostics);
    }
    let rent_changes = e2e_invoke::extract_rent_changes(&out.ledger_changes);
    let rent = compute_rent_fee(&rent_changes, &s.config.rent_fee_configuration, li.sequence_number);
    let (_, events_fee) = resource_fees(ptx, data, s, events_size);
    let used = rent + events_fee;
    if used > max_refundable {
        return res_fail(InvokeHostFunctionResult::InsufficientRefundableFee, diagnostics);
    }
    let mut new_code = vec![];
    for c in &out.ledger_changes {
        let Ok(key) = LedgerKey::from_xdr(&c.encoded_key, Limits::none()) else { continue };
        if c.read_only {
            if let Some(t) = &c.ttl_change {
                if t.new_live_until_ledger > t.old_live_until_ledger {
                    ov.put_ttl(key, t.new_live_until_ledger);
                }
            }
            continue;
        }
        match &c.encoded_new_value {
            Some(v) => {
                let Ok(entry) = LedgerEntry::from_xdr(v, Limits::none()) else { continue };
                let live_until = c.ttl_change.as_ref().map(|t| t.new_live_until_ledger);
                let prev = ov.get(&key);
                if prev.as_ref().is_some_and(|p| p.entry.data == entry.data) {
                    // Unchanged data: at most its TTL moved.
                    if let Some(l) = live_until.filter(|l| prev.as_ref().and_then(|p| p.live_until) != Some(*l)) {
                        ov.put_ttl(key, l);
                    }
                    continue;
                }
                if let LedgerEntryData::ContractCode(c) = &entry.data {
                    new_code.push(c.code.to_vec());
                }
                ov.put(key, Stored { entry, live_until });
            }
            None => {
                if ov.get(&key).is_some() {
                    ov.delete(&key);
                }
            }
        }
    }
    let preimage = InvokeHostFunctionSuccessPreImage {
        return_value: return_value.clone(),
        events: events.clone().try_into().unwrap_or_default(),
    };
    let hash = Hash(Sha256::digest(xdr(&preimage)).into());
    SorobanOutcome {
        result: op(OperationResultTr::InvokeHostFunction(InvokeHostFunctionResult::Success(hash))),
        success: true,
        events,
        diagnostics,
        return_value: Some(return_value),
        refundable_used: used,
        non_refundable,
        rent_fee: rent,
        new_code,
    }
}

fn extend(ov: &mut Overlay, data: &SorobanTransactionData, extend_to: u32, s: &Settings, li: &LedgerInfo, non_refundable: i64, max_refundable: i64) -> SorobanOutcome {
    let fail = |r: ExtendFootprintTtlResult| failed(op(OperationResultTr::ExtendFootprintTtl(r)), non_refundable, vec![]);
    if extend_to > s.archival.max_entry_ttl - 1 || !data.resources.footprint.read_write.is_empty() {
        return fail(ExtendFootprintTtlResult::Malformed);
    }
    let budget = Budget::default();
    let new_live = li.sequence_number.saturating_add(extend_to);
    let mut changes = vec![];
    let mut updates = vec![];
    for key in data.resources.footprint.read_only.iter() {
        if !has_ttl(key) {
            return fail(ExtendFootprintTtlResult::Malformed);
        }
        let Some(st) = ov.get(key) else { continue };
        let Some(old) = st.live_until else { continue };
        if old < li.sequence_number || old >= new_live {
            continue;
        }
        let size = rent_size(&budget, &st.entry);
        changes.push(LedgerEntryRentChange {
            is_persistent: !is_temporary(key),
            is_code_entry: matches!(key, LedgerKey::ContractCode(_)),
            old_size_bytes: size,
            new_size_bytes: size,
            old_live_until_ledger: old,
            new_live_until_ledger: new_live,
        });
        updates.push(key.clone());
    }
    let rent = compute_rent_fee(&changes, &s.config.rent_fee_configuration, li.sequence_number);
    if rent > max_refundable {
        return fail(ExtendFootprintTtlResult::InsufficientRefundableFee);
    }
    for k in updates {
        ov.put_ttl(k, new_live);
    }
    SorobanOutcome {
        result: op(OperationResultTr::ExtendFootprintTtl(ExtendFootprintTtlResult::Success)),
        success: true, events: vec![], diagnostics: vec![], return_value: None, refundable_used: rent, non_refundable, rent_fee: rent, new_code: vec![],
    }
}

fn restore(ov: &mut Overlay, data: &SorobanTransactionData, s: &Settings, li: &LedgerInfo, non_refundable: i64, max_refundable: i64) -> SorobanOutcome {
    let fail = |r: RestoreFootprintResult| failed(op(OperationResultTr::RestoreFootprint(r)), non_refundable, vec![]);
    if !data.resources.footprint.read_only.is_empty() {
        return fail(RestoreFootprintResult::Malformed);
    }
    let budget = Budget::default();
    let new_live = li.sequence_number + s.config.min_persistent_entry_ttl - 1;
    let mut changes = vec![];
    let mut updates = vec![];
    for key in data.resources.footprint.read_write.iter() {
        if !has_ttl(key) || is_temporary(key) {
            return fail(RestoreFootprintResult::Malformed);
        }
        let Some(st) = ov.get(key) else { continue };
        let Some(old) = st.live_until else { continue };
        if old >= li.sequence_number {
            continue;
        }
        changes.push(LedgerEntryRentChange {
            is_persistent: true,
            is_code_entry: matches!(key, LedgerKey::ContractCode(_)),
            old_size_bytes: 0,
            new_size_bytes: rent_size(&budget, &st.entry),
            old_live_until_ledger: 0,
            new_live_until_ledger: new_live,
        });
        updates.push((key.clone(), st));
    }
    let rent = compute_rent_fee(&changes, &s.config.rent_fee_configuration, li.sequence_number);
    if rent > max_refundable {
        return fail(RestoreFootprintResult::InsufficientRefundableFee);
    }
    for (k, mut st) in updates {
        st.live_until = Some(new_live);
        ov.put(k, st);
    }
    SorobanOutcome {
        result: op(OperationResultTr::RestoreFootprint(RestoreFootprintResult::Success)),
        success: true, events: vec![], diagnostics: vec![], return_value: None, refundable_used: rent, non_refundable, rent_fee: rent, new_code: vec![],
    }
}
