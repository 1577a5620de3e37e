//! getEvents: contract events with stellar-rpc ids ("%019d-%010d"), filters, topic wildcards,
//! cursor paging and the retention window.

use crate::base::errors::{invalid, verbatim, RpcError, INVALID_PARAMS, INVALID_REQUEST};
use crate::base::records::EventRecord;
use crate::base::xdrjson::XdrFormat;
use crate::node::core::Node;
use crate::rpc::params::{EventFilter, EventsReq};
use serde_json::{json, Value};
use soroban_env_host::xdr::{ContractEventType, ContractId, Hash, Limits, ReadXdr, ScAddress, ScVal, WriteXdr};
use std::str::FromStr;

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 10_000;
/// stellar-rpc's `LedgerScanLimit`: the most ledgers one getEvents request scans.
pub const LEDGER_SCAN_LIMIT: u32 = 10_000;

enum Segment {
    Any,
    Rest,
    Exact(String),
}

struct Filter {
    kinds: Vec<ContractEventType>,
    contracts: Vec<[u8; 32]>,
    topics: Vec<Vec<Segment>>,
}

/// A request error with stellar-rpc's code and text (`GetEventsRequest.Valid` and
/// `EventFilter.Valid` in go-stellar-sdk protocols/rpc/get_events.go).
fn refuse(m: impl Into<String>) -> RpcError {
    verbatim(INVALID_PARAMS, m)
}

/// One filter, checked in stellar-rpc's order: type, the counts, contract ids, topics. `n` is
/// its position (from 1) for the message.
fn compile(n: usize, f: &EventFilter) -> Result<Filter, RpcError> {
    let bad = |m: String| refuse(format!("filter {n} invalid: {m}"));
    // `type` is a comma-joined set: "contract", "system" or "system,contract".
    let kind = f.kind.as_deref().unwrap_or("");
    let mut kinds = vec![];
    for k in kind.split(',').filter(|_| !kind.is_empty()) {
        kinds.push(match k {
            "contract" => ContractEventType::Contract,
            "system" => ContractEventType::System,
            // Diagnostic events are not in the getEvents stream (stellar-rpc 23+).
            _ => return Err(bad("filter type invalid: if set, type must be either 'system' or 'contract'".into())),
        });
    }
    if f.contract_ids.len() > 5 {
        return Err(bad("maximum 5 contract IDs per filter".into()));
    }
    if f.topics.len() > 5 {
        return Err(bad("maximum 5 topics per filter".into()));
    }
    let contracts = f
        .contract_ids
        .iter()
        .enumerate()
        .map(|(i, c)| ContractId::from_str(c).map(|c| c.0 .0).map_err(|_| bad(format!("contract ID {} invalid", i + 1))))
        .collect::<Result<_, _>>()?;
    let mut topics = vec![];
    for (j, t) in f.topics.iter().enumerate() {
        let bad_topic = |m: String| bad(format!("topic {} invalid: {m}", j + 1));
        if t.is_empty() {
            return Err(bad_topic("topic must have at least 1 segment".into()));
        }
        let fixed = if t.last().map(String::as_str) == Some("**") { &t[..t.len() - 1] } else { &t[..] };
        if let Some(k) = fixed.iter().position(|s| s == "**") {
            return Err(bad_topic(format!("segment {} invalid: wildcard '**' is only allowed as the last segment", k + 1)));
        }
        if fixed.len() > 4 {
            return Err(bad_topic("topic cannot have more than 4 segments".into()));
        }
        let mut segs = vec![];
        for s in fixed {
            segs.push(match s.as_str() {
                "*" => Segment::Any,
                x => {
                    let v = ScVal::from_xdr_base64(x, Limits::len(1 << 16)).map_err(|_| invalid(format!("topic segment {x:?} is not ScVal XDR")))?;
                    Segment::Exact(v.to_xdr_base64(Limits::none()).unwrap())
                }
            });
        }
        if fixed.len() < t.len() {
            segs.push(Segment::Rest);
        }
        topics.push(segs);
    }
    Ok(Filter { kinds, contracts, topics })
}

fn topic_matches(pattern: &[Segment], topics: &[String]) -> bool {
    let mut i = 0;
    for seg in pattern {
        match seg {
            Segment::Rest => return true,
            Segment::Any => {
                if i >= topics.len() {
                    return false;
                }
            }
            Segment::Exact(s) => {
                if topics.get(i) != Some(s) {
                    return false;
                }
            }
        }
        i += 1;
    }
    i == topics.len()
}

fn matches(f: &Filter, e: &EventRecord) -> bool {
    (f.kinds.is_empty() || f.kinds.contains(&e.kind))
        && (f.contracts.is_empty() || e.contract.is_some_and(|c| f.contracts.contains(&c)))
        && (f.topics.is_empty() || f.topics.iter().any(|p| topic_matches(p, &e.topics)))
}

