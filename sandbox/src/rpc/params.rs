//! Parameters of the Stellar RPC methods. An optional field may be left out or sent as JSON
//! `null`: both mean "not given", as in stellar-rpc (Go's decoder leaves a field it reads `null`
//! for at its zero value). A required field that is missing or `null` is an invalid-params error
//! that names it.

use crate::base::errors::{invalid, RpcError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};

/// `null` reads as the type's default (an empty list, ...).
fn null_default<'de, D: Deserializer<'de>, T: Default + Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// `useUpgradedAuth`: on unless the request says false (`null` included).
fn null_true<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or(true))
}

fn upgraded_auth_default() -> bool {
    true
}

/// `filters`: `null` is no filter, and a `null` filter is an empty one (it matches every event).
fn null_filters<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<EventFilter>, D::Error> {
    let list: Option<Vec<Option<EventFilter>>> = Option::deserialize(d)?;
    Ok(list.unwrap_or_default().into_iter().map(Option::unwrap_or_default).collect())
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub cursor: Option<String>,
    pub limit: Option<usize>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceConfig {
    pub instruction_leeway: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimulateReq {
    pub transaction: String,
    pub auth_mode: Option<String>,
    pub resource_config: Option<ResourceConfig>,
    /// Record CAP-71 address-v2 credentials; on unless the request says false, as
    /// @stellar/stellar-sdk 17 asks for them by default and decodes them.
    #[serde(default = "upgraded_auth_default", deserialize_with = "null_true")]
    pub use_upgraded_auth: bool,
    pub xdr_format: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct RangeReq {
    pub start_ledger: Option<u32>,
    pub pagination: Option<Pagination>,
    pub xdr_format: Option<String>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub struct EventFilter {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "null_default")]
    pub contract_ids: Vec<String>,
    #[serde(default, deserialize_with = "null_default")]
    pub topics: Vec<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EventsReq {
    pub start_ledger: Option<u32>,
    pub end_ledger: Option<u32>,
    #[serde(default, deserialize_with = "null_filters")]
    pub filters: Vec<EventFilter>,
    pub pagination: Option<Pagination>,
    pub xdr_format: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeysReq {
    pub keys: Vec<String>,
    pub xdr_format: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TxReq {
    pub transaction: String,
    pub xdr_format: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HashReq {
    pub hash: String,
    pub xdr_format: Option<String>,
}

/// Reads a method's parameters (`null` or absent params = `{}`); `required` fields must be
/// present and not `null`.
pub fn parse<T: DeserializeOwned>(p: &Value, required: &[&str]) -> Result<T, RpcError> {
    let p = if p.is_null() { json!({}) } else { p.clone() };
    if let Value::Object(m) = &p {
        if let Some(name) = required.iter().find(|n| m.get(**n).is_none_or(Value::is_null)) {
            return Err(invalid(format!("{name} is required")));
        }
    }
    serde_json::from_value(p).map_err(|e| invalid(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_optional_fields_read_as_absent() {
        let e: EventsReq = parse(
            &json!({ "startLedger": 2, "endLedger": null, "filters": [{ "type": null, "contractIds": null, "topics": null }, null],
                     "pagination": { "cursor": null, "limit": null }, "xdrFormat": null }),
            &[],
        )
        .ok()
        .unwrap();
        assert_eq!((e.start_ledger, e.end_ledger, e.filters.len()), (Some(2), None, 2));
        assert!(e.filters.iter().all(|f| f.kind.is_none() && f.contract_ids.is_empty() && f.topics.is_empty()));
        let p = e.pagination.unwrap();
        assert!(p.cursor.is_none() && p.limit.is_none() && e.xdr_format.is_none());
        let e: EventsReq = parse(&json!({ "filters": null, "pagination": null }), &[]).ok().unwrap();
        assert!(e.filters.is_empty() && e.pagination.is_none());

        let s: SimulateReq = parse(&json!({ "transaction": "x", "authMode": null, "resourceConfig": null, "useUpgradedAuth": null }), &["transaction"]).ok().unwrap();
        assert!(s.use_upgraded_auth && s.auth_mode.is_none() && s.resource_config.is_none());
        let s: SimulateReq = parse(&json!({ "transaction": "x", "resourceConfig": { "instructionLeeway": null }, "useUpgradedAuth": false }), &[]).ok().unwrap();
        assert!(!s.use_upgraded_auth && s.resource_config.unwrap().instruction_leeway.is_none());
        let s: SimulateReq = parse(&json!({ "transaction": "x" }), &[]).ok().unwrap();
        assert!(s.use_upgraded_auth);

        let r: RangeReq = parse(&Value::Null, &[]).ok().unwrap();
        assert!(r.start_ledger.is_none() && r.pagination.is_none());
    }

    #[test]
    fn required_fields_stay_required() {
        let err = |p: Value| parse::<TxReq>(&p, &["transaction"]).err().unwrap();
        assert_eq!(err(json!({ "transaction": null })), invalid("transaction is required"));
        assert_eq!(err(json!({})), invalid("transaction is required"));
        assert_eq!(err(Value::Null), invalid("transaction is required"));
        assert_eq!(err(json!({ "transaction": 5 })).code(), -32602);
        // A topic segment or a contract id given as null is not a wildcard: refused.
        assert!(parse::<EventsReq>(&json!({ "filters": [{ "topics": [["*", null]] }] }), &[]).is_err());
        assert!(parse::<EventsReq>(&json!({ "filters": [{ "contractIds": [null] }] }), &[]).is_err());
    }
}
