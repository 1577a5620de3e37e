//! getLedgers and getTransactions: paging through the retained history.

use crate::base::errors::{invalid, verbatim, RpcError, INVALID_PARAMS, INVALID_REQUEST};
use crate::base::xdrjson::XdrFormat;
use crate::history::toid::toid;
use crate::node::core::Node;
use crate::rpc::formats::tx_json;
use crate::rpc::params::RangeReq;
use serde_json::{json, Value};
use soroban_env_host::xdr::{LedgerCloseMeta, LedgerHeaderHistoryEntry, LedgerHeaderHistoryEntryExt};

const DEFAULT_LIMIT: usize = 50;
const MAX_LIMIT: usize = 200;

/// The start of a page: `ValidatePagination` (go-stellar-sdk protocols/rpc/get_ledgers.go, shared
/// by getLedgers and getTransactions; its errors are -32600), then the cursor, which
/// `cursor_to_ledger` reads as (ledger, transactions of it already seen).
fn start_of(node: &Node, r: &RangeReq, cursor_to_ledger: impl Fn(&str) -> Option<(u32, u32)>) -> Result<(u32, u32), RpcError> {
    let (oldest, latest) = (node.oldest().seq, node.latest().seq);
    let start = r.start_ledger.unwrap_or(0);
    let page = r.pagination.as_ref();
    let cursor = page.and_then(|p| p.cursor.as_deref()).filter(|c| !c.is_empty());
    let bad_page = || verbatim(INVALID_REQUEST, format!("start ledger ({start}) must be between the oldest ledger: {oldest} and the latest ledger: {latest} for this rpc instance"));
    match cursor {
        Some(c) if start != 0 => return Err(verbatim(INVALID_REQUEST, format!("startLedger ({start}) and cursor ({c}) cannot both be set"))),
        Some(_) => {}
        None if start < oldest || start > latest => return Err(bad_page()),
        None => {}
    }
    if page.and_then(|p| p.limit).is_some_and(|l| l > MAX_LIMIT) {
        return Err(verbatim(INVALID_REQUEST, format!("limit must not exceed {MAX_LIMIT}")));
    }
    match cursor {
        Some(c) => cursor_to_ledger(c).ok_or_else(|| invalid(format!("bad cursor {c:?}"))),
        None => Ok((start, 0)),
    }
}

/// The page size; 0 (or none) is the default, as in stellar-rpc. `start_of` has refused one
/// above the maximum.
fn limit(r: &RangeReq) -> usize {
    r.pagination.as_ref().and_then(|p| p.limit).filter(|l| *l != 0).unwrap_or(DEFAULT_LIMIT).min(MAX_LIMIT)
}

/// getLedgers and getTransactions refuse an unknown `xdrFormat` as an invalid request, as
/// stellar-rpc's request validation does.
fn format_of(r: &RangeReq) -> Result<XdrFormat, RpcError> {
    XdrFormat::parse(r.xdr_format.as_deref()).map_err(|m| verbatim(INVALID_REQUEST, m))
}

pub fn get_ledgers(node: &Node, r: RangeReq) -> Result<Value, RpcError> {
    let fmt = format_of(&r)?;
    let (start, _) = start_of(node, &r, |c| c.parse::<u32>().ok().map(|s| (s.saturating_add(1), 0)))?;
    // A cursor past the window is stellar-rpc's -32602 (`parseCursor`, methods/get_ledgers.go).
    if r.pagination.as_ref().and_then(|p| p.cursor.as_deref()).is_some_and(|c| !c.is_empty()) {
        let (oldest, latest) = (node.oldest().seq, node.latest().seq);
        if start < oldest || start > latest {
            let c = r.pagination.as_ref().and_then(|p| p.cursor.clone()).unwrap_or_default();
            return Err(verbatim(INVALID_PARAMS, format!("cursor ('{c}') must be between the oldest ledger: {oldest} and the latest ledger: {latest} for this rpc instance")));
        }
    }
    let lim = limit(&r);
    let ledgers: Vec<Value> = node
        .chain
        .ledgers
        .iter()
        .filter(|l| l.seq >= start)
        .take(lim)
        .map(|l| {
            let hist = LedgerHeaderHistoryEntry { hash: soroban_env_host::xdr::Hash(l.hash), header: l.header.clone(), ext: LedgerHeaderHistoryEntryExt::V0 };
            let mut v = json!({ "hash": hex::encode(l.hash), "sequence": l.seq, "ledgerCloseTime": l.close_time.to_string() });
            if fmt.is_json() {
                // stellar-rpc leaves the (not omitted) base64 fields empty next to the JSON ones.
                v["headerXdr"] = json!("");
                v["metadataXdr"] = json!("");
                v["headerJson"] = fmt.typed(&hist);
                v["metadataJson"] = fmt.stored::<LedgerCloseMeta>(&l.meta_b64)?;
            } else {
                v["headerXdr"] = fmt.typed(&hist);
                v["metadataXdr"] = json!(l.meta_b64);
            }
            Ok(v)
        })
        .collect::<Result<_, RpcError>>()?;
    let cursor = ledgers.last().and_then(|l| l["sequence"].as_u64()).unwrap_or(start.saturating_sub(1) as u64).to_string();
    let (latest, oldest) = (node.latest(), node.oldest());
    Ok(json!({ "ledgers": ledgers, "latestLedger": latest.seq, "latestLedgerCloseTime": latest.close_time,
               "oldestLedger": oldest.seq, "oldestLedgerCloseTime": oldest.close_time, "cursor": cursor }))
}

pub fn get_transactions(node: &Node, r: RangeReq) -> Result<Value, RpcError> {
    let (start, after_order) = start_of(node, &r, |c| {
        let t: u64 = c.parse().ok()?;
        Some(((t >> 32) as u32, ((t >> 12) & 0xFFFFF) as u32))
    })?;
    let lim = limit(&r);
    let fmt = format_of(&r)?;
    let mut out = vec![];
    let mut cursor = toid(start, after_order, 0);
    'outer: for l in node.chain.ledgers.iter().filter(|l| l.seq >= start) {
        for h in &l.txs {
            let Some(t) = node.chain.txs.get(h) else { continue };
            if t.ledger == start && t.order <= after_order {
                continue;
            }
            let mut v = tx_json(t, fmt)?;
            v["createdAt"] = json!(t.close_time);
            out.push(v);
            cursor = toid(t.ledger, t.order, 0);
            if out.len() >= lim {
                break 'outer;
            }
        }
    }
    let (latest, oldest) = (node.latest(), node.oldest());
    Ok(json!({ "transactions": out, "latestLedger": latest.seq, "latestLedgerCloseTimestamp": latest.close_time,
               "oldestLedger": oldest.seq, "oldestLedgerCloseTimestamp": oldest.close_time, "cursor": cursor.to_string() }))
}
