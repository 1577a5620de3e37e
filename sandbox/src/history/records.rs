//! The retained history (ledgers, transactions, events) as JSON, for state files: a node
//! restarted from `--state` answers getLedgers / getTransaction(s) / getEvents as before.

use std::collections::VecDeque;

use crate::base::codec::b64;

use crate::base::records::{EventRecord, LedgerRecord, TxRecord};
use serde_json::{json, Value};
use soroban_env_host::xdr::{ContractEventType, LedgerHeader, Limits, ReadXdr};

fn hash_hex(h: &[u8; 32]) -> String {
    hex::encode(h)
}

fn hash_of(v: &Value, what: &str) -> Result<[u8; 32], String> {
    v.as_str()
        .and_then(|s| hex::decode(s).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("history: {what} is not a 32-byte hex hash"))
}

fn u32_of(v: &Value, what: &str) -> Result<u32, String> {
    v.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("history: {what} is not a ledger number"))
}

fn str_of(v: &Value, what: &str) -> Result<String, String> {
    v.as_str().map(String::from).ok_or_else(|| format!("history: {what} is missing"))
}

fn strings(v: &Value, what: &str) -> Result<Vec<String>, String> {
    v.as_array().ok_or_else(|| format!("history: {what} is not a list"))?.iter().map(|s| str_of(s, what)).collect()
}

fn ledger_json(l: &LedgerRecord) -> Value {
    json!({
        "sequence": l.seq, "closeTime": l.close_time, "hash": hash_hex(&l.hash), "headerXdr": b64(&l.header),
        "metadataXdr": l.meta_b64, "txs": l.txs.iter().map(hash_hex).collect::<Vec<_>>(),
        "fees": { "classic": l.fees.classic, "soroban": l.fees.soroban },
    })
}

fn ledger_from(v: &Value) -> Result<LedgerRecord, String> {
    let header = LedgerHeader::from_xdr_base64(&str_of(&v["headerXdr"], "ledger headerXdr")?, Limits::none()).map_err(|e| format!("history: bad ledger headerXdr: {e}"))?;
    let txs = v["txs"].as_array().ok_or("history: ledger txs is not a list")?.iter().map(|h| hash_of(h, "ledger tx hash")).collect::<Result<_, _>>()?;
    let samples = |k: &str| -> Result<Vec<u64>, String> {
        v["fees"][k].as_array().ok_or_else(|| format!("history: ledger fees.{k} is not a list"))?.iter().map(|f| f.as_u64().ok_or_else(|| format!("history: ledger fees.{k} holds a non-integer"))).collect()
    };
    let fees = crate::base::records::LedgerFees { classic: samples("classic")?, soroban: samples("soroban")? };
    Ok(LedgerRecord {
        seq: u32_of(&v["sequence"], "ledger sequence")?,
        close_time: v["closeTime"].as_u64().ok_or("history: ledger closeTime missing")?,
        hash: hash_of(&v["hash"], "ledger hash")?,
        header,
        meta_b64: str_of(&v["metadataXdr"], "ledger metadataXdr")?,
        txs,
        fees,
    })
}

fn tx_json(t: &TxRecord) -> Value {
    json!({
        "hash": hash_hex(&t.hash), "ledger": t.ledger, "closeTime": t.close_time, "order": t.order,
        "success": t.success, "feeBump": t.fee_bump, "envelopeXdr": t.envelope, "resultXdr": t.result,
        "resultMetaXdr": t.meta, "contractEventsXdr": t.contract_events, "transactionEventsXdr": t.tx_events,
        "diagnosticEventsXdr": t.diagnostics,
    })
}

fn tx_from(v: &Value) -> Result<TxRecord, String> {
    let contract_events = v["contractEventsXdr"]
        .as_array()
        .ok_or("history: tx contractEventsXdr is not a list")?
        .iter()
        .map(|op| strings(op, "tx contract event"))
        .collect::<Result<_, _>>()?;
    Ok(TxRecord {
        hash: hash_of(&v["hash"], "tx hash")?,
        ledger: u32_of(&v["ledger"], "tx ledger")?,
        close_time: v["closeTime"].as_u64().ok_or("history: tx closeTime missing")?,
        order: u32_of(&v["order"], "tx order")?,
        success: v["success"].as_bool().ok_or("history: tx success missing")?,
        fee_bump: v["feeBump"].as_bool().ok_or("history: tx feeBump missing")?,
        envelope: str_of(&v["envelopeXdr"], "tx envelopeXdr")?,
        result: str_of(&v["resultXdr"], "tx resultXdr")?,
        meta: str_of(&v["resultMetaXdr"], "tx resultMetaXdr")?,
        contract_events,
        tx_events: strings(&v["transactionEventsXdr"], "tx transactionEventsXdr")?,
        diagnostics: strings(&v["diagnosticEventsXdr"], "tx diagnosticEventsXdr")?,
    })
}

