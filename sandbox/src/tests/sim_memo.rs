//! The simulation memo through the RPC handler: an identical request against an unchanged state
//! is answered from the memo, byte for byte as a simulation answers; every change of state the
//! call can see (a close, a cheat, a settings write, time travel, a revert, a loaded state) makes
//! the node simulate again.

use crate::base::codec::{account_id, b64};
use crate::node::config::Config;
use crate::node::core::Node;
use crate::rpc::dispatch::Ctx;
use crate::tests::support::{ctx, envelope, invoke_op, key, native_sac, pay, sac_world, seq_of, submit_and_close};
use serde_json::{json, Value};
use soroban_env_host::xdr::*;

/// One JSON-RPC request's result (the error object when there is none).
fn call(c: &Ctx, method: &str, params: Value) -> Value {
    let v = crate::rpc::dispatch::handle(c, &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }));
    v.get("result").cloned().unwrap_or_else(|| v["error"].clone())
}

/// A read-only call as clients build one: all-zero source account, sequence number 0.
fn read_only(n: &Node, function: &str, args: Vec<ScVal>) -> String {
    let f = HostFunction::InvokeContract(InvokeContractArgs {
        contract_address: native_sac(n),
        function_name: ScSymbol(function.try_into().unwrap()),
        args: args.try_into().unwrap(),
    });
    envelope(n.network_id, &ed25519_dalek::SigningKey::from_bytes(&[0; 32]), 0, 100, vec![invoke_op(f)], TransactionExt::V0, &[])
}

/// SAC `balance` of key(2).
fn balance_tx(n: &Node) -> String {
    read_only(n, "balance", vec![ScVal::Address(ScAddress::Account(account_id(&key(2))))])
}

/// Simulates `tx` (base64) and returns the answer as the wire carries it.
fn sim(c: &Ctx, tx: &str) -> String {
    call(c, "simulateTransaction", json!({ "transaction": tx })).to_string()
}

fn hits(c: &Ctx) -> u64 {
    c.lock().sim_memo.hits
}

/// The return value of a simulation answer (base64 ScVal).
fn returned(answer: &str) -> ScVal {
    let v: Value = serde_json::from_str(answer).unwrap();
    ScVal::from_xdr_base64(v["results"][0]["xdr"].as_str().unwrap_or_else(|| panic!("{v}")), Limits::none()).unwrap()
}

fn i128_of(v: &ScVal) -> i128 {
    match v {
        ScVal::I128(p) => ((p.hi as i128) << 64) | p.lo as i128,
        v => panic!("not an i128: {v:?}"),
    }
}

/// Balances the tests set: above the account's minimum balance.
const XLM: i64 = 10_000_000;

/// key(2)'s account entry with `balance`, as `sandbox_setLedgerEntry` takes it.
fn account_with_balance(n: &Node, balance: i64) -> String {
    let k = crate::ledger::entry::account_key(&account_id(&key(2)));
    let mut e = n.chain.store.get(&k).unwrap().entry.clone();
    let LedgerEntryData::Account(a) = &mut e.data else { panic!("account") };
    a.balance = balance;
    b64(&e)
}

fn memo_off(seed: u64) -> Node {
    let mut n = sac_world(seed);
    n.cfg.simulation_memo = false;
    n
}

#[test]
fn an_identical_simulation_is_answered_from_the_memo_byte_for_byte() {
    let c = ctx(sac_world(7));
    let fresh = ctx(memo_off(7));
    let tx = balance_tx(&c.lock());
    let first = sim(&c, &tx);
    assert_eq!(hits(&c), 0);
    let second = sim(&c, &tx);
    assert_eq!(hits(&c), 1);
    assert_eq!(second, first);
    // What a node without the memo answers, on the same seeded chain.
    assert_eq!(sim(&fresh, &tx), first);
    assert_eq!(i128_of(&returned(&first)), crate::node::core::FRIENDBOT_AMOUNT as i128);

    // Other parameters are other requests.
    let json_fmt = call(&c, "simulateTransaction", json!({ "transaction": tx, "xdrFormat": "json" })).to_string();
    let leeway = call(&c, "simulateTransaction", json!({ "transaction": tx, "resourceConfig": { "instructionLeeway": 1000 } })).to_string();
    assert_eq!(hits(&c), 1);
    assert_ne!(json_fmt, first);
    assert_ne!(leeway, first);
    assert_eq!(call(&c, "simulateTransaction", json!({ "transaction": tx, "xdrFormat": "json" })).to_string(), json_fmt);
    assert_eq!(hits(&c), 2);

    // A trap is a function of the state as well: kept, and answered alike.
    let trap = read_only(&c.lock(), "no_such_function", vec![]);
    let err = sim(&c, &trap);
    assert!(err.contains("\"error\""), "{err}");
    assert_eq!(sim(&c, &trap), err);
    assert_eq!(hits(&c), 3);
    assert_eq!(sim(&fresh, &trap), err);
    // An envelope that does not decode is stellar-rpc's result error, kept like the others.
    let bad = sim(&c, "AAAA");
    assert!(bad.contains("Could not unmarshal transaction"), "{bad}");
    assert_eq!(sim(&c, "AAAA"), bad);
    assert_eq!(hits(&c), 4);
}

