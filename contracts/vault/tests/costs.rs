//! Resource costs of the main entry points, measured on the built wasm contracts.
//!
//!     bash scripts/build-wasm.sh vault registry
//!     cargo test --profile sandbox -p vault --test costs -- --nocapture
//!
//! Prints the wasm sizes and, per call, the CPU instructions, memory, ledger read/write bytes
//! and entries, event bytes and the resource fee. The fee is computed from the invocation's
//! resources with the public testnet's protocol 28 fee settings
//! (/work/shared/reference/testnet-network-config.p28.json, copied below) and, for
//! comparison, with soroban-sdk's mainnet snapshot. It covers the invocation only: the
//! transaction-size and historical-data parts of a real fee depend on the envelope, and the
//! rent of the test environment's auth nonces (temporary entries at the maximum TTL) is left
//! out.
mod common;

use common::*;
use soroban_env_host::fees::FeeConfiguration;
use soroban_sdk::String;

/// Testnet (protocol 28) Soroban fee settings.
fn testnet_fees() -> FeeConfiguration {
    FeeConfiguration {
        fee_per_instruction_increment: 25,
        fee_per_disk_read_entry: 6_250,
        fee_per_write_entry: 10_000,
        fee_per_disk_read_1kb: 1_786,
        fee_per_write_1kb: 3_500,
        fee_per_historical_1kb: 16_235,
        fee_per_contract_event_1kb: 10_000,
        fee_per_transaction_size_1kb: 1_624,
    }
}
/// Rent write fee per KB at the state-size target (rent_fee1_kb_soroban_state_size_high).
const TESTNET_RENT_FEE_1KB: i64 = 10_000;
const PERSISTENT_RENT_DENOMINATOR: i64 = 1_215;
const TEMP_RENT_DENOMINATOR: i64 = 2_430;

struct Row {
    name: &'static str,
    instructions: i64,
    mem: i64,
    read_entries: u32,
    write_entries: u32,
    read_bytes: u32,
    write_bytes: u32,
    events: u32,
    fee_testnet: i64,
    rent_testnet: i64,
    bumps: u32,
    bump_kb_ledgers: i64,
    fee_mainnet: i64,
}

fn measure(s: &Setup, name: &'static str) -> Row {
    let ce = s.env.cost_estimate();
    let r = ce.resources();
    let fee = r.estimate_fees(
        &testnet_fees(),
        TESTNET_RENT_FEE_1KB,
        PERSISTENT_RENT_DENOMINATOR,
        TEMP_RENT_DENOMINATOR,
    );
    Row {
        name,
        instructions: r.instructions,
        mem: r.mem_bytes,
        read_entries: r.disk_read_entries + r.memory_read_entries,
        write_entries: r.write_entries,
        read_bytes: r.disk_read_bytes,
        write_bytes: r.write_bytes,
        events: r.contract_events_size_bytes,
        // The test environment's mocked authorisation stores each signature nonce as a
        // temporary entry living for the maximum TTL (6.3 million ledgers); a real signature
        // expires within the ledgers its client chooses. That rent is left out.
        fee_testnet: fee.total - fee.temporary_entry_rent,
        rent_testnet: fee.persistent_entry_rent,
        bumps: r.persistent_entry_rent_bumps,
        bump_kb_ledgers: r.persistent_rent_ledger_bytes / 1024,
        fee_mainnet: ce.fee().total - ce.fee().temporary_entry_rent,
    }
}

#[test]
fn entry_point_costs_on_wasm() {
    let s = Setup::new(Mode::Wasm);
    let mut rows = Vec::new();
    let d = s.funded(20_000 * U);
    let d2 = s.funded(20_000 * U);

    s.vault().deposit(&d, &(10_000 * U));
    rows.push(measure(&s, "deposit (first, dead shares)"));
    s.vault().deposit(&d2, &(10_000 * U));
    rows.push(measure(&s, "deposit"));

    let k = s.funded(KEEPER_STAKE + 1_000 * U);
    s.registry()
        .register(&k, &String::from_str(&s.env, "keeper-1"));
    rows.push(measure(&s, "register"));
    s.registry().add_bond(&k, &(KEEPER_STAKE - MIN_STAKE));
    rows.push(measure(&s, "add_bond"));

    s.vault().draw(&k, &(5_000 * U));
    rows.push(measure(&s, "draw (the keeper's first)"));
    s.vault().return_proceeds(&k, &(2_000 * U), &900);
    rows.push(measure(&s, "return_proceeds (partial)"));
    s.vault().return_proceeds(&k, &(3_100 * U), &900);
    rows.push(measure(&s, "return_proceeds (close, profit)"));

    s.advance(COOLDOWN);
    s.vault().withdraw(&d, &(1_000 * U));
    rows.push(measure(&s, "withdraw"));
    s.vault().request_withdraw(&d2, &(1_000 * U));
    rows.push(measure(&s, "request_withdraw"));

    s.vault().draw(&k, &(1_000 * U));
    rows.push(measure(&s, "draw (the keeper's next draw)"));
    s.advance(SLASH_TIMEOUT + 1);
    s.registry().slash(&k);
    rows.push(measure(&s, "slash (with vault write_off)"));

    let vault_size = wasm_bytes("vault").len();
    let registry_size = wasm_bytes("registry").len();
    println!("\nwasm: vault.wasm {vault_size} bytes, registry.wasm {registry_size} bytes\n");
    println!("| call | CPU instructions | memory bytes | entries read | entries written | read bytes | write bytes | event bytes | resource fee testnet (stroops) | of which persistent rent | persistent entries with rent | rent (KB x ledgers) | resource fee, sdk mainnet snapshot |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            r.instructions,
            r.mem,
            r.read_entries,
            r.write_entries,
            r.read_bytes,
            r.write_bytes,
            r.events,
            r.fee_testnet,
            r.rent_testnet,
            r.bumps,
            r.bump_kb_ledgers,
            r.fee_mainnet
        );
    }

    // Budget guards: an entry point that grows past these is a regression worth a look.
    for r in &rows {
        assert!(
            r.instructions < 15_000_000,
            "{}: {} instructions",
            r.name,
            r.instructions
        );
        assert!(
            r.write_bytes < 8_000,
            "{}: {} write bytes",
            r.name,
            r.write_bytes
        );
    }
}
