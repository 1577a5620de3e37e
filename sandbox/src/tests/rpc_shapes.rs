//! Requests the sandbox answers as stellar-rpc v27.1.1 does: getEvents' filters, checks and scan limit,
//! getLedgers / getTransactions paging checks, getLedgerEntries' key checks, getTransaction's
//! hash checks, sendTransaction's `invalid_xdr` and simulateTransaction's envelope checks. The
//! messages are stellar-rpc's (cmd/stellar-rpc/internal/methods/*.go and go-stellar-sdk
//! protocols/rpc/*.go).

use super::support::*;
use crate::base::codec::b64;
use serde_json::{json, Value};
use soroban_env_host::xdr::*;

/// A node whose ledgers 2 and 3 hold friendbot fundings (fee and transfer events).
fn world() -> crate::rpc::dispatch::Ctx {
    let mut n = node();
    funded(&mut n, &[1, 2]);
    ctx(n)
}

fn error(v: &Value) -> (i64, String) {
    (v["error"]["code"].as_i64().unwrap_or(0), v["error"]["message"].as_str().unwrap_or("").to_string())
}

fn sym(s: &str) -> String {
    b64(&ScVal::Symbol(ScSymbol(s.try_into().unwrap())))
}

/// Another contract's id, one no event here comes from.
const OTHER: &str = "CAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABSC4";

#[test]
fn get_events_ors_its_filters_each_on_its_own() {
    let c = world();
    let all = call(&c, "getEvents", json!({ "startLedger": 1 }))["result"]["events"].as_array().unwrap().len();
    let fees = call(&c, "getEvents", json!({ "startLedger": 1, "filters": [{ "topics": [[sym("fee"), "**"]] }] }));
    let fees = fees["result"]["events"].as_array().unwrap().len();
    assert!(fees > 0 && fees < all, "{fees} of {all}");
    // stellar-rpc before v27.1.1 narrowed the scan to the first filter's contract ids and lost
    // what the second filter (no contract ids) matches.
    let v = call(&c, "getEvents", json!({ "startLedger": 1, "filters": [{ "contractIds": [OTHER] }, { "topics": [[sym("fee"), "**"]] }] }));
    assert_eq!(v["result"]["events"].as_array().unwrap().len(), fees);
    let v = call(&c, "getEvents", json!({ "startLedger": 1, "filters": [{ "type": "system" }, {}] }));
    assert_eq!(v["result"]["events"].as_array().unwrap().len(), all);
    // `type` is a comma-joined set.
    let v = call(&c, "getEvents", json!({ "startLedger": 1, "filters": [{ "type": "system,contract" }] }));
    assert_eq!(v["result"]["events"].as_array().unwrap().len(), all);
    assert_eq!(call(&c, "getEvents", json!({ "startLedger": 1, "filters": [{ "type": "system" }] }))["result"]["events"], json!([]));
    // A limit of 0 is the default one.
    let v = call(&c, "getEvents", json!({ "startLedger": 1, "pagination": { "limit": 0 } }));
    assert_eq!(v["result"]["events"].as_array().unwrap().len(), all);
}

#[test]
fn get_events_refuses_what_stellar_rpc_refuses_in_its_words() {
    let c = world();
    let refused = |p: Value| error(&call(&c, "getEvents", p));
    let p = |m: &str| (-32602, m.to_string());
    assert_eq!(refused(json!({ "filters": [] })), p("startLedger must be positive"));
    assert_eq!(refused(json!({ "startLedger": 0 })), p("startLedger must be positive"));
    let cursor = call(&c, "getEvents", json!({ "startLedger": 1 }))["result"]["cursor"].clone();
    assert_eq!(refused(json!({ "startLedger": 1, "pagination": { "cursor": cursor } })), p("ledger ranges and cursor cannot both be set"));
    assert_eq!(refused(json!({ "endLedger": 3, "pagination": { "cursor": cursor } })), p("ledger ranges and cursor cannot both be set"));
    assert_eq!(refused(json!({ "startLedger": 1, "pagination": { "limit": 10_001 } })), p("limit must not exceed 10000"));
    assert_eq!(refused(json!({ "startLedger": 1, "filters": [{}, {}, {}, {}, {}, {}] })), p("maximum 5 filters per request"));
    assert_eq!(
        refused(json!({ "startLedger": 1, "filters": [{}, { "type": "diagnostic" }] })),
        p("filter 2 invalid: filter type invalid: if set, type must be either 'system' or 'contract'")
    );
    assert_eq!(refused(json!({ "startLedger": 1, "filters": [{ "contractIds": vec![OTHER; 6] }] })), p("filter 1 invalid: maximum 5 contract IDs per filter"));
    assert_eq!(refused(json!({ "startLedger": 1, "filters": [{ "topics": vec![vec!["*"]; 6] }] })), p("filter 1 invalid: maximum 5 topics per filter"));
    assert_eq!(refused(json!({ "startLedger": 1, "filters": [{ "contractIds": [OTHER, "CNOPE"] }] })), p("filter 1 invalid: contract ID 2 invalid"));
    assert_eq!(refused(json!({ "startLedger": 1, "filters": [{ "topics": [["*"], []] }] })), p("filter 1 invalid: topic 2 invalid: topic must have at least 1 segment"));
    assert_eq!(
        refused(json!({ "startLedger": 1, "filters": [{ "topics": [["*", "**", "*"]] }] })),
        p("filter 1 invalid: topic 1 invalid: segment 2 invalid: wildcard '**' is only allowed as the last segment")
    );
    assert_eq!(
        refused(json!({ "startLedger": 1, "filters": [{ "topics": [["*", "*", "*", "*", "*"]] }] })),
        p("filter 1 invalid: topic 1 invalid: topic cannot have more than 4 segments")
    );
    // Four segments and a trailing "**" are fine.
    assert!(call(&c, "getEvents", json!({ "startLedger": 1, "filters": [{ "topics": [["*", "*", "*", "*", "**"]] }] }))["result"].is_object());
    let latest = c.lock().latest().seq;
    assert_eq!(refused(json!({ "startLedger": latest + 1 })), (-32600, format!("startLedger must be within the ledger range: 1 - {latest}")));
}

