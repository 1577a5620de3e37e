//! The attacks a hostile keeper or depositor would try, each against the rule that stops it:
//! draw and run (bonded two-step draws), exit ahead of a loss (slashes make the pool whole),
//! par-return loops (withdrawal requests), just-in-time deposits (profit unlocking), flash
//! receivers that do not repay or are not approved code, and configurations that make no sense.
//! Every test runs on the native contracts and on the built wasm unless it needs a stand-in
//! contract (the stub registry and the hostile receivers are native).
mod common;

use common::*;
use soroban_sdk::testutils::Address as _;
use soroban_sdk::{
    contract, contractimpl, map, symbol_short, token::TokenClient, Address, Env, IntoVal, Map,
    Symbol, Val,
};
use vault::{VaultClient, VaultConfig};

/// Draw and run: register with min_stake, draw as much as the vault lends, keep it past the
/// timeout, be slashed, deregister. Today's rules lend only what the bond covers: the draw of
/// 10,000 is refused, the bonded draw is taken back with the penalty from the bond.
fn draw_and_run(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(200_000 * U);
    s.vault().deposit(&d, &(200_000 * U));
    let attacker = s.keeper_unbonded(0);
    let start = s.token().balance(&attacker) + MIN_STAKE;
    let books = s.vault().get_state().total_usdc;
    assert_eq!(code(s.vault().try_draw(&attacker, &(10_000 * U))), REG_BOND_TOO_SMALL);
    let limit = s.draw_limit(MIN_STAKE);
    assert_eq!(s.registry().get_keeper(&attacker).draw_limit, limit);
    assert_eq!(code(s.vault().try_draw(&attacker, &(limit + 1))), REG_BOND_TOO_SMALL);
    s.vault().draw(&attacker, &limit);
    s.advance(SLASH_TIMEOUT + 1);
    s.registry().slash(&attacker);
    s.registry().deregister(&attacker);
    let gain = s.token().balance(&attacker) - start;
    let penalty = MIN_STAKE * SLASH_RATE_BPS as i128 / 10_000;
    assert_eq!(gain, -penalty, "the attacker pays the penalty");
    assert_eq!(s.vault().get_state().total_usdc, books + penalty);
    assert_eq!(s.vault_balance(), books + penalty);
}

/// Exit ahead of a loss: while a draw is overdue, one depositor leaves at the full price. The
/// draw is within the keeper's bond, so the slash makes the pool whole: the depositor who
/// stays loses nothing (and later earns the penalty).
fn exit_ahead(mode: Mode) {
    let s = Setup::new(mode);
    let leaver = s.funded(95_005 * U);
    let stayer = s.funded(104_995 * U);
    let leaver_shares = s.vault().deposit(&leaver, &(95_005 * U));
    s.vault().deposit(&stayer, &(104_995 * U));
    let k = s.keeper(0);
    s.vault().draw(&k, &s.draw_limit(KEEPER_STAKE));
    s.advance(SLASH_TIMEOUT.max(COOLDOWN) + 1);
    let stayer_before = s.vault().balance(&stayer);
    let paid = s.vault().withdraw(&leaver, &leaver_shares);
    assert!(paid <= 95_005 * U);
    s.registry().slash(&k);
    assert!(s.vault().balance(&stayer) >= stayer_before);
    s.unlock_all();
    assert!(s.vault().balance(&stayer) > stayer_before, "the stayer earns the penalty");
}

/// Par returns: a keeper with bond to spare draws all idle USDC and returns it at par, over and
/// over, so that a withdrawal never finds liquidity. A withdrawal request stops the next draw
/// that would take what the request needs, and the depositor gets out.
fn par_return_loop(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(4_000 * U);
    let shares = s.vault().deposit(&d, &(4_000 * U));
    let k = s.keeper(0);
    s.advance(COOLDOWN);
    for _ in 0..3 {
        s.vault().draw(&k, &(4_000 * U));
        assert_eq!(code(s.vault().try_withdraw(&d, &shares)), INSUFFICIENT_LIQUIDITY);
        s.vault().return_proceeds(&k, &(4_000 * U), &0);
        s.advance(5);
    }
    s.vault().draw(&k, &(4_000 * U));
    s.vault().request_withdraw(&d, &shares);
    s.vault().return_proceeds(&k, &(4_000 * U), &0);
    assert_eq!(code(s.vault().try_draw(&k, &(4_000 * U))), WITHDRAWAL_PENDING);
    // Only the requested shares are protected: the dead shares' value may still be drawn.
    assert_eq!(code(s.vault().try_draw(&k, &(DEAD + 1))), WITHDRAWAL_PENDING);
    assert_eq!(s.vault().withdraw(&d, &shares), 4_000 * U - DEAD);
    assert_eq!(s.vault().get_state().pending_shares, 0);
    assert_eq!(s.vault().get_depositor(&d).withdraw_request, 0);
}

