//! `xdrFormat`: XDR values as base64 (the default) or as JSON. The JSON is what stellar-rpc's
//! xdr2json library produces: `serde_json` of the stellar-xdr type. With "json" a method
//! answers `fooJson` (the value) where it answers `fooXdr` / `foo` (a base64 string) by default.

use crate::base::errors::RpcError;
use serde::Serialize;
use serde_json::Value;
use soroban_env_host::xdr::{Limits, ReadXdr, WriteXdr};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum XdrFormat {
    #[default]
    Base64,
    Json,
}

/// stellar-rpc's decoding limits for xdr2json (deeper and longer than Soroban's own).
fn limits() -> Limits {
    Limits { depth: 500, len: 32 * 1024 * 1024 }
}

impl XdrFormat {
    /// The request's `xdrFormat`: absent, `null` and `""` are base64. Any other value is refused
    /// with stellar-rpc's message (each method picks the error code stellar-rpc uses).
    pub fn parse(v: Option<&str>) -> Result<XdrFormat, String> {
        match v.unwrap_or("") {
            "" | "base64" => Ok(XdrFormat::Base64),
            "json" => Ok(XdrFormat::Json),
            other => Err(format!("got '{other}': expected base64, json for optional 'xdrFormat'")),
        }
    }

    pub fn is_json(self) -> bool {
        self == XdrFormat::Json
    }

    /// The field name for this format: `key("resultXdr", "resultJson")`.
    pub fn key(self, xdr: &'static str, json: &'static str) -> &'static str {
        match self {
            XdrFormat::Base64 => xdr,
            XdrFormat::Json => json,
        }
    }

    /// A typed XDR value: its base64 string, or its JSON.
    pub fn typed<T: WriteXdr + Serialize>(self, v: &T) -> Value {
        match self {
            XdrFormat::Base64 => Value::String(crate::base::codec::b64(v)),
            XdrFormat::Json => to_json(v),
        }
    }

    /// A value the node keeps as base64 XDR of type `T`: as is, or decoded and turned to JSON.
    pub fn stored<T: ReadXdr + Serialize>(self, b64: &str) -> Result<Value, RpcError> {
        match self {
            XdrFormat::Base64 => Ok(Value::String(b64.to_string())),
            XdrFormat::Json => T::from_xdr_base64(b64, limits())
                .map(|v| to_json(&v))
                .map_err(|e| RpcError::Internal(format!("stored {} XDR does not decode: {e}", std::any::type_name::<T>()))),
        }
    }

    /// A list of stored values of type `T`.
    pub fn stored_list<T: ReadXdr + Serialize>(self, items: &[String]) -> Result<Value, RpcError> {
        items.iter().map(|s| self.stored::<T>(s)).collect::<Result<Vec<_>, _>>().map(Value::Array)
    }
}

/// The JSON of an XDR value (xdr2json: `serde_json::to_string` of the stellar-xdr type).
pub fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("stellar-xdr values serialize to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use soroban_env_host::xdr::{ScSymbol, ScVal, TransactionResult, TransactionResultExt, TransactionResultResult};

    #[test]
    fn parses_formats_as_stellar_rpc_does() {
        assert_eq!(XdrFormat::parse(None), Ok(XdrFormat::Base64));
        assert_eq!(XdrFormat::parse(Some("")), Ok(XdrFormat::Base64));
        assert_eq!(XdrFormat::parse(Some("base64")), Ok(XdrFormat::Base64));
        assert_eq!(XdrFormat::parse(Some("json")), Ok(XdrFormat::Json));
        assert_eq!(XdrFormat::parse(Some("JSON")), Err("got 'JSON': expected base64, json for optional 'xdrFormat'".into()));
        assert_eq!(XdrFormat::parse(Some("xml")), Err("got 'xml': expected base64, json for optional 'xdrFormat'".into()));
    }

    #[test]
    fn renders_base64_or_json() {
        let sym = ScVal::Symbol(ScSymbol("transfer".try_into().unwrap()));
        let b64 = crate::base::codec::b64(&sym);
        assert_eq!(XdrFormat::Base64.typed(&sym), json!(b64));
        assert_eq!(XdrFormat::Json.typed(&sym), json!({ "symbol": "transfer" }));
        assert_eq!(XdrFormat::Json.stored::<ScVal>(&b64).unwrap(), json!({ "symbol": "transfer" }));
        assert_eq!(XdrFormat::Base64.stored_list::<ScVal>(std::slice::from_ref(&b64)).unwrap(), json!([b64]));
        assert!(matches!(XdrFormat::Json.stored::<ScVal>("not xdr"), Err(RpcError::Internal(_))));
        assert_eq!(XdrFormat::Json.key("resultXdr", "resultJson"), "resultJson");

        let r = TransactionResult { fee_charged: 100, result: TransactionResultResult::TxSuccess(vec![].try_into().unwrap()), ext: TransactionResultExt::V0 };
        let v = XdrFormat::Json.typed(&r);
        let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["ext", "fee_charged", "result"]);
    }
}