#[test]
fn a_ledger_close_makes_the_node_simulate_again() {
    let c = ctx(sac_world(8));
    let tx = balance_tx(&c.lock());
    let before = sim(&c, &tx);
    {
        let mut n = c.lock();
        let env = envelope(n.network_id, &key(1), seq_of(&n, &key(1)) + 1, 100, vec![pay(&key(2), 1_234)], TransactionExt::V0, &[&key(1)]);
        assert!(submit_and_close(&mut n, &env).success);
    }
    let after = sim(&c, &tx);
    assert_eq!(hits(&c), 0);
    assert_eq!(i128_of(&returned(&after)), i128_of(&returned(&before)) + 1_234);
    // An empty close moves the ledger the simulation runs in.
    call(&c, "sandbox_closeLedgers", json!({ "count": 1 }));
    let later = sim(&c, &tx);
    assert_eq!(hits(&c), 0);
    assert_ne!(later, after, "latestLedger moved");
}

#[test]
fn a_cheat_on_an_entry_the_call_reads_makes_the_node_simulate_again() {
    let c = ctx(sac_world(9));
    let tx = balance_tx(&c.lock());
    sim(&c, &tx);
    let entry = account_with_balance(&c.lock(), 777 * XLM);
    call(&c, "sandbox_setLedgerEntry", json!({ "entry": entry }));
    let after = sim(&c, &tx);
    assert_eq!((hits(&c), i128_of(&returned(&after))), (0, 777 * XLM as i128));
    assert_eq!(sim(&c, &tx), after);
    assert_eq!(hits(&c), 1);
    // Deleting it.
    let k = b64(&crate::ledger::entry::account_key(&account_id(&key(2))));
    call(&c, "sandbox_setLedgerEntry", json!({ "key": k, "delete": true }));
    let gone = sim(&c, &tx);
    assert_eq!(hits(&c), 1);
    assert_ne!(gone, after);
}

#[test]
fn a_settings_write_makes_the_node_simulate_again() {
    let c = ctx(sac_world(10));
    let tx = balance_tx(&c.lock());
    let fee = |answer: &str| serde_json::from_str::<Value>(answer).unwrap()["minResourceFee"].as_str().unwrap().parse::<i64>().unwrap();
    let before = fee(&sim(&c, &tx));
    let cost_key = LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: ConfigSettingId::ContractComputeV0 });
    let mut setting = c.lock().chain.store.get(&cost_key).unwrap().entry.clone();
    if let LedgerEntryData::ConfigSetting(ConfigSettingEntry::ContractComputeV0(s)) = &mut setting.data {
        s.fee_rate_per_instructions_increment *= 10;
    }
    call(&c, "sandbox_setLedgerEntry", json!({ "entry": b64(&setting) }));
    let after = fee(&sim(&c, &tx));
    assert_eq!(hits(&c), 0);
    assert!(after > before, "{after} > {before}");
}

#[test]
fn time_travel_makes_the_node_simulate_again() {
    let c = ctx(sac_world(11));
    let tx = balance_tx(&c.lock());
    let a = sim(&c, &tx);
    call(&c, "sandbox_advanceTime", json!({ "seconds": 60 }));
    // The SAC's balance does not read the time, so the answer is the same; it is simulated anew.
    assert_eq!(sim(&c, &tx), a);
    assert_eq!(hits(&c), 0);
    let t = c.lock().next_ledger_info().timestamp;
    call(&c, "sandbox_setTime", json!({ "time": t + 5 }));
    sim(&c, &tx);
    assert_eq!(hits(&c), 0);
    sim(&c, &tx);
    assert_eq!(hits(&c), 1);
}

