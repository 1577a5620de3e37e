//! The one place internal errors become JSON-RPC error objects.

use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq)]
pub enum RpcError {
    /// The body is not JSON.
    Parse(String),
    /// JSON, but not a JSON-RPC 2.0 request.
    InvalidRequest(String),
    MethodNotFound(String),
    /// Well-formed request, unusable parameters (bad XDR, missing field, ...).
    InvalidParams(String),
    Internal(String),
    /// An error stellar-rpc answers with its own code and text: the message goes out verbatim.
    Verbatim { code: i64, message: String },
}

pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

impl RpcError {
    pub fn code(&self) -> i64 {
        match self {
            RpcError::Parse(_) => -32700,
            RpcError::InvalidRequest(_) => -32600,
            RpcError::MethodNotFound(_) => -32601,
            RpcError::InvalidParams(_) => -32602,
            RpcError::Internal(_) => -32603,
            RpcError::Verbatim { code, .. } => *code,
        }
    }

    pub fn message(&self) -> String {
        match self {
            RpcError::Parse(m) => format!("parse error: {m}"),
            RpcError::InvalidRequest(m) => format!("invalid request: {m}"),
            RpcError::MethodNotFound(m) => format!(
                "method not found: {m} (Stellar RPC methods: getHealth, getNetwork, getVersionInfo, getLatestLedger, \
                 getLedgers, getLedgerEntries, getFeeStats, simulateTransaction, sendTransaction, getTransaction, \
                 getTransactions, getEvents; cheats start with sandbox_, see sandbox/README.md)"
            ),
            RpcError::InvalidParams(m) => format!("invalid params: {m}"),
            RpcError::Internal(m) => format!("internal error: {m}"),
            RpcError::Verbatim { message, .. } => message.clone(),
        }
    }

    pub fn to_json(&self, id: &Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": { "code": self.code(), "message": self.message() } })
    }
}

pub fn invalid(m: impl Into<String>) -> RpcError {
    RpcError::InvalidParams(m.into())
}

/// stellar-rpc's error for the same input: its code, its message as is.
pub fn verbatim(code: i64, m: impl Into<String>) -> RpcError {
    RpcError::Verbatim { code, message: m.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_json_rpc() {
        assert_eq!(RpcError::Parse("x".into()).code(), -32700);
        assert_eq!(RpcError::MethodNotFound("foo".into()).code(), -32601);
        let v = invalid("bad key").to_json(&json!(7));
        assert_eq!(v["error"]["code"], -32602);
        assert_eq!(v["id"], 7);
        assert!(v["error"]["message"].as_str().unwrap().contains("bad key"));
        let v = verbatim(INVALID_REQUEST, "exact text").to_json(&json!(1));
        assert_eq!(v["error"], json!({ "code": -32600, "message": "exact text" }));
    }
}

/// A friendbot failure, answered as Stellar's friendbot answers: an HTTP problem document
/// (type, title, status, detail).
#[derive(Debug, Clone, PartialEq)]
pub enum FriendbotError {
    /// The account exists: the detail wallets and stellar-cli take for "already funded".
    AlreadyFunded,
    BadRequest(String),
    Failed(String),
}

impl FriendbotError {
    pub fn problem(&self) -> (u16, Value) {
        let (status, kind, title, detail) = match self {
            FriendbotError::AlreadyFunded => (400, "bad_request", "Bad Request", "account already funded to starting balance".to_string()),
            FriendbotError::BadRequest(d) => (400, "bad_request", "Bad Request", d.clone()),
            FriendbotError::Failed(d) => (500, "server_error", "Internal Server Error", d.clone()),
        };
        let problem = json!({ "type": format!("https://stellar.org/horizon-errors/{kind}"), "title": title, "status": status, "detail": detail });
        (status, problem)
    }
}

impl std::fmt::Display for FriendbotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.problem().1["detail"].as_str().unwrap_or_default())
    }
}
