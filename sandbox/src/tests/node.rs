//! Apply-path tests on an in-process node: classic operations, validity codes, fees, and a
//! Soroban call simulated then applied.

use crate::apply::simulate::SimulateParams;
use crate::apply::tx;
use crate::base::codec::{account_id, b64};
use crate::node::config::Config;
use crate::node::core::Node;
use crate::node::simulate::simulate;
use crate::tests::support::{balance, envelope, invoke_op, key, muxed, native_sac, node, pay, seq_of, sim_apply, submit_and_close};
use ed25519_dalek::SigningKey;
use soroban_env_host::xdr::*;

fn result_of(r: &crate::base::records::TxRecord) -> TransactionResult {
    TransactionResult::from_xdr_base64(&r.result, Limits::none()).unwrap()
}

#[test]
fn friendbot_then_payment_moves_balance_and_charges_fee() {
    let mut n = node();
    let nid = n.network_id;
    let (a, b) = (key(1), key(2));
    n.friendbot(account_id(&a)).unwrap();
    n.friendbot(account_id(&b)).unwrap();
    assert_eq!(n.friendbot(account_id(&a)).unwrap_err(), crate::base::errors::FriendbotError::AlreadyFunded);
    let seq = seq_of(&n, &a) + 1;
    let r = submit_and_close(&mut n, &envelope(nid, &a, seq, 100, vec![pay(&b, 12_345)], TransactionExt::V0, &[&a]));
    assert!(r.success);
    assert_eq!(balance(&n, &a), crate::node::core::FRIENDBOT_AMOUNT - 12_345 - 100);
    assert_eq!(balance(&n, &b), crate::node::core::FRIENDBOT_AMOUNT + 12_345);
    assert_eq!(seq_of(&n, &a), seq);
    let meta = TransactionMeta::from_xdr_base64(&r.meta, Limits::none()).unwrap();
    let TransactionMeta::V4(m) = meta else { panic!("meta v4 expected") };
    assert_eq!(m.operations.len(), 1);
    assert_eq!(m.operations[0].changes.len(), 4, "state + updated for both accounts");
}

#[test]
fn validity_codes_at_submit() {
    let mut n = node();
    let nid = n.network_id;
    let (a, b) = (key(3), key(4));
    n.friendbot(account_id(&a)).unwrap();
    n.friendbot(account_id(&b)).unwrap();
    let seq = seq_of(&n, &a);
    let code = |n: &mut Node, env: String| n.submit(crate::apply::parse::parse(&env, &n.network_id).unwrap()).err().map(|r| r.name());
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 2, 100, vec![pay(&b, 1)], TransactionExt::V0, &[&a])), Some("txBAD_SEQ"));
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 1, 100, vec![pay(&b, 1)], TransactionExt::V0, &[])), Some("txBAD_AUTH"));
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 1, 100, vec![pay(&b, 1)], TransactionExt::V0, &[&b])), Some("txBAD_AUTH"));
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 1, 99, vec![pay(&b, 1)], TransactionExt::V0, &[&a])), Some("txINSUFFICIENT_FEE"));
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 1, 100, vec![], TransactionExt::V0, &[&a])), Some("txMISSING_OPERATION"));
    assert_eq!(code(&mut n, envelope(nid, &key(9), 1, 100, vec![pay(&b, 1)], TransactionExt::V0, &[&key(9)])), Some("txNO_ACCOUNT"));
    // One pending transaction per source account (strict queue rules): the next waits for
    // the ledger.
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 1, 100, vec![pay(&b, 1)], TransactionExt::V0, &[&a])), None);
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 2, 100, vec![pay(&b, 1)], TransactionExt::V0, &[&a])), Some("TRY_AGAIN_LATER"));
    n.close_ledger();
    assert_eq!(seq_of(&n, &a), seq + 1);
    assert_eq!(code(&mut n, envelope(nid, &a, seq + 2, 100, vec![pay(&b, 1)], TransactionExt::V0, &[&a])), None);
    n.close_ledger();
    assert_eq!(seq_of(&n, &a), seq + 2);
}