#[test]
fn get_events_scans_10_000_ledgers_per_request_and_its_cursor_goes_on_from_there() {
    let mut n = node();
    funded(&mut n, &[1]);
    let first = n.latest().seq;
    for _ in 0..10_005 {
        n.close_ledger();
    }
    funded(&mut n, &[2]);
    let late = n.latest().seq;
    let c = ctx(n);
    let ledger_of = |cursor: &Value| cursor.as_str().unwrap().split('-').next().unwrap().parse::<u64>().unwrap() >> 32;
    // From ledger 1 the scan ends at ledger 10 000: only the first funding's events, and the
    // cursor is the last ledger scanned, short of the latest one.
    let v = call(&c, "getEvents", json!({ "startLedger": 1 }))["result"].clone();
    let ledgers: Vec<u64> = v["events"].as_array().unwrap().iter().map(|e| e["ledger"].as_u64().unwrap()).collect();
    assert!(!ledgers.is_empty() && ledgers.iter().all(|l| *l == first as u64), "{ledgers:?}");
    assert_eq!(ledger_of(&v["cursor"]), 10_000);
    assert_eq!(v["latestLedger"].as_u64(), Some(late as u64));
    // Paging on from that cursor reaches the later funding (the cursor's ledger is scanned again,
    // its events up to the cursor left out).
    let v = call(&c, "getEvents", json!({ "pagination": { "cursor": v["cursor"] } }))["result"].clone();
    let ledgers: Vec<u64> = v["events"].as_array().unwrap().iter().map(|e| e["ledger"].as_u64().unwrap()).collect();
    assert!(!ledgers.is_empty() && ledgers.iter().all(|l| *l == late as u64), "{ledgers:?}");
    assert_eq!(ledger_of(&v["cursor"]), late as u64);
}

#[test]
fn get_events_refuses_a_cursor_that_left_the_window_and_pages_to_an_end_ledger() {
    let mut n = node();
    n.cfg.retention_window = 2;
    funded(&mut n, &[1]);
    let c = ctx(n);
    let first = call(&c, "getEvents", json!({ "startLedger": 2, "pagination": { "limit": 1 } }));
    let cursor = first["result"]["cursor"].clone();
    funded(&mut c.lock(), &[2, 3]);
    let (oldest, latest) = {
        let n = c.lock();
        (n.oldest().seq, n.latest().seq)
    };
    assert!(oldest > 2);
    assert_eq!(
        error(&call(&c, "getEvents", json!({ "pagination": { "cursor": cursor } }))),
        (-32600, format!("startLedger must be within the ledger range: {oldest} - {latest}"))
    );
    // An endLedger at or before the start is no error: nothing is found, and the cursor is the
    // end of the (empty) window.
    let v = call(&c, "getEvents", json!({ "startLedger": latest, "endLedger": latest }));
    assert_eq!(v["result"]["events"], json!([]));
}

#[test]
fn get_ledgers_and_transactions_check_pages_as_stellar_rpc() {
    let c = world();
    let latest = c.lock().latest().seq;
    for m in ["getLedgers", "getTransactions"] {
        let refused = |p: Value| error(&call(&c, m, p));
        assert_eq!(
            refused(json!({ "startLedger": latest + 1 })),
            (-32600, format!("start ledger ({}) must be between the oldest ledger: 1 and the latest ledger: {latest} for this rpc instance", latest + 1))
        );
        assert_eq!(
            refused(json!({})),
            (-32600, format!("start ledger (0) must be between the oldest ledger: 1 and the latest ledger: {latest} for this rpc instance"))
        );
        assert_eq!(refused(json!({ "startLedger": 1, "pagination": { "cursor": "5" } })), (-32600, "startLedger (1) and cursor (5) cannot both be set".into()));
        assert_eq!(refused(json!({ "startLedger": 1, "pagination": { "limit": 201 } })), (-32600, "limit must not exceed 200".into()));
        // A limit of 0 is the default one.
        assert!(call(&c, m, json!({ "startLedger": 1, "pagination": { "limit": 0 } }))["result"].is_object(), "{m}");
    }
    assert_eq!(call(&c, "getLedgers", json!({ "startLedger": 1, "pagination": { "limit": 0 } }))["result"]["ledgers"].as_array().unwrap().len(), latest as usize);
    // A getLedgers cursor whose next ledger is not held yet.
    assert_eq!(
        error(&call(&c, "getLedgers", json!({ "pagination": { "cursor": latest.to_string() } }))),
        (-32602, format!("cursor ('{latest}') must be between the oldest ledger: 1 and the latest ledger: {latest} for this rpc instance"))
    );
}

