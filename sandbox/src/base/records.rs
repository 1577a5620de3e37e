//! What the node keeps of each ledger, transaction and event it closed: the history the RPC
//! answers from and the state files hold.

use soroban_env_host::xdr::{ContractEventType, LedgerHeader};

#[derive(Clone)]
pub struct TxRecord {
    pub hash: [u8; 32],
    pub ledger: u32,
    pub close_time: u64,
    pub order: u32,
    pub success: bool,
    pub fee_bump: bool,
    pub envelope: String,
    pub result: String,
    pub meta: String,
    pub contract_events: Vec<Vec<String>>,
    pub tx_events: Vec<String>,
    pub diagnostics: Vec<String>,
}

#[derive(Clone)]
pub struct LedgerRecord {
    pub seq: u32,
    pub close_time: u64,
    pub hash: [u8; 32],
    pub header: LedgerHeader,
    pub meta_b64: String,
    pub txs: Vec<[u8; 32]>,
    /// Inclusion-fee samples for getFeeStats.
    pub fees: LedgerFees,
}

#[derive(Clone)]
pub struct EventRecord {
    pub id: String,
    pub ledger: u32,
    pub close_time: u64,
    pub tx_hash: [u8; 32],
    pub contract: Option<[u8; 32]>,
    pub kind: ContractEventType,
    pub topics: Vec<String>,
    pub value: String,
    pub in_successful_call: bool,
    pub op_index: u32,
    pub tx_index: u32,
}

/// What one ledger close did.
#[derive(Clone, Debug, Default)]
pub struct Closed {
    pub seq: u32,
    /// Hashes of the transactions applied (the fee-bump hash for a fee bump), in apply order.
    pub applied: Vec<[u8; 32]>,
    /// Pending transactions the close removed from the queue (expired, timed out, invalid).
    pub dropped: Vec<[u8; 32]>,
    /// Inclusion fee per operation charged in each phase [classic, Soroban].
    pub base_fee: [i64; 2],
    /// Whether a phase left a transaction out for lack of room.
    pub surged: [bool; 2],
}

/// The inclusion-fee samples of one ledger.
#[derive(Clone, Default, Debug, PartialEq)]
pub struct LedgerFees {
    pub classic: Vec<u64>,
    pub soroban: Vec<u64>,
}
