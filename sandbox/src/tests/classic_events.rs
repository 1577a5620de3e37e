//! Classic operations' unified events through the apply path: operation meta, getTransaction's
//! event lists and the getEvents log.

use crate::apply::classic_events::{asset_contract_id, i128_val, sep0011};
use crate::base::codec::{account_id, b64};
use crate::base::records::TxRecord;
use crate::history::toid::toid;
use crate::node::config::Config;
use crate::node::core::Node;
use crate::tests::support::{key, muxed, seq_of, signed, submit_and_close, transaction};
use ed25519_dalek::SigningKey;
use soroban_env_host::xdr::*;

fn send(n: &mut Node, src: &SigningKey, memo: Memo, ops: Vec<OperationBody>) -> TxRecord {
    let fee = 100 * ops.len() as u32;
    let t = Transaction { memo, ..transaction(src, seq_of(n, src) + 1, fee, ops, TransactionExt::V0) };
    let env = b64(&signed(n.network_id, t, &[src]));
    submit_and_close(n, &env)
}

fn op_events(r: &TxRecord) -> Vec<Vec<ContractEvent>> {
    let TransactionMeta::V4(m) = TransactionMeta::from_xdr_base64(&r.meta, Limits::none()).unwrap() else { panic!("v4") };
    let from_meta: Vec<Vec<ContractEvent>> = m.operations.iter().map(|o| o.events.to_vec()).collect();
    let from_record: Vec<Vec<String>> = from_meta.iter().map(|v| v.iter().map(b64).collect()).collect();
    assert_eq!(from_record, r.contract_events, "getTransaction's contractEventsXdr is the meta's");
    from_meta
}

fn topics_data(e: &ContractEvent) -> (Vec<ScVal>, ScVal) {
    let ContractEventBody::V0(b) = &e.body;
    (b.topics.to_vec(), b.data.clone())
}

fn sym(s: &str) -> ScVal {
    ScVal::Symbol(ScSymbol(s.try_into().unwrap()))
}

fn addr(k: &SigningKey) -> ScVal {
    ScVal::Address(ScAddress::Account(account_id(k)))
}

fn str_val(s: &str) -> ScVal {
    ScVal::String(ScString(s.as_bytes().to_vec().try_into().unwrap()))
}

#[test]
fn payment_and_create_account_emit_transfers_logged_with_rpc_ids() {
    let mut n = Node::new(Config::test()).unwrap();
    let (a, b, c) = (key(11), key(12), key(13));
    let fb = n.friendbot(account_id(&a)).unwrap();
    // Friendbot's CreateAccount: a transfer from the root account.
    let fb_rec = n.chain.txs.get(&fb).cloned().unwrap();
    let (t, d) = topics_data(&op_events(&fb_rec)[0][0]);
    assert_eq!(t, vec![sym("transfer"), addr(&n.root), addr(&a), str_val("native")]);
    assert_eq!(d, i128_val(crate::node::core::FRIENDBOT_AMOUNT));

    n.friendbot(account_id(&b)).unwrap();
    let create = OperationBody::CreateAccount(CreateAccountOp { destination: account_id(&c), starting_balance: 50_000_000 });
    let pay = OperationBody::Payment(PaymentOp { destination: muxed(&b), asset: Asset::Native, amount: 7 });
    let r = send(&mut n, &a, Memo::None, vec![create, pay]);
    assert!(r.success);
    let evs = op_events(&r);
    assert_eq!(topics_data(&evs[0][0]), (vec![sym("transfer"), addr(&a), addr(&c), str_val("native")], i128_val(50_000_000)));
    assert_eq!(topics_data(&evs[1][0]), (vec![sym("transfer"), addr(&a), addr(&b), str_val("native")], i128_val(7)));
    let native = asset_contract_id(&n.network_id, &Asset::Native);
    assert!(evs.iter().flatten().all(|e| e.contract_id == Some(ContractId(Hash(native)))));

    // getEvents log: the fee event first (transaction 0), then one event per operation.
    let logged: Vec<(String, u32, u32)> = n.chain.events.iter().filter(|e| e.ledger == r.ledger).map(|e| (e.id.clone(), e.tx_index, e.op_index)).collect();
    let id = |tx: u32, op: u32| format!("{:019}-{:010}", toid(r.ledger, tx, op), 0);
    assert_eq!(logged, vec![(id(0, 0), 0, 0), (id(1, 0), 1, 0), (id(1, 1), 1, 1)]);
}