#[test]
fn get_ledger_entries_checks_keys_as_stellar_rpc() {
    let c = world();
    let ttl = b64(&LedgerKey::Ttl(LedgerKeyTtl { key_hash: Hash([7; 32]) }));
    let refused = |p: Value| error(&call(&c, "getLedgerEntries", p));
    assert_eq!(refused(json!({ "keys": [ttl] })), (-32602, "ledger ttl entries cannot be queried directly".into()));
    assert_eq!(refused(json!({ "keys": ["AAAA", "nope"] })), (-32602, "cannot unmarshal key value AAAA at index 0".into()));
    assert_eq!(refused(json!({ "keys": vec!["AAAA"; 201] })), (-32602, "key count (201) exceeds maximum supported (200)".into()));
}

#[test]
fn get_transaction_and_send_transaction_check_input_as_stellar_rpc() {
    let c = world();
    assert_eq!(error(&call(&c, "getTransaction", json!({ "hash": "abc" }))), (-32602, "unexpected hash length (3)".into()));
    let (code, msg) = error(&call(&c, "getTransaction", json!({ "hash": "zz".repeat(32) })));
    assert!(code == -32602 && msg.starts_with("incorrect hash: "), "{code} {msg}");
    assert_eq!(error(&call(&c, "sendTransaction", json!({ "transaction": "AAAA" }))), (-32602, "invalid_xdr".into()));
    let v = call(&c, "getTransaction", json!({ "hash": "00".repeat(32) }))["result"].clone();
    let latest = c.lock().latest().clone();
    assert_eq!(
        v,
        json!({ "status": "NOT_FOUND", "txHash": "00".repeat(32), "applicationOrder": 0, "feeBump": false, "ledger": 0, "createdAt": "0",
                "latestLedger": latest.seq, "latestLedgerCloseTime": latest.close_time.to_string(), "oldestLedger": 1,
                "oldestLedgerCloseTime": c.lock().oldest().close_time.to_string() })
    );
}

#[test]
fn simulate_transaction_checks_the_envelope_as_stellar_rpc() {
    let c = world();
    let nid = c.lock().network_id;
    let a = key(1);
    let upload = invoke_op(HostFunction::UploadContractWasm(vec![0u8; 8].try_into().unwrap()));
    let two = envelope(nid, &a, 1, 100, vec![upload.clone(), upload.clone()], TransactionExt::V0, &[]);
    let v = call(&c, "simulateTransaction", json!({ "transaction": two }))["result"].clone();
    assert_eq!(v["error"], "Transaction contains more than one operation");
    let mut t = transaction(&a, 1, 100, vec![upload], TransactionExt::V0);
    t.memo = Memo::Text("hi".try_into().unwrap());
    let with_memo = b64(&signed(nid, t, &[]));
    let v = call(&c, "simulateTransaction", json!({ "transaction": with_memo }))["result"].clone();
    assert_eq!(v["error"], "Transaction contains a memo. Soroban transactions do not support memos.");
    let ext = OperationBody::ExtendFootprintTtl(ExtendFootprintTtlOp { ext: ExtensionPoint::V0, extend_to: 100 });
    let bare = envelope(nid, &a, 1, 100, vec![ext], TransactionExt::V0, &[]);
    let v = call(&c, "simulateTransaction", json!({ "transaction": bare }))["result"].clone();
    assert_eq!(
        v["error"],
        "To perform a SimulateTransaction for ExtendFootprintTtl or RestoreFootprint operations, SorobanTransactionData must be provided"
    );
}

#[test]
fn request_stats_count_each_method_and_the_time_it_held_the_node() {
    let c = world();
    call(&c, "getLatestLedger", json!(null));
    call(&c, "getLatestLedger", json!(null));
    call(&c, "getHealth", json!(null));
    let s = call(&c, "sandbox_requestStats", json!({ "reset": true }))["result"].clone();
    assert_eq!(s["getLatestLedger"]["count"], 2);
    assert_eq!(s["getHealth"]["count"], 1);
    assert!(s["getLatestLedger"]["ms"].as_f64().unwrap() >= 0.0);
    // Asking for the stats is not counted; a reset starts them again.
    assert!(s.get("sandbox_requestStats").is_none());
    call(&c, "getHealth", json!(null));
    let s = call(&c, "sandbox_requestStats", json!(null))["result"].clone();
    assert!(s.get("getLatestLedger").is_none());
    assert_eq!(s["getHealth"]["count"], 1);
}
