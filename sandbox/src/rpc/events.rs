//! getEvents: contract events with stellar-rpc ids ("%019d-%010d"), filters, topic wildcards,
//! cursor paging and the retention window.

use crate::base::errors::{invalid, RpcError};
use crate::base::records::EventRecord;
use crate::base::xdrjson::XdrFormat;
use crate::node::core::Node;
use crate::rpc::params::{EventFilter, EventsReq};
use serde_json::{json, Value};
use soroban_env_host::xdr::{ContractEventType, ContractId, Hash, Limits, ReadXdr, ScAddress, ScVal, WriteXdr};
use std::str::FromStr;

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 10_000;

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

fn compile(f: &EventFilter) -> Result<Filter, RpcError> {
    let kinds = match f.kind.as_deref() {
        None | Some("") => vec![],
        Some("contract") => vec![ContractEventType::Contract],
        Some("system") => vec![ContractEventType::System],
        Some("diagnostic") => vec![ContractEventType::Diagnostic],
        Some(k) => return Err(invalid(format!("filter type {k:?}: use contract, system or diagnostic"))),
    };
    if f.contract_ids.len() > 5 || f.topics.len() > 5 {
        return Err(invalid("a filter takes at most 5 contractIds and 5 topic patterns"));
    }
    let contracts = f
        .contract_ids
        .iter()
        .map(|c| ContractId::from_str(c).map(|c| c.0 .0).map_err(|_| invalid(format!("contractId {c:?} is not a C... strkey"))))
        .collect::<Result<_, _>>()?;
    let mut topics = vec![];
    for t in &f.topics {
        if t.is_empty() || t.len() > 5 {
            return Err(invalid("a topic pattern has 1 to 4 segments (plus an optional trailing \"**\")"));
        }
        let mut segs = vec![];
        for (i, s) in t.iter().enumerate() {
            segs.push(match s.as_str() {
                "*" => Segment::Any,
                "**" if i == t.len() - 1 => Segment::Rest,
                "**" => return Err(invalid("\"**\" is only allowed as the last topic segment")),
                x => {
                    let v = ScVal::from_xdr_base64(x, Limits::len(1 << 16)).map_err(|_| invalid(format!("topic segment {x:?} is not ScVal XDR")))?;
                    Segment::Exact(v.to_xdr_base64(Limits::none()).unwrap())
                }
            });
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
    if r.filters.len() > 5 {
        return Err(invalid("at most 5 filters"));
    }
    let filters = r.filters.iter().map(compile).collect::<Result<Vec<_>, _>>()?;
    let lim = r.pagination.as_ref().and_then(|p| p.limit).unwrap_or(DEFAULT_LIMIT);
    if lim == 0 || lim > MAX_LIMIT {
        return Err(invalid(format!("limit must be between 1 and {MAX_LIMIT}")));
    }
    let cursor = r.pagination.as_ref().and_then(|p| p.cursor.clone());
    let start = match (&cursor, r.start_ledger) {
        (Some(c), _) => {
            let toid: u64 = c.split('-').next().and_then(|t| t.parse().ok()).ok_or_else(|| invalid(format!("bad cursor {c:?}")))?;
            ((toid >> 32) as u32).max(oldest)
        }
        (None, Some(s)) => {
            if s < oldest || s > latest {
                return Err(invalid(format!("startLedger must be between the oldest ledger: {oldest} and the latest ledger: {latest}")));
            }
            s
        }
        (None, None) => return Err(invalid("startLedger or pagination.cursor is required")),
    };
    let end = r.end_ledger.unwrap_or(u32::MAX).min(latest + 1);
    if end <= start && cursor.is_none() {
        return Err(invalid("endLedger must be after startLedger"));
    }
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
        _ => format!("{:019}-{:010}", crate::history::toid::toid(end.min(latest + 1).saturating_sub(1), (1 << 20) - 1, (1 << 12) - 1), u32::MAX),
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
