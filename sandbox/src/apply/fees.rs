//! Soroban resource fees, computed from the declared resources the way stellar-core does.

use crate::apply::parse::ParsedTx;
use crate::ledger::network::Settings;
use soroban_env_host::fees::{compute_transaction_resource_fee, TransactionResources};
use soroban_env_host::xdr::{LedgerKey, OperationBody, SorobanTransactionData, SorobanTransactionDataExt};

/// Disk reads a Soroban transaction declares: classic entries and archived entries to restore.
/// With `restore_counts_footprint`, a RestoreFootprint counts every footprint entry, as
/// stellar-core's ledger limits count it (the fee keeps soroban-simulation's count, so a
/// simulated restore pays what it was quoted).
pub fn disk_read_entries(ptx: &ParsedTx, data: &SorobanTransactionData, restore_counts_footprint: bool) -> u32 {
    let fp = &data.resources.footprint;
    if restore_counts_footprint && ptx.tx.operations.iter().any(|o| matches!(o.body, OperationBody::RestoreFootprint(_))) {
        return fp.read_write.len() as u32;
    }
    let classic = fp
        .read_only
        .iter()
        .chain(fp.read_write.iter())
        .filter(|k| !matches!(k, LedgerKey::ContractData(_) | LedgerKey::ContractCode(_)))
        .count() as u32;
    classic + restored_indices(data).len() as u32
}

pub fn restored_indices(data: &SorobanTransactionData) -> Vec<u32> {
    match &data.ext {
        SorobanTransactionDataExt::V1(e) => e.archived_soroban_entries.to_vec(),
        SorobanTransactionDataExt::V0 => vec![],
    }
}

/// (non-refundable fee, refundable fee for `events_size` bytes of events and return value).
pub fn resource_fees(ptx: &ParsedTx, data: &SorobanTransactionData, s: &Settings, events_size: u32) -> (i64, i64) {
    let r = &data.resources;
    let res = TransactionResources {
        instructions: r.instructions,
        disk_read_entries: disk_read_entries(ptx, data, false),
        write_entries: r.footprint.read_write.len() as u32,
        disk_read_bytes: r.disk_read_bytes,
        write_bytes: r.write_bytes,
        contract_events_size_bytes: events_size,
        transaction_size_bytes: ptx.size,
    };
    compute_transaction_resource_fee(&res, &s.config.fee_configuration)
}
