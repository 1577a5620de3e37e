//! The getEvents log: each transaction's events under stellar-rpc's ids, `%019d-%010d` of a
//! TOID (ledger, transaction, operation) and an event index:
//! - fee charged (`BEFORE_ALL_TXS`): TOID (ledger, 0, 0), index counting across the ledger;
//! - operation events: (ledger, application order, operation), index within the operation;
//! - `AFTER_TX` events: (ledger, application order, 4095), index within the transaction;
//! - `AFTER_ALL_TXS` events (refunds): (ledger, 1048575, 0), index across the ledger.
//!
//! Failed transactions have their transaction-level events recorded too (the fee is paid
//! anyway), with `inSuccessfulContractCall` false. The log stays sorted by id, the order
//! getEvents returns.

use crate::base::codec::b64;
use crate::base::records::EventRecord;
use crate::history::toid::toid;
use soroban_env_host::xdr::{ContractEvent, ContractEventBody, TransactionEvent, TransactionEventStage};
use std::collections::VecDeque;

const TX_MASK: u32 = (1 << 20) - 1;
const OP_MASK: u32 = (1 << 12) - 1;

/// Where one transaction's events go and what they carry besides the event itself.
pub struct TxContext {
    pub ledger: u32,
    pub close_time: u64,
    pub tx_hash: [u8; 32],
    /// Application order in the ledger, from 1.
    pub order: u32,
    pub success: bool,
}

pub fn record(log: &mut VecDeque<EventRecord>, cx: &TxContext, tx_events: &[TransactionEvent], op_events: &[Vec<ContractEvent>]) {
    for te in tx_events {
        let (tx, op) = match te.stage {
            TransactionEventStage::BeforeAllTxs => (0, 0),
            TransactionEventStage::AfterTx => (cx.order, OP_MASK),
            TransactionEventStage::AfterAllTxs => (TX_MASK, 0),
        };
        insert(log, cx, tx, op, &te.event);
    }
    for (op, evs) in op_events.iter().enumerate() {
        for e in evs {
            insert(log, cx, cx.order, op as u32, e);
        }
    }
}

/// Inserts `e` after the events already logged under the same TOID, with the next index.
fn insert(log: &mut VecDeque<EventRecord>, cx: &TxContext, tx: u32, op: u32, e: &ContractEvent) {
    let id = toid(cx.ledger, tx, op);
    // Ids under this TOID are "<toid>-<digits>": all of them sort between "<toid>-" and "<toid>.".
    let (lo, hi) = (format!("{id:019}-"), format!("{id:019}."));
    let start = log.partition_point(|r| r.id.as_str() < lo.as_str());
    let end = log.partition_point(|r| r.id.as_str() < hi.as_str());
    let ContractEventBody::V0(body) = &e.body;
    let rec = EventRecord {
        id: format!("{id:019}-{:010}", end - start),
        ledger: cx.ledger,
        close_time: cx.close_time,
        tx_hash: cx.tx_hash,
        contract: e.contract_id.as_ref().map(|c| c.0 .0),
        kind: e.type_,
        topics: body.topics.iter().map(b64).collect(),
        value: b64(&body.data),
        in_successful_call: cx.success,
        op_index: op,
        tx_index: tx,
    };
    log.insert(end, rec);
}

#[cfg(test)]
mod tests {
    use super::*;
    use soroban_env_host::xdr::*;

    fn ev(tag: u32) -> ContractEvent {
        ContractEvent {
            ext: ExtensionPoint::V0,
            contract_id: None,
            type_: ContractEventType::Contract,
            body: ContractEventBody::V0(ContractEventV0 { topics: VecM::default(), data: ScVal::U32(tag) }),
        }
    }

    fn tev(stage: TransactionEventStage, tag: u32) -> TransactionEvent {
        TransactionEvent { stage, event: ev(tag) }
    }

    fn cx(order: u32, success: bool) -> TxContext {
        TxContext { ledger: 5, close_time: 0, tx_hash: [order as u8; 32], order, success }
    }

    #[test]
    fn ids_and_order_follow_stellar_rpc() {
        use TransactionEventStage::*;
        let mut log = VecDeque::new();
        // Tx 1: fee, two events in op 0, one in op 1, a refund. Tx 2 (failed): fee only.
        record(&mut log, &cx(1, true), &[tev(BeforeAllTxs, 10), tev(AfterAllTxs, 11)], &[vec![ev(12), ev(13)], vec![ev(14)]]);
        record(&mut log, &cx(2, false), &[tev(BeforeAllTxs, 20), tev(AfterTx, 21), tev(AfterAllTxs, 22)], &[]);
        let t = |tx: u32, op: u32, i: u32| format!("{:019}-{i:010}", toid(5, tx, op));
        let ids: Vec<String> = log.iter().map(|r| r.id.clone()).collect();
        assert_eq!(
            ids,
            vec![t(0, 0, 0), t(0, 0, 1), t(1, 0, 0), t(1, 0, 1), t(1, 1, 0), t(2, OP_MASK, 0), t(TX_MASK, 0, 0), t(TX_MASK, 0, 1)]
        );
        let tags: Vec<String> = log.iter().map(|r| r.value.clone()).collect();
        let want: Vec<String> = [10, 20, 12, 13, 14, 21, 11, 22].iter().map(|n| b64(&ScVal::U32(*n))).collect();
        assert_eq!(tags, want);
        let r = &log[1];
        assert_eq!((r.tx_index, r.op_index, r.in_successful_call), (0, 0, false));
        let r = &log[4];
        assert_eq!((r.tx_index, r.op_index, r.in_successful_call), (1, 1, true));
        assert_eq!((log[7].tx_index, log[7].op_index), (TX_MASK, 0));
    }

    #[test]
    fn a_later_ledger_goes_after() {
        let mut log = VecDeque::new();
        record(&mut log, &cx(1, true), &[tev(TransactionEventStage::AfterAllTxs, 1)], &[]);
        let next = TxContext { ledger: 6, ..cx(1, true) };
        record(&mut log, &next, &[tev(TransactionEventStage::BeforeAllTxs, 2)], &[]);
        assert_eq!(log.iter().map(|r| r.ledger).collect::<Vec<_>>(), vec![5, 6]);
    }
}