#[test]
fn failed_transaction_logs_only_its_fee_event() {
    let mut n = Node::new(Config::test()).unwrap();
    let (a, b) = (key(21), key(22));
    n.friendbot(account_id(&a)).unwrap();
    n.friendbot(account_id(&b)).unwrap();
    let ok = OperationBody::Payment(PaymentOp { destination: muxed(&b), asset: Asset::Native, amount: 1 });
    let too_much = OperationBody::Payment(PaymentOp { destination: muxed(&b), asset: Asset::Native, amount: crate::node::core::FRIENDBOT_AMOUNT });
    let r = send(&mut n, &a, Memo::None, vec![ok, too_much]);
    assert!(!r.success);
    assert!(r.contract_events.is_empty());
    assert_eq!(r.tx_events.len(), 1);
    let logged: Vec<_> = n.chain.events.iter().filter(|e| e.ledger == r.ledger).collect();
    assert_eq!(logged.len(), 1);
    assert!(!logged[0].in_successful_call);
    assert_eq!(logged[0].topics[0], b64(&sym("fee")));
}

#[test]
fn credit_payments_mint_burn_and_trustline_authorization() {
    let mut n = Node::new(Config::test()).unwrap();
    let (iss, h1, h2) = (key(31), key(32), key(33));
    for k in [&iss, &h1, &h2] {
        n.friendbot(account_id(k)).unwrap();
    }
    let asset = Asset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"USDC"), issuer: account_id(&iss) });
    let asset_str = str_val(&sep0011(&asset));
    let flags = OperationBody::SetOptions(SetOptionsOp { set_flags: Some(crate::apply::classic::AUTH_REQUIRED | crate::apply::classic::AUTH_REVOCABLE), ..Default::default() });
    assert!(op_events(&send(&mut n, &iss, Memo::None, vec![flags]))[0].is_empty(), "SetOptions emits nothing");
    for h in [&h1, &h2] {
        let line = ChangeTrustAsset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"USDC"), issuer: account_id(&iss) });
        let r = send(&mut n, h, Memo::None, vec![OperationBody::ChangeTrust(ChangeTrustOp { line, limit: i64::MAX })]);
        assert!(op_events(&r)[0].is_empty(), "ChangeTrust emits nothing");
        let set = OperationBody::SetTrustLineFlags(SetTrustLineFlagsOp { trustor: account_id(h), asset: asset.clone(), clear_flags: 0, set_flags: crate::apply::classic::TL_AUTHORIZED });
        let r = send(&mut n, &iss, Memo::None, vec![set]);
        assert_eq!(topics_data(&op_events(&r)[0][0]), (vec![sym("set_authorized"), addr(h), asset_str.clone()], ScVal::Bool(true)));
    }
    let pay = |to: &SigningKey, amount| OperationBody::Payment(PaymentOp { destination: muxed(to), asset: asset.clone(), amount });
    let mint = op_events(&send(&mut n, &iss, Memo::Id(77), vec![pay(&h1, 1_000)]));
    let map = ScVal::Map(Some(ScMap(
        vec![ScMapEntry { key: sym("amount"), val: i128_val(1_000) }, ScMapEntry { key: sym("to_muxed_id"), val: ScVal::U64(77) }].try_into().unwrap(),
    )));
    assert_eq!(topics_data(&mint[0][0]), (vec![sym("mint"), addr(&h1), asset_str.clone()], map));
    let transfer = op_events(&send(&mut n, &h1, Memo::None, vec![pay(&h2, 400)]));
    assert_eq!(topics_data(&transfer[0][0]), (vec![sym("transfer"), addr(&h1), addr(&h2), asset_str.clone()], i128_val(400)));
    let burn = op_events(&send(&mut n, &h2, Memo::Id(5), vec![pay(&iss, 100)]));
    assert_eq!(topics_data(&burn[0][0]), (vec![sym("burn"), addr(&h2), asset_str.clone()], i128_val(100)));
    let sac = ContractId(Hash(asset_contract_id(&n.network_id, &asset)));
    assert!([&mint, &transfer, &burn].iter().all(|e| e[0][0].contract_id.as_ref() == Some(&sac)));

    // AllowTrust down to maintain-liabilities: set_authorized false.
    let allow = OperationBody::AllowTrust(AllowTrustOp { trustor: account_id(&h2), asset: AssetCode::CreditAlphanum4(AssetCode4(*b"USDC")), authorize: crate::apply::classic::TL_MAINTAIN });
    let r = send(&mut n, &iss, Memo::None, vec![allow]);
    assert_eq!(topics_data(&op_events(&r)[0][0]), (vec![sym("set_authorized"), addr(&h2), asset_str], ScVal::Bool(false)));
}