fn kind_name(k: ContractEventType) -> &'static str {
    match k {
        ContractEventType::Contract => "contract",
        ContractEventType::System => "system",
        ContractEventType::Diagnostic => "diagnostic",
    }
}

fn event_json(e: &EventRecord) -> Value {
    json!({
        "id": e.id, "ledger": e.ledger, "closeTime": e.close_time, "txHash": hash_hex(&e.tx_hash),
        "contract": e.contract.as_ref().map(hash_hex), "type": kind_name(e.kind), "topics": e.topics, "value": e.value,
        "inSuccessfulContractCall": e.in_successful_call, "operationIndex": e.op_index, "transactionIndex": e.tx_index,
    })
}

fn event_from(v: &Value) -> Result<EventRecord, String> {
    let kind = match v["type"].as_str() {
        Some("contract") => ContractEventType::Contract,
        Some("system") => ContractEventType::System,
        Some("diagnostic") => ContractEventType::Diagnostic,
        other => return Err(format!("history: event type {other:?} is not contract, system or diagnostic")),
    };
    Ok(EventRecord {
        id: str_of(&v["id"], "event id")?,
        ledger: u32_of(&v["ledger"], "event ledger")?,
        close_time: v["closeTime"].as_u64().ok_or("history: event closeTime missing")?,
        tx_hash: hash_of(&v["txHash"], "event txHash")?,
        contract: if v["contract"].is_null() { None } else { Some(hash_of(&v["contract"], "event contract")?) },
        kind,
        topics: strings(&v["topics"], "event topics")?,
        value: str_of(&v["value"], "event value")?,
        in_successful_call: v["inSuccessfulContractCall"].as_bool().ok_or("history: event inSuccessfulContractCall missing")?,
        op_index: u32_of(&v["operationIndex"], "event operationIndex")?,
        tx_index: u32_of(&v["transactionIndex"], "event transactionIndex")?,
    })
}

/// The retained history: ledgers, transactions and events.
pub fn dump<'a>(ledgers: &VecDeque<LedgerRecord>, txs: impl Iterator<Item = &'a TxRecord>, events: &VecDeque<EventRecord>) -> Value {
    json!({
        "ledgers": ledgers.iter().map(ledger_json).collect::<Vec<_>>(),
        "transactions": txs.map(tx_json).collect::<Vec<_>>(),
        "events": events.iter().map(event_json).collect::<Vec<_>>(),
    })
}

/// History read back from `dump`: ledgers in order (the last one is the state's latest), and
/// every transaction and event of those ledgers.
pub struct History {
    pub ledgers: Vec<LedgerRecord>,
    pub txs: Vec<TxRecord>,
    pub events: Vec<EventRecord>,
}

pub fn load(v: &Value) -> Result<History, String> {
    let list = |k: &str| v[k].as_array().ok_or_else(|| format!("history: {k} is not a list"));
    let ledgers: Vec<LedgerRecord> = list("ledgers")?.iter().map(ledger_from).collect::<Result<_, _>>()?;
    if ledgers.is_empty() {
        return Err("history: no ledgers".into());
    }
    if ledgers.windows(2).any(|w| w[1].seq != w[0].seq + 1) {
        return Err("history: ledgers are not consecutive".into());
    }
    let (first, last) = (ledgers[0].seq, ledgers[ledgers.len() - 1].seq);
    let txs: Vec<TxRecord> = list("transactions")?.iter().map(tx_from).collect::<Result<_, _>>()?;
    let events: Vec<EventRecord> = list("events")?.iter().map(event_from).collect::<Result<_, _>>()?;
    if let Some(t) = txs.iter().find(|t| t.ledger < first || t.ledger > last) {
        return Err(format!("history: transaction {} is in ledger {}, outside {first}..{last}", hex::encode(t.hash), t.ledger));
    }
    if events.windows(2).any(|w| (w[0].ledger, &w[0].id) >= (w[1].ledger, &w[1].id)) {
        return Err("history: events are not in id order".into());
    }
    Ok(History { ledgers, txs, events })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_gaps_and_bad_hashes() {
        let v = json!({ "ledgers": [], "transactions": [], "events": [] });
        assert!(load(&v).err().unwrap().contains("no ledgers"));
        assert!(hash_of(&json!("abcd"), "x").is_err());
        assert!(event_from(&json!({ "type": "weird" })).err().unwrap().contains("weird"));
    }
}