/// Unix seconds as RFC 3339 UTC ("2026-01-01T00:00:00Z").
pub fn rfc3339(t: u64) -> String {
    let days = (t / 86_400) as i64;
    let secs = t % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

pub fn get_events(node: &Node, r: EventsReq) -> Result<Value, RpcError> {
    let fmt = crate::rpc::formats::format_param(&r.xdr_format)?;
    let (oldest, latest) = (node.oldest().seq, node.latest().seq);
    // stellar-rpc reads 0 as "not given" (Go's zero value); so does `null`.
    let (start_ledger, end_ledger) = (r.start_ledger.filter(|s| *s != 0), r.end_ledger.filter(|e| *e != 0));
    let cursor = r.pagination.as_ref().and_then(|p| p.cursor.clone());
    if cursor.is_some() {
        if start_ledger.is_some() || end_ledger.is_some() {
            return Err(refuse("ledger ranges and cursor cannot both be set"));
        }
    } else if start_ledger.is_none() {
        return Err(refuse("startLedger must be positive"));
    }
    // A limit of 0 is the default one, as in stellar-rpc.
    let lim = r.pagination.as_ref().and_then(|p| p.limit).filter(|l| *l != 0).unwrap_or(DEFAULT_LIMIT);
    if lim > MAX_LIMIT {
        return Err(refuse(format!("limit must not exceed {MAX_LIMIT}")));
    }
    if r.filters.len() > 5 {
        return Err(refuse("maximum 5 filters per request"));
    }
    let filters = r.filters.iter().enumerate().map(|(i, f)| compile(i + 1, f)).collect::<Result<Vec<_>, _>>()?;
    let start = match &cursor {
        Some(c) => c.split('-').next().and_then(|t| t.parse::<u64>().ok()).map(|t| (t >> 32) as u32).ok_or_else(|| invalid(format!("bad cursor {c:?}")))?,
        None => start_ledger.unwrap_or_default(),
    };
    // A cursor whose ledger left the retention window is refused like an old startLedger.
    if start < oldest || start > latest {
        return Err(verbatim(INVALID_REQUEST, format!("startLedger must be within the ledger range: {oldest} - {latest}")));
    }
    // Each request scans at most `LEDGER_SCAN_LIMIT` ledgers from its start, as stellar-rpc's
    // (get_events.go: `min(start + LedgerScanLimit, latest + 1, endLedger)`); a short page's
    // cursor is then that point, and readers page on while it is before the latest ledger.
    let end = end_ledger.unwrap_or(u32::MAX).min(latest + 1).min(start.saturating_add(LEDGER_SCAN_LIMIT));
    let mut out = vec![];
    let mut last_id: Option<String> = None;
    // Events are stored in ledger order: start at the first one of `start`.
    let first = node.chain.events.partition_point(|e| e.ledger < start);
    for e in node.chain.events.range(first..) {
        if e.ledger >= end {
            break;
        }
        if let Some(c) = &cursor {
            if e.id.as_str() <= c.as_str() {
                continue;
            }
        }
        if !filters.is_empty() && !filters.iter().any(|f| matches(f, e)) {
            continue;
        }
        out.push(event_json(e, fmt)?);
        last_id = Some(e.id.clone());
        if out.len() >= lim {
            break;
        }
    }
    // Short of the limit, the cursor is the end of the window, as stellar-rpc's: the largest
    // id of ledger end - 1 (a ledger's first fee event has the id "<toid(end, 0, 0)>-0000000000").
    let cursor = match last_id {
        Some(id) if out.len() >= lim => id,
        _ => format!("{:019}-{:010}", crate::history::toid::toid(end.saturating_sub(1), (1 << 20) - 1, (1 << 12) - 1), u32::MAX),
    };
    let (l, o) = (node.latest(), node.oldest());
    Ok(json!({ "events": out, "cursor": cursor, "latestLedger": l.seq, "oldestLedger": o.seq,
               "latestLedgerCloseTime": l.close_time.to_string(), "oldestLedgerCloseTime": o.close_time.to_string() }))
}

/// One event; with JSON, `topicJson` (left out when the event has no topics, as stellar-rpc's
/// omitempty does) and `valueJson` take the place of `topic` and `value`.
fn event_json(e: &EventRecord, fmt: XdrFormat) -> Result<Value, RpcError> {
    let kind = match e.kind {
        ContractEventType::Contract => "contract",
        ContractEventType::System => "system",
        ContractEventType::Diagnostic => "diagnostic",
    };
    let mut v = json!({
        "type": kind,
        "ledger": e.ledger,
        "ledgerClosedAt": rfc3339(e.close_time),
        "contractId": e.contract.map(|c| ScAddress::Contract(ContractId(Hash(c))).to_string()).unwrap_or_default(),
        "id": e.id,
        "operationIndex": e.op_index,
        "transactionIndex": e.tx_index,
        "txHash": hex::encode(e.tx_hash),
        "inSuccessfulContractCall": e.in_successful_call,
    });
    if !fmt.is_json() || !e.topics.is_empty() {
        v[fmt.key("topic", "topicJson")] = fmt.stored_list::<ScVal>(&e.topics)?;
    }
    v[fmt.key("value", "valueJson")] = fmt.stored::<ScVal>(&e.value)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_formats_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_767_225_600), "2026-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400 + 3661), "2000-02-29T01:01:01Z");
    }

    #[test]
    fn topic_wildcards() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let ex = |s: &str| Segment::Exact(s.into());
        assert!(topic_matches(&[ex("a"), Segment::Any], &t(&["a", "b"])));
        assert!(!topic_matches(&[ex("a"), Segment::Any], &t(&["a", "b", "c"])));
        assert!(topic_matches(&[ex("a"), Segment::Rest], &t(&["a", "b", "c"])));
        assert!(topic_matches(&[ex("a"), Segment::Rest], &t(&["a"])));
        assert!(!topic_matches(&[ex("x"), Segment::Rest], &t(&["a"])));
    }
}