/// Just-in-time deposit: deposit right before a fill lands, leave right after. The fill's
/// profit is locked when it is booked, so the deposit's value does not move in that ledger.
fn jit_deposit(mode: Mode) {
    let cfg = VaultConfig {
        withdraw_cooldown: 0,
        keeper_fee_bps: 1_000,
        ..vault_config()
    };
    let s = Setup::unwired(mode, cfg);
    s.vault().set_registry(&s.registry_id);
    s.registry().set_vault(&s.vault_id);
    let holder = s.funded(10_000 * U);
    s.vault().deposit(&holder, &(10_000 * U));
    s.advance(600);
    let k = s.keeper(1_000 * U);
    let jit = s.funded(90_000 * U);
    let jit_shares = s.vault().deposit(&jit, &(90_000 * U));
    s.vault().draw(&k, &(4_000 * U));
    let fee_before = s.token().balance(&k);
    s.vault().return_proceeds(&k, &(5_000 * U), &0);
    assert_eq!(s.token().balance(&k) - fee_before, -(4_000 * U) - 900 * U);
    assert!(s.vault().withdraw(&jit, &jit_shares) <= 90_000 * U, "the JIT deposit gains nothing");
    s.unlock_all();
    assert!(s.vault().balance(&holder) >= 10_000 * U + 900 * U - 2 * U);
}

fn refuses_configs_that_make_no_sense(mode: Mode) {
    let cases = [
        (VaultConfig { withdraw_cooldown: 30 * 86_400 + 1, ..vault_config() }, INVALID_COOLDOWN),
        (VaultConfig { keeper_fee_bps: 5_001, ..vault_config() }, INVALID_KEEPER_FEE),
        (VaultConfig { profit_unlock_secs: 0, ..vault_config() }, INVALID_UNLOCK_PERIOD),
        (VaultConfig { profit_unlock_secs: 30 * 86_400 + 1, ..vault_config() }, INVALID_UNLOCK_PERIOD),
    ];
    for (config, expected) in cases {
        let r = std::panic::catch_unwind(|| Setup::unwired(mode, config));
        let payload = r.err().expect("constructor accepted a bad config");
        let msg = payload
            .downcast_ref::<std::string::String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(msg.contains(&format!("Error(Contract, #{expected})")), "{msg}");
    }
}

/// A flash draw by a keeper the registry did not deploy from its approved wasm (a plain
/// registered account, or any contract of the keeper's own) is refused before any USDC moves.
fn flash_needs_an_approved_executor(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let k = s.keeper(0);
    let call: Val = ().into_val(&s.env);
    assert_eq!(
        code(s.vault().try_flash_draw(&k, &(1_000 * U), &call, &0)),
        NOT_APPROVED_EXECUTOR
    );
    assert_eq!(s.vault_balance(), 10_000 * U);
}

fn request_withdraw_rules(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(1_000 * U);
    let shares = s.vault().deposit(&d, &(1_000 * U));
    assert_eq!(code(s.vault().try_request_withdraw(&d, &-1)), INVALID_AMOUNT);
    assert_eq!(code(s.vault().try_request_withdraw(&d, &(shares + 1))), INSUFFICIENT_SHARES);
    s.vault().request_withdraw(&d, &shares);
    s.vault().request_withdraw(&d, &(shares / 2));
    assert_eq!(s.vault().get_state().pending_shares, shares / 2);
    s.advance(COOLDOWN);
    s.vault().withdraw(&d, &(shares / 4));
    assert_eq!(s.vault().get_depositor(&d).withdraw_request, shares / 2 - shares / 4);
    assert_eq!(s.vault().get_state().pending_shares, shares / 2 - shares / 4);
    s.vault().withdraw(&d, &(shares - shares / 4));
    assert_eq!(s.vault().get_state().pending_shares, 0);
}

crate::both_modes!(
    draw_and_run,
    exit_ahead,
    par_return_loop,
    jit_deposit,
    refuses_configs_that_make_no_sense,
    flash_needs_an_approved_executor,
    request_withdraw_rules,
);

const DEAD: i128 = vault::share_math::DEAD_SHARES;

// --- Flash-draw receivers, with a registry stand-in that approves every keeper ------------

