//! Slots and pages: get_keepers / keeper_count, the swap-remove of deregister, and 2,000
//! keepers on the wasm registry measured against the per-transaction network limits.
extern crate std;

use std::vec::Vec as StdVec;

use soroban_sdk::testutils::{Address as _, EnvTestConfig};
use soroban_sdk::token::StellarAssetClient;
use soroban_sdk::xdr::{LedgerKey, ScVal};
use soroban_sdk::{Address, Env, String};

use crate::test_fixture::*;
use crate::{RegistryClient, RegistryError};

#[test]
fn pages_are_bounded_and_checked() {
    let t = T::new();
    let c = t.c();
    assert_eq!(c.keeper_count(), 0);
    assert_eq!(c.get_keepers(&0, &1).len(), 0);
    assert_eq!(
        err(c.try_get_keepers(&1, &1)),
        is(RegistryError::PageOutOfRange)
    );
    let ks: StdVec<Address> = (0..5).map(|_| t.keeper()).collect();
    assert_eq!(c.keeper_count(), 5);
    for bad in [0, 201, u32::MAX] {
        assert_eq!(
            err(c.try_get_keepers(&0, &bad)),
            is(RegistryError::InvalidPageSize)
        );
    }
    let ops = |start: u32, limit: u32| -> StdVec<Address> {
        c.get_keepers(&start, &limit)
            .iter()
            .map(|i| i.operator)
            .collect()
    };
    assert_eq!(ops(0, 2), ks[0..2]);
    assert_eq!(ops(2, 2), ks[2..4]);
    assert_eq!(ops(4, 200), ks[4..5]);
    assert_eq!(ops(0, 200), ks);
    // start == count: an empty page, the end of the list; past it: an error.
    assert_eq!(ops(5, 1), []);
    assert_eq!(
        err(c.try_get_keepers(&6, &1)),
        is(RegistryError::PageOutOfRange)
    );
    assert_eq!(
        err(c.try_get_keepers(&u32::MAX, &200)),
        is(RegistryError::PageOutOfRange)
    );
}

#[test]
fn deregister_swap_removes_and_every_keeper_stays_listed_once() {
    let t = T::new();
    let mut model: StdVec<Address> = (0..24).map(|_| t.keeper()).collect();
    // Leave from the last slot, the first slot and the middle, in a fixed pseudo-random order,
    // registering a newcomer now and then.
    let mut x: u64 = 0x9e37_79b9;
    for step in 0..40 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if step % 5 == 4 || model.is_empty() {
            model.push(t.keeper());
        } else {
            let slot = match step % 7 {
                0 => model.len() - 1,
                1 => 0,
                _ => (x >> 33) as usize % model.len(),
            };
            let k = model.swap_remove(slot);
            t.c().deregister(&k);
            assert_eq!(
                err(t.c().try_get_keeper(&k)),
                is(RegistryError::NotRegistered)
            );
        }
        assert_eq!(t.operators(), model, "step {step}");
        assert_eq!(t.c().keeper_count() as usize, model.len());
    }
    for k in &model {
        assert_eq!(t.c().get_keeper(k).operator, *k);
    }
}

// Per-transaction limits of the public testnet, protocol 28
// (sandbox/src/ledger/network/testnet-network-config.p28.json).
const TX_INSTRUCTIONS: i64 = 100_000_000;
const TX_MEMORY_BYTES: i64 = 41_943_040;
const TX_DISK_READ_ENTRIES: u32 = 100;
const TX_DISK_READ_BYTES: u32 = 200_000;
const TX_WRITE_ENTRIES: u32 = 50;
const TX_WRITE_BYTES: u32 = 132_096;
const TX_FOOTPRINT_ENTRIES: u32 = 100;
const TX_EVENTS_BYTES: u32 = 16_384;

/// The host's metering of the last invocation (soroban-sdk does not name its type).
#[derive(Debug)]
struct Res {
    instructions: i64,
    mem_bytes: i64,
    disk_read_entries: u32,
    memory_read_entries: u32,
    write_entries: u32,
    disk_read_bytes: u32,
    write_bytes: u32,
    contract_events_size_bytes: u32,
}