/// A revert brings back an older store, a loaded state a new one: a write after either must
/// not meet answers kept before it (store generations are never reused).
#[test]
fn revert_and_loaded_state_make_the_node_simulate_again() {
    let c = ctx(sac_world(12));
    let tx = balance_tx(&c.lock());
    let original = sim(&c, &tx);
    let dump = call(&c, "sandbox_dumpState", json!({}));
    let set = |b: i64| {
        let entry = account_with_balance(&c.lock(), b * XLM);
        call(&c, "sandbox_setLedgerEntry", json!({ "entry": entry }));
    };
    let id = call(&c, "sandbox_snapshot", json!({}))["id"].clone();
    set(111);
    assert_eq!(i128_of(&returned(&sim(&c, &tx))), 111 * XLM as i128);
    call(&c, "sandbox_revert", json!({ "id": id }));
    set(222);
    assert_eq!(i128_of(&returned(&sim(&c, &tx))), 222 * XLM as i128);
    // The dump was taken at the same ledger and clock: only the entries tell the states apart.
    call(&c, "sandbox_loadState", json!({ "state": dump }));
    assert_eq!(sim(&c, &tx), original);
    let id = call(&c, "sandbox_snapshot", json!({}))["id"].clone();
    set(333);
    assert_eq!(i128_of(&returned(&sim(&c, &tx))), 333 * XLM as i128);
    call(&c, "sandbox_revert", json!({ "id": id }));
    assert_eq!(sim(&c, &tx), original);
    assert_eq!(hits(&c), 0);
}

#[test]
fn with_the_memo_off_nothing_is_a_hit() {
    let c = ctx(memo_off(13));
    let tx = balance_tx(&c.lock());
    let a = sim(&c, &tx);
    assert_eq!(sim(&c, &tx), a);
    assert_eq!(hits(&c), 0);
    assert_eq!(c.lock().sim_memo.len(), 0);
}

#[test]
fn the_memo_keeps_at_most_its_cap_of_answers() {
    let c = ctx(crate::tests::support::node());
    // An unknown xdrFormat answers an error at once: a cheap distinct request.
    for i in 0..crate::apply::sim_memo::MAX_ENTRIES + 10 {
        call(&c, "simulateTransaction", json!({ "transaction": "AAAA", "xdrFormat": format!("f{i}") }));
    }
    assert_eq!(c.lock().sim_memo.len(), crate::apply::sim_memo::MAX_ENTRIES);
    call(&c, "simulateTransaction", json!({ "transaction": "AAAA", "xdrFormat": "f0" }));
    call(&c, "simulateTransaction", json!({ "transaction": "AAAA", "xdrFormat": format!("f{}", crate::apply::sim_memo::MAX_ENTRIES) }));
    assert_eq!(hits(&c), 1);
}

#[test]
fn a_fork_does_not_memoize() {
    let up = crate::tests::support::serve(sac_world(14));
    let c = ctx(crate::tests::support::fork_of(up));
    let tx = balance_tx(&c.lock());
    let a = sim(&c, &tx);
    assert!(!a.contains("\"error\""), "{a}");
    assert_eq!(sim(&c, &tx), a);
    assert_eq!(hits(&c), 0);
}

/// `cargo test --profile sandbox -p sandbox -- --ignored --nocapture simulation_memo_speed`:
/// 1,000 identical simulations through the RPC handler, memo on and off: the native asset
/// contract's `balance` (no Wasm), and Blend v1's pool `get_positions` in its own Wasm (the
/// mainnet fixture).
#[test]
#[ignore]
fn simulation_memo_speed() {
    const N: usize = 1_000;
    let time = |label: &str, c: &Ctx, tx: &str| {
        let first = sim(c, tx);
        assert!(!first.contains("\"error\""), "{first}");
        let t0 = std::time::Instant::now();
        for _ in 0..N {
            assert_eq!(sim(c, tx), first);
        }
        let dt = t0.elapsed().as_secs_f64();
        let memo = if c.lock().cfg.simulation_memo { "on " } else { "off" };
        println!("{label}, memo {memo}: {N} simulations in {:.0} ms, {:.1} µs each ({} hits)", dt * 1e3, dt * 1e6 / N as f64, hits(c));
    };
    for memo in [false, true] {
        let mut n = sac_world(1);
        n.cfg.simulation_memo = memo;
        let tx = balance_tx(&n);
        time("SAC balance", &ctx(n), &tx);
    }
    for memo in [false, true] {
        let passphrase = "Public Global Stellar Network ; September 2015".to_string();
        let mut n = Node::new(Config { seed: Some(1), passphrase, simulation_memo: memo, ..Config::test() }).unwrap();
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/blend-mainnet-55261759/snapshot.json");
        crate::node::snapshot::load_file(&mut n, &fixture).unwrap();
        let pool: ScAddress = "CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP".parse().unwrap();
        let backstop: ScAddress = "CAO3AGAMZVRMHITL36EJ2VZQWKYRPWMQAPDQD5YEOF3GIF7T44U4JAL3".parse().unwrap();
        let f = HostFunction::InvokeContract(InvokeContractArgs {
            contract_address: pool,
            function_name: ScSymbol("get_positions".try_into().unwrap()),
            args: vec![ScVal::Address(backstop)].try_into().unwrap(),
        });
        let tx = envelope(n.network_id, &ed25519_dalek::SigningKey::from_bytes(&[0; 32]), 0, 100, vec![invoke_op(f)], TransactionExt::V0, &[]);
        time("Blend pool get_positions (Wasm)", &ctx(n), &tx);
    }
}