/// Answers `get_keeper` with an approved, unslashed record; records nothing.
#[contract]
pub struct ApprovingRegistry;

#[contractimpl]
impl ApprovingRegistry {
    pub fn get_keeper(env: Env, _operator: Address) -> Map<Symbol, Val> {
        map![
            &env,
            (symbol_short!("slashed"), false.into_val(&env)),
            (symbol_short!("approved"), true.into_val(&env))
        ]
    }
    pub fn record_execution(
        _env: Env,
        _vault: Address,
        _keeper: Address,
        _success: bool,
        _profit: i128,
        _response_time_ms: u64,
    ) {
    }
}

/// Sends back `amount + call` USDC (call < 0: less than it was lent).
#[contract]
pub struct Receiver;

#[contractimpl]
impl Receiver {
    pub fn init(env: Env, vault: Address, usdc: Address) {
        env.storage().instance().set(&symbol_short!("v"), &vault);
        env.storage().instance().set(&symbol_short!("u"), &usdc);
    }
    pub fn on_flash(env: Env, amount: i128, call: i128) {
        let vault: Address = env.storage().instance().get(&symbol_short!("v")).unwrap();
        let usdc: Address = env.storage().instance().get(&symbol_short!("u")).unwrap();
        let back = amount + call;
        if back > 0 {
            TokenClient::new(&env, &usdc).transfer(&env.current_contract_address(), &vault, &back);
        }
    }
}

struct FlashWorld {
    s: Setup,
    receiver: Address,
}

fn flash_world() -> FlashWorld {
    let cfg = VaultConfig {
        keeper_fee_bps: 1_000,
        ..vault_config()
    };
    let s = Setup::unwired(Mode::Native, cfg);
    let stub = s.env.register(ApprovingRegistry, ());
    s.vault().set_registry(&stub);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let receiver = s.env.register(Receiver, ());
    ReceiverClient::new(&s.env, &receiver).init(&s.vault_id, &s.usdc);
    s.mint(&receiver, 1_000 * U);
    FlashWorld { s, receiver }
}

fn vault(w: &FlashWorld) -> VaultClient<'_> {
    w.s.vault()
}

#[test]
fn a_flash_receiver_that_keeps_the_loan_reverts_everything() {
    let w = flash_world();
    let before = vault(&w).get_state();
    let call: Val = (-(1_000 * U)).into_val(&w.s.env);
    assert_eq!(code(vault(&w).try_flash_draw(&w.receiver, &(1_000 * U), &call, &0)), FLASH_NOT_REPAID);
    let call: Val = (-1i128).into_val(&w.s.env);
    assert_eq!(code(vault(&w).try_flash_draw(&w.receiver, &(1_000 * U), &call, &0)), FLASH_NOT_REPAID);
    assert_eq!(vault(&w).get_state(), before);
    assert_eq!(w.s.vault_balance(), 10_000 * U);
    assert_eq!(w.s.token().balance(&w.receiver), 1_000 * U);
}

#[test]
fn a_flash_draw_pays_the_keeper_fee_and_locks_the_rest() {
    let w = flash_world();
    let price = vault(&w).share_price();
    let call: Val = (100 * U).into_val(&w.s.env);
    let booked = vault(&w).flash_draw(&w.receiver, &(5_000 * U), &call, &0);
    assert_eq!(booked, 90 * U);
    assert_eq!(w.s.token().balance(&w.receiver), 1_000 * U - 100 * U + 10 * U);
    let st = vault(&w).get_state();
    assert_eq!((st.total_usdc, st.total_profit, st.active_liq), (10_090 * U, 90 * U, 0));
    assert_eq!(w.s.vault_balance(), 10_090 * U);
    assert_eq!(vault(&w).get_locked_profit(), 90 * U);
    assert_eq!(vault(&w).share_price(), price, "no instant unlock");
    w.s.advance(UNLOCK_SECS / 2);
    assert_eq!(vault(&w).get_locked_profit(), 45 * U);
    w.s.unlock_all();
    assert!(vault(&w).share_price() > price);
    // A draw above the cap or the idle USDC is refused before anything is lent.
    let call: Val = 0i128.into_val(&w.s.env);
    assert_eq!(code(vault(&w).try_flash_draw(&w.receiver, &(MAX_DRAW + 1), &call, &0)), DRAW_CAP_EXCEEDED);
    assert_eq!(code(vault(&w).try_flash_draw(&w.receiver, &(10_091 * U), &call, &0)), INSUFFICIENT_LIQUIDITY);
    let _ = Address::generate(&w.s.env);
}