#[test]
fn failed_operation_rolls_back_but_keeps_fee_and_sequence() {
    let mut n = node();
    let nid = n.network_id;
    let (a, b) = (key(5), key(6));
    n.friendbot(account_id(&a)).unwrap();
    n.friendbot(account_id(&b)).unwrap();
    let seq = seq_of(&n, &a) + 1;
    // First op succeeds, second overdraws: the whole transaction fails.
    let env = envelope(nid, &a, seq, 200, vec![pay(&b, 1_000), pay(&b, crate::node::core::FRIENDBOT_AMOUNT)], TransactionExt::V0, &[&a]);
    let r = submit_and_close(&mut n, &env);
    assert!(!r.success);
    let res = result_of(&r);
    assert_eq!(tx::result_code_name(&res.result), "txFAILED");
    assert_eq!(res.fee_charged, 200);
    assert_eq!(balance(&n, &a), crate::node::core::FRIENDBOT_AMOUNT - 200);
    assert_eq!(balance(&n, &b), crate::node::core::FRIENDBOT_AMOUNT);
    assert_eq!(seq_of(&n, &a), seq);
}

#[test]
fn unsupported_operation_is_a_clear_failure() {
    let mut n = node();
    let nid = n.network_id;
    let a = key(7);
    n.friendbot(account_id(&a)).unwrap();
    let seq = seq_of(&n, &a) + 1;
    let op = OperationBody::ManageData(ManageDataOp { data_name: String64(b"k".to_vec().try_into().unwrap()), data_value: None });
    let r = submit_and_close(&mut n, &envelope(nid, &a, seq, 100, vec![op], TransactionExt::V0, &[&a]));
    let res = result_of(&r);
    let TransactionResultResult::TxFailed(ops) = res.result else { panic!("txFAILED expected") };
    assert_eq!(ops[0], OperationResult::OpNotSupported);
}