fn last_resources(env: &Env) -> Res {
    let r = env.cost_estimate().resources();
    Res {
        instructions: r.instructions,
        mem_bytes: r.mem_bytes,
        disk_read_entries: r.disk_read_entries,
        memory_read_entries: r.memory_read_entries,
        write_entries: r.write_entries,
        disk_read_bytes: r.disk_read_bytes,
        write_bytes: r.write_bytes,
        contract_events_size_bytes: r.contract_events_size_bytes,
    }
}

/// Entries in the footprint: read-only (from disk or memory) plus read-write.
fn footprint(r: &Res) -> u32 {
    r.disk_read_entries + r.memory_read_entries + r.write_entries
}

fn print_row(call: &str, r: &Res) {
    std::println!(
        "| {call} | {} | {} | {} | {} | {} | {} | {} | {} |",
        r.instructions,
        r.mem_bytes,
        r.disk_read_entries,
        r.memory_read_entries,
        r.write_entries,
        footprint(r),
        r.disk_read_bytes,
        r.write_bytes,
    );
}

/// Everything but the footprint size against the testnet limits.
fn assert_within_limits(call: &str, r: &Res) {
    assert!(r.instructions <= TX_INSTRUCTIONS, "{call}: {r:?}");
    assert!(r.mem_bytes <= TX_MEMORY_BYTES, "{call}: {r:?}");
    assert!(r.disk_read_entries <= TX_DISK_READ_ENTRIES, "{call}: {r:?}");
    assert!(r.disk_read_bytes <= TX_DISK_READ_BYTES, "{call}: {r:?}");
    assert!(r.write_entries <= TX_WRITE_ENTRIES, "{call}: {r:?}");
    assert!(r.write_bytes <= TX_WRITE_BYTES, "{call}: {r:?}");
    assert!(
        r.contract_events_size_bytes <= TX_EVENTS_BYTES,
        "{call}: {r:?}"
    );
}

fn strkey(a: &Address) -> std::string::String {
    std::format!("{}", a.to_string())
}

/// A fresh Env on the current state (ledger, address generator). The test host keeps every
/// entry an Env has touched in one sorted map and copies the whole map on each write, so in a
/// long-lived Env a write costs in proportion to the whole test ledger (and 2,000
/// registrations take quadratic time). A fresh Env loads entries from the snapshot as a call
/// touches them, so its map holds just the call's footprint, as the network's host does.
/// The mocked signatures' nonces are left behind: a fresh Env draws the same nonces again.
fn rebase(env: &Env) -> Env {
    let mut snapshot = env.to_snapshot();
    snapshot.ledger.ledger_entries.retain(|(k, _)| {
        !matches!(&**k, LedgerKey::ContractData(d) if matches!(d.key, ScVal::LedgerKeyNonce(_)))
    });
    let mut fresh = Env::from_snapshot(snapshot);
    fresh.set_config(EnvTestConfig {
        capture_snapshot_at_drop: false,
    });
    fresh.mock_all_auths();
    fresh
}

