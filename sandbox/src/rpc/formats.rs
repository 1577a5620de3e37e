//! The JSON shapes several methods share: the `xdrFormat` parameter and a transaction as
//! getTransaction and getTransactions show it.

use crate::base::errors::{verbatim, RpcError, INVALID_PARAMS};
use crate::base::records::TxRecord;
use crate::base::xdrjson::XdrFormat;
use serde_json::{json, Value};
use soroban_env_host::xdr::{DiagnosticEvent, TransactionEnvelope, TransactionEvent, TransactionMeta, TransactionResult};

/// The request's `xdrFormat`, refused with stellar-rpc's invalid-params error.
pub fn format_param(v: &Option<String>) -> Result<XdrFormat, RpcError> {
    XdrFormat::parse(v.as_deref()).map_err(|m| verbatim(INVALID_PARAMS, m))
}

/// A transaction as getTransaction / getTransactions show it, in the requested format.
pub fn tx_json(r: &TxRecord, fmt: XdrFormat) -> Result<Value, RpcError> {
    let events = json!({
        fmt.key("transactionEventsXdr", "transactionEventsJson"): fmt.stored_list::<TransactionEvent>(&r.tx_events)?,
        fmt.key("contractEventsXdr", "contractEventsJson"):
            r.contract_events.iter().map(|op| fmt.stored_list::<soroban_env_host::xdr::ContractEvent>(op)).collect::<Result<Vec<_>, _>>()?,
    });
    let mut v = json!({
        "status": if r.success { "SUCCESS" } else { "FAILED" },
        "txHash": hex::encode(r.hash),
        "applicationOrder": r.order,
        "feeBump": r.fee_bump,
        fmt.key("envelopeXdr", "envelopeJson"): fmt.stored::<TransactionEnvelope>(&r.envelope)?,
        fmt.key("resultXdr", "resultJson"): fmt.stored::<TransactionResult>(&r.result)?,
        fmt.key("resultMetaXdr", "resultMetaJson"): fmt.stored::<TransactionMeta>(&r.meta)?,
        "ledger": r.ledger,
        "events": events,
    });
    if !r.diagnostics.is_empty() {
        v[fmt.key("diagnosticEventsXdr", "diagnosticEventsJson")] = fmt.stored_list::<DiagnosticEvent>(&r.diagnostics)?;
    }
    Ok(v)
}