#[test]
fn native_asset_contract_deploys_through_simulate_and_apply_with_refund() {
    let mut n = node();
    let nid = n.network_id;
    let a = key(8);
    n.friendbot(account_id(&a)).unwrap();
    let seq = seq_of(&n, &a) + 1;
    let host_fn = HostFunction::CreateContract(CreateContractArgs {
        contract_id_preimage: ContractIdPreimage::Asset(Asset::Native),
        executable: ContractExecutable::StellarAsset,
    });
    let op = OperationBody::InvokeHostFunction(InvokeHostFunctionOp { host_function: host_fn, auth: VecM::default() });
    let draft = envelope(nid, &a, seq, 100, vec![op.clone()], TransactionExt::V0, &[]);
    let sim = simulate(&n, SimulateParams { transaction: draft, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
    assert!(sim.get("error").is_none(), "{sim}");
    let data = SorobanTransactionData::from_xdr_base64(sim["transactionData"].as_str().unwrap(), Limits::none()).unwrap();
    let min_fee: i64 = sim["minResourceFee"].as_str().unwrap().parse().unwrap();
    assert_eq!(data.resource_fee, min_fee);
    let env = envelope(nid, &a, seq, 100 + min_fee as u32, vec![op], TransactionExt::V1(data), &[&a]);
    let before = balance(&n, &a);
    let r = submit_and_close(&mut n, &env);
    assert!(r.success, "{}", r.result);
    let res = result_of(&r);
    assert!(res.fee_charged > 100 && res.fee_charged <= 100 + min_fee);
    assert_eq!(balance(&n, &a), before - res.fee_charged);
    // The meta's fee breakdown adds up to what was charged beyond the inclusion fee.
    let TransactionMeta::V4(m) = TransactionMeta::from_xdr_base64(&r.meta, Limits::none()).unwrap() else { panic!("v4") };
    let Some(SorobanTransactionMetaExt::V1(f)) = m.soroban_meta.map(|s| s.ext) else { panic!("fee breakdown") };
    assert_eq!(f.total_non_refundable_resource_fee_charged + f.total_refundable_resource_fee_charged, res.fee_charged - 100);
    assert!(f.rent_fee_charged > 0 && f.rent_fee_charged <= f.total_refundable_resource_fee_charged);
    assert_eq!(m.events.len(), 2, "fee charged, then refunded");
    // The instance is created together with its TTL entry.
    let created: Vec<_> = m.operations[0].changes.iter().filter_map(|c| match c { LedgerEntryChange::Created(e) => Some(&e.data), _ => None }).collect();
    assert!(created.iter().any(|d| matches!(d, LedgerEntryData::ContractData(_))));
    assert!(created.iter().any(|d| matches!(d, LedgerEntryData::Ttl(t) if t.live_until_ledger_seq > n.latest().seq)));
    // Deploying again fails on chain (the instance exists) and still charges the fee.
    let seq2 = seq_of(&n, &a) + 1;
    let op2 = OperationBody::InvokeHostFunction(InvokeHostFunctionOp {
        host_function: HostFunction::CreateContract(CreateContractArgs {
            contract_id_preimage: ContractIdPreimage::Asset(Asset::Native),
            executable: ContractExecutable::StellarAsset,
        }),
        auth: VecM::default(),
    });
    let data2 = SorobanTransactionData::from_xdr_base64(sim["transactionData"].as_str().unwrap(), Limits::none()).unwrap();
    let r2 = submit_and_close(&mut n, &envelope(nid, &a, seq2, 100 + min_fee as u32, vec![op2], TransactionExt::V1(data2), &[&a]));
    assert!(!r2.success);
    assert!(!r2.diagnostics.is_empty());
}

#[test]
fn seeded_nodes_close_identical_ledgers() {
    let run = || {
        let mut c = Config::test();
        c.seed = Some(9);
        let mut n = Node::new(c).unwrap();
        n.friendbot(account_id(&key(1))).unwrap();
        n.close_ledger();
        (n.latest().hash, n.latest().meta_b64.clone())
    };
    assert_eq!(run(), run());
}

fn instance_live_until(n: &Node) -> u32 {
    let key = LedgerKey::ContractData(LedgerKeyContractData {
        contract: native_sac(n),
        key: ScVal::LedgerKeyContractInstance,
        durability: ContractDataDurability::Persistent,
    });
    n.chain.store.get(&key).unwrap().live_until.unwrap()
}

#[test]
fn archived_entries_are_restored_by_the_invocation_or_through_a_restore_preamble() {
    let mut c = Config::test();
    c.min_persistent_ttl = 10;
    let mut n = Node::new(c).unwrap();
    let a = key(11);
    n.friendbot(account_id(&a)).unwrap();
    let deploy = HostFunction::CreateContract(CreateContractArgs {
        contract_id_preimage: ContractIdPreimage::Asset(Asset::Native),
        executable: ContractExecutable::StellarAsset,
    });
    assert!(sim_apply(&mut n, &a, deploy).1.success);
    let decimals = HostFunction::InvokeContract(InvokeContractArgs {
        contract_address: native_sac(&n),
        function_name: ScSymbol("decimals".try_into().unwrap()),
        args: VecM::default(),
    });

    // Archived: the simulation marks the instance for restoration and apply restores it.
    for _ in 0..20 {
        n.close_ledger();
    }
    assert!(instance_live_until(&n) < n.latest().seq);
    let (sim, r) = sim_apply(&mut n, &a, decimals.clone());
    assert!(sim.get("restorePreamble").is_none());
    let data = SorobanTransactionData::from_xdr_base64(sim["transactionData"].as_str().unwrap(), Limits::none()).unwrap();
    assert!(matches!(data.ext, SorobanTransactionDataExt::V1(ref e) if e.archived_soroban_entries.len() == 1));
    assert!(r.success, "{}", r.result);
    assert!(instance_live_until(&n) >= n.latest().seq);

    // Archived again, with a read limit restoration would break: a restore preamble.
    for _ in 0..20 {
        n.close_ledger();
    }
    let cost_key = LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: ConfigSettingId::ContractLedgerCostV0 });
    let original = n.chain.store.get(&cost_key).unwrap().entry.clone();
    let mut setting = original.clone();
    if let LedgerEntryData::ConfigSetting(ConfigSettingEntry::ContractLedgerCostV0(c)) = &mut setting.data {
        c.tx_max_disk_read_bytes = 10;
    }
    crate::rpc::cheats::dispatch(&mut n, "sandbox_setLedgerEntry", &serde_json::json!({ "entry": b64(&setting) })).unwrap();
    let seq = seq_of(&n, &a) + 1;
    let draft = envelope(n.network_id, &a, seq, 100, vec![invoke_op(decimals)], TransactionExt::V0, &[]);
    let sim = simulate(&n, SimulateParams { transaction: draft, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
    let preamble = &sim["restorePreamble"];
    assert!(preamble.is_object(), "{sim}");
    let rdata = SorobanTransactionData::from_xdr_base64(preamble["transactionData"].as_str().unwrap(), Limits::none()).unwrap();
    assert_eq!(rdata.resources.footprint.read_write.len(), 1);
    // The limit back to testnet's before restoring (the preamble's own reads need it).
    crate::rpc::cheats::dispatch(&mut n, "sandbox_setLedgerEntry", &serde_json::json!({ "entry": b64(&original) })).unwrap();
    let restore = OperationBody::RestoreFootprint(RestoreFootprintOp { ext: ExtensionPoint::V0 });
    let fee = 100 + rdata.resource_fee as u32;
    let env = envelope(n.network_id, &a, seq, fee, vec![restore], TransactionExt::V1(rdata), &[&a]);
    let r = submit_and_close(&mut n, &env);
    assert!(r.success, "{}", r.result);
    assert!(instance_live_until(&n) >= n.latest().seq);
}

#[test]
fn auth_required_asset_needs_the_issuer_to_authorize_the_trustline() {
    let mut n = node();
    let nid = n.network_id;
    let (issuer, holder) = (key(31), key(32));
    n.friendbot(account_id(&issuer)).unwrap();
    n.friendbot(account_id(&holder)).unwrap();
    let usdc = Asset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"USDC"), issuer: account_id(&issuer) });
    let line = ChangeTrustAsset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"USDC"), issuer: account_id(&issuer) });
    let set_flags = OperationBody::SetOptions(SetOptionsOp {
        inflation_dest: None,
        clear_flags: None,
        set_flags: Some(crate::apply::classic::AUTH_REQUIRED | crate::apply::classic::AUTH_REVOCABLE),
        master_weight: None,
        low_threshold: None,
        med_threshold: None,
        high_threshold: None,
        home_domain: None,
        signer: None,
    });
    let run = |n: &mut Node, k: &SigningKey, op: OperationBody| {
        let env = envelope(nid, k, seq_of(n, k) + 1, 100, vec![op], TransactionExt::V0, &[k]);
        submit_and_close(n, &env)
    };
    assert!(run(&mut n, &issuer, set_flags).success);
    let trust = OperationBody::ChangeTrust(ChangeTrustOp { line, limit: i64::MAX });
    assert!(run(&mut n, &holder, trust).success);
    let mint = || OperationBody::Payment(PaymentOp { destination: muxed(&key(32)), asset: usdc.clone(), amount: 50 });
    let r = run(&mut n, &issuer, mint());
    let TransactionResultResult::TxFailed(ops) = result_of(&r).result else { panic!("payment to an unauthorized trustline must fail") };
    assert_eq!(ops[0], OperationResult::OpInner(OperationResultTr::Payment(PaymentResult::NotAuthorized)));
    let authorize = OperationBody::SetTrustLineFlags(SetTrustLineFlagsOp {
        trustor: account_id(&holder),
        asset: usdc.clone(),
        clear_flags: 0,
        set_flags: crate::apply::classic::TL_AUTHORIZED,
    });
    assert!(run(&mut n, &issuer, authorize).success);
    assert!(run(&mut n, &issuer, mint()).success);
    let tl = n.chain.store.get(&LedgerKey::Trustline(LedgerKeyTrustLine {
        account_id: account_id(&holder),
        asset: TrustLineAsset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"USDC"), issuer: account_id(&issuer) }),
    }));
    let Some(LedgerEntryData::Trustline(t)) = tl.map(|s| s.entry.data.clone()) else { panic!("trustline") };
    assert_eq!(t.balance, 50);
    // Holder's reserve grew by one subentry.
    let ov = crate::ledger::overlay::Overlay::new(&n.chain.store, 0);
    assert_eq!(tx::load_account(&ov, &account_id(&holder)).unwrap().num_sub_entries, 1);
}