#[test]
fn two_thousand_keepers_on_the_wasm_registry_fit_the_limits() {
    const N: usize = 2_000;
    let t = T::wasm();
    let (reg, usdc) = (strkey(&t.reg), strkey(&t.usdc));
    let mut env = rebase(&t.env);
    drop(t);
    // The budget is the default one (100M instructions, 40 MB), reset before each call, so a
    // call above it fails; resources() reports the last call.
    let budget = |env: &Env| env.cost_estimate().budget().reset_default();
    std::println!(
        "| call | instructions | memory bytes | disk read entries | memory read entries | \
         write entries | footprint | disk read bytes | write bytes |"
    );
    // Every keeper registers through the wasm registry, paying its stake in USDC.
    let mut keepers: StdVec<std::string::String> = StdVec::with_capacity(N);
    for i in 0..N {
        if i % 100 == 0 || i == N - 1 {
            env = rebase(&env);
        }
        let k = Address::generate(&env);
        StellarAssetClient::new(&env, &Address::from_str(&env, &usdc)).mint(&k, &STAKE);
        let c = RegistryClient::new(&env, &Address::from_str(&env, &reg));
        budget(&env);
        c.register(&k, &String::from_str(&env, "keeper"));
        if i == 0 || i == N - 1 {
            let r = last_resources(&env);
            print_row(&std::format!("register (keeper {})", i + 1), &r);
            assert_within_limits("register", &r);
            assert!(footprint(&r) <= TX_FOOTPRINT_ENTRIES, "register: {r:?}");
        }
        keepers.push(strkey(&k));
    }

    // Deregister the keeper of a middle slot: the last keeper moves into it.
    env = rebase(&env);
    let c = RegistryClient::new(&env, &Address::from_str(&env, &reg));
    assert_eq!(c.keeper_count() as usize, N);
    let middle = N / 2;
    env = rebase(&env);
    let c = RegistryClient::new(&env, &Address::from_str(&env, &reg));
    budget(&env);
    c.deregister(&Address::from_str(&env, &keepers[middle]));
    let r = last_resources(&env);
    print_row("deregister (slot 1000 of 2000)", &r);
    assert_within_limits("deregister", &r);
    assert!(footprint(&r) <= TX_FOOTPRINT_ENTRIES, "deregister: {r:?}");
    keepers.swap_remove(middle);

    env = rebase(&env);
    let c = RegistryClient::new(&env, &Address::from_str(&env, &reg));
    budget(&env);
    let moved = c.get_keeper(&Address::from_str(&env, &keepers[middle]));
    let r = last_resources(&env);
    print_row("get_keeper (the moved keeper)", &r);
    assert_within_limits("get_keeper", &r);
    assert_eq!(strkey(&moved.operator), keepers[middle]);

    // Every page of 200; together they list each keeper once, in slot order.
    let mut listed: StdVec<std::string::String> = StdVec::with_capacity(N);
    let mut start = 0u32;
    loop {
        env = rebase(&env);
        let c = RegistryClient::new(&env, &Address::from_str(&env, &reg));
        budget(&env);
        let page = c.get_keepers(&start, &200);
        let r = last_resources(&env);
        if page.is_empty() {
            break;
        }
        if start == 0 {
            print_row("get_keepers(0, 200)", &r);
        }
        assert_within_limits("get_keepers(_, 200)", &r);
        // A page reads one entry per keeper plus the instance and the code. A read-only call
        // is simulated, and simulation does not hold it to the transaction footprint limit;
        // in a transaction, pages of at most 98 fit (checked below).
        assert!(footprint(&r) <= page.len() + 2, "get_keepers: {r:?}");
        start += page.len();
        listed.extend(page.iter().map(|i| strkey(&i.operator)));
    }
    assert_eq!(listed, keepers);
    let mut unique = listed.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), N - 1);

    env = rebase(&env);
    let c = RegistryClient::new(&env, &Address::from_str(&env, &reg));
    budget(&env);
    let page = c.get_keepers(&(N as u32 - 1 - 98), &98);
    let r = last_resources(&env);
    print_row("get_keepers(_, 98)", &r);
    assert_eq!(page.len(), 98);
    assert_within_limits("get_keepers(_, 98)", &r);
    assert!(
        footprint(&r) <= TX_FOOTPRINT_ENTRIES,
        "get_keepers(_, 98): {r:?}"
    );
}

#[test]
fn keeper_lookups_stay_correct_after_moves() {
    // A record that moved keeps working with the vault-only entry points.
    let t = T::new();
    let a = t.keeper();
    let b = t.keeper();
    let c = t.keeper();
    t.c().deregister(&a);
    t.c().mark_draw(&t.vault, &c, &U);
    t.c().record_execution(&t.vault, &c, &true, &U, &10);
    t.c().clear_draw(&t.vault, &c);
    let info = t.c().get_keeper(&c);
    assert_eq!((info.operator, info.total_executions), (c.clone(), 1));
    assert_eq!(t.c().get_keeper(&b).total_executions, 0);
}