#[test]
fn simulating_a_classic_transaction_answers_an_error_field() {
    let n = node();
    let a = key(41);
    let env = envelope(n.network_id, &a, 1, 100, vec![pay(&key(42), 1)], TransactionExt::V0, &[]);
    let v = simulate(&n, SimulateParams { transaction: env, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
    assert_eq!(v["error"], "Transaction contains unsupported operation type: OperationTypePayment");
    assert_eq!(v["latestLedger"], 1);
    let v = simulate(&n, SimulateParams { transaction: "AAAA".into(), auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
    assert_eq!(v, serde_json::json!({ "error": "Could not unmarshal transaction", "latestLedger": 1 }));
}

#[test]
fn auth_recording_uses_address_v2_credentials_only_when_asked() {
    let mut n = node();
    let (a, b) = (key(51), key(52));
    n.friendbot(account_id(&a)).unwrap();
    n.friendbot(account_id(&b)).unwrap();
    let deploy = HostFunction::CreateContract(CreateContractArgs {
        contract_id_preimage: ContractIdPreimage::Asset(Asset::Native),
        executable: ContractExecutable::StellarAsset,
    });
    assert!(sim_apply(&mut n, &a, deploy).1.success);
    // b submits a transfer out of a's balance: a's authorization is recorded.
    let transfer = HostFunction::InvokeContract(InvokeContractArgs {
        contract_address: native_sac(&n),
        function_name: ScSymbol("transfer".try_into().unwrap()),
        args: vec![
            ScVal::Address(ScAddress::Account(account_id(&a))),
            ScVal::Address(ScAddress::Account(account_id(&b))),
            ScVal::I128(Int128Parts { hi: 0, lo: 5 }),
        ]
        .try_into()
        .unwrap(),
    });
    let credentials = |upgraded: bool| {
        let env = envelope(n.network_id, &b, seq_of(&n, &b) + 1, 100, vec![invoke_op(transfer.clone())], TransactionExt::V0, &[]);
        let v = simulate(&n, SimulateParams { transaction: env, auth_mode: None, instruction_leeway: None, use_upgraded_auth: upgraded }).unwrap();
        let auth = v["results"][0]["auth"][0].as_str().expect("one auth entry").to_string();
        SorobanAuthorizationEntry::from_xdr_base64(auth, Limits::none()).unwrap().credentials
    };
    assert!(matches!(credentials(false), SorobanCredentials::Address(_)));
    assert!(matches!(credentials(true), SorobanCredentials::AddressV2(_)));
}

/// Two different transactions simulated in the same ledger that need the same signer's
/// authorization get different nonces (stellar-rpc seeds each simulation at random), so both can
/// land in one ledger; the same transaction simulated again gets the same nonce (a seeded node
/// stays deterministic).
#[test]
fn recorded_auth_nonces_differ_between_transactions_in_one_ledger() {
    let mut n = node();
    let (a, b, c) = (key(61), key(62), key(63));
    for k in [&a, &b, &c] {
        n.friendbot(account_id(k)).unwrap();
    }
    let deploy = HostFunction::CreateContract(CreateContractArgs {
        contract_id_preimage: ContractIdPreimage::Asset(Asset::Native),
        executable: ContractExecutable::StellarAsset,
    });
    assert!(sim_apply(&mut n, &a, deploy).1.success);
    let transfer = |amount: u64| {
        HostFunction::InvokeContract(InvokeContractArgs {
            contract_address: native_sac(&n),
            function_name: ScSymbol("transfer".try_into().unwrap()),
            args: vec![
                ScVal::Address(ScAddress::Account(account_id(&a))),
                ScVal::Address(ScAddress::Account(account_id(&b))),
                ScVal::I128(Int128Parts { hi: 0, lo: amount }),
            ]
            .try_into()
            .unwrap(),
        })
    };
    // b and c each send a transfer out of a's balance: a authorizes both.
    let nonce = |sender: &SigningKey, amount: u64| {
        let env = envelope(n.network_id, sender, seq_of(&n, sender) + 1, 100, vec![invoke_op(transfer(amount))], TransactionExt::V0, &[]);
        let v = simulate(&n, SimulateParams { transaction: env, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
        let auth = v["results"][0]["auth"][0].as_str().expect("one auth entry").to_string();
        match SorobanAuthorizationEntry::from_xdr_base64(auth, Limits::none()).unwrap().credentials {
            SorobanCredentials::Address(c) => c.nonce,
            other => panic!("address credentials expected, got {other:?}"),
        }
    };
    assert_ne!(nonce(&b, 5), nonce(&c, 5));
    assert_ne!(nonce(&b, 5), nonce(&b, 6));
    assert_eq!(nonce(&b, 5), nonce(&b, 5));
}

/// simulateTransaction records address-v2 credentials unless the request sets
/// `useUpgradedAuth: false`.
#[test]
fn simulate_request_defaults_to_upgraded_auth() {
    let parse = |v: serde_json::Value| serde_json::from_value::<crate::rpc::dispatch::SimulateReq>(v).unwrap().use_upgraded_auth;
    assert!(parse(serde_json::json!({ "transaction": "AAAA" })));
    assert!(parse(serde_json::json!({ "transaction": "AAAA", "useUpgradedAuth": true })));
    assert!(!parse(serde_json::json!({ "transaction": "AAAA", "useUpgradedAuth": false })));
}
