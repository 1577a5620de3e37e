//! The executor's own entry points, outside flash fills: registering with the registry (by the
//! owner only, native and wasm), the two-step proxy (draw, return proceeds) and its bond limit,
//! the bond proxies, deregistering and sweeping the stake, and the stable error codes.
//!
//! The calls that check authorisation run with only one address's signature mocked
//! (`Setup::auth`): strangers are refused, and the executor's own authorisation of the nested
//! stake transfer is checked by the host for real. The fixture is in common/; flash fills are in
//! flash.rs, sales on several venues and the attacks on them in venues.rs.
extern crate std;

mod common;

use common::*;
use executor::ExecutorError;
use soroban_sdk::testutils::{Address as _, MockAuthInvoke};
use soroban_sdk::token::StellarAssetClient;
use soroban_sdk::{Address, IntoVal, String};

fn register(mode: Mode) {
    let s = Setup::new(mode);
    let owner_before = s.balance(&s.usdc, &s.owner);
    s.register_as(&s.owner.clone(), "exec-1").unwrap();
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!(info.operator, s.exec_id);
    assert_eq!(info.stake, MIN_STAKE);
    assert_eq!(info.name, String::from_str(&s.env, "exec-1"));
    assert_eq!(s.balance(&s.usdc, &s.owner), owner_before - MIN_STAKE);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &s.registry_id), MIN_STAKE);
    assert_eq!(
        (s.exec().owner(), s.exec().vault(), s.exec().usdc()),
        (s.owner.clone(), s.vault_id.clone(), s.usdc.clone())
    );
}

#[test]
fn register_native() {
    register(Mode::Native);
}

#[test]
fn register_wasm() {
    register(Mode::Wasm);
}

#[test]
fn register_needs_the_owner() {
    let s = Setup::new(Mode::Native);
    let stranger = Address::generate(&s.env);
    StellarAssetClient::new(&s.env, &s.usdc).mint(&stranger, &MIN_STAKE);
    assert!(is_auth_error(s.register_as(&stranger, "exec-1")));
    assert_eq!(
        contract_code(flatten(s.registry().try_get_keeper(&s.exec_id))),
        REG_NOT_REGISTERED
    );
}

#[test]
fn two_step_draw_and_return() {
    let s = Setup::registered(Mode::Native);
    let owner = s.owner.clone();
    let owner_before = s.balance(&s.usdc, &owner);
    let amount = 20_000 * U;
    // a draw that large needs bond: stake 23,000 USDC, limit 20,700
    StellarAssetClient::new(&s.env, &s.usdc).mint(&owner, &(22_000 * U));
    s.exec().add_bond(&s.registry_id, &(22_000 * U));

    s.auth(&owner, "draw", (amount,).into_val(&s.env), &[]);
    s.exec().draw(&amount);
    assert_eq!(
        s.balance(&s.usdc, &owner),
        owner_before + amount,
        "the draw goes on to the owner"
    );
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 0);
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), amount);
    assert_eq!(s.vault().get_state().active_liq, amount);
    assert!(s.registry().get_keeper(&s.exec_id).has_active_draw);

    // the owner's return pulls the USDC from the owner: the owner authorises that transfer
    let back = amount + 300 * U;
    let rt: u64 = 9_000;
    let pull = MockAuthInvoke {
        contract: &s.usdc,
        fn_name: "transfer",
        args: (owner.clone(), s.exec_id.clone(), back).into_val(&s.env),
        sub_invokes: &[],
    };
    let sub = [pull];
    s.auth(&owner, "return_proceeds", (back, rt).into_val(&s.env), &sub);
    let profit = s.exec().return_proceeds(&back, &rt);
    s.env.mock_all_auths();
    // 10 % of the 300 USDC profit is the keeper's fee, paid to the executor
    assert_eq!(profit, 270 * U);
    assert_eq!(s.balance(&s.usdc, &owner), owner_before - 300 * U);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 30 * U);
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), 0);
    let st = s.vault().get_state();
    assert_eq!(
        (st.active_liq, st.total_usdc, st.total_profit),
        (0, POOL_DEPOSIT + 270 * U, 270 * U)
    );
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!(
        (
            info.total_executions,
            info.successful_fills,
            info.avg_response_time_ms
        ),
        (1, 1, rt)
    );

    // nothing outstanding any more
    assert_eq!(
        contract_code(flatten(s.exec().try_return_proceeds(&(100 * U), &0))),
        VAULT_NO_ACTIVE_DRAW
    );
}

#[test]
fn two_step_refuses_strangers_and_bad_amounts() {
    let s = Setup::registered(Mode::Native);
    let stranger = Address::generate(&s.env);
    s.auth(&stranger, "draw", (100 * U,).into_val(&s.env), &[]);
    assert!(is_auth_error(flatten(s.exec().try_draw(&(100 * U)))));
    s.auth(
        &stranger,
        "return_proceeds",
        (100 * U, 0u64).into_val(&s.env),
        &[],
    );
    assert!(is_auth_error(flatten(
        s.exec().try_return_proceeds(&(100 * U), &0)
    )));
    s.env.mock_all_auths();
    assert_eq!(s.vault().get_state().active_liq, 0);
    assert_eq!(
        contract_code(flatten(s.exec().try_draw(&0))),
        INVALID_AMOUNT
    );
    assert_eq!(
        contract_code(flatten(s.exec().try_return_proceeds(&-1, &0))),
        INVALID_AMOUNT
    );
}

#[test]
fn deregister_then_sweep_the_stake() {
    let s = Setup::registered(Mode::Native);
    let owner = s.owner.clone();
    let before = s.balance(&s.usdc, &owner);
    let stranger = Address::generate(&s.env);
    s.auth(
        &stranger,
        "deregister",
        (s.registry_id.clone(),).into_val(&s.env),
        &[],
    );
    assert!(is_auth_error(flatten(
        s.exec().try_deregister(&s.registry_id)
    )));

    s.auth(
        &owner,
        "deregister",
        (s.registry_id.clone(),).into_val(&s.env),
        &[],
    );
    s.exec().deregister(&s.registry_id);
    assert_eq!(
        contract_code(flatten(s.registry().try_get_keeper(&s.exec_id))),
        REG_NOT_REGISTERED
    );
    assert_eq!(
        s.balance(&s.usdc, &s.exec_id),
        MIN_STAKE,
        "the stake comes back to the executor"
    );

    s.auth(
        &stranger,
        "sweep",
        (s.usdc.clone(), stranger.clone(), MIN_STAKE).into_val(&s.env),
        &[],
    );
    assert!(is_auth_error(flatten(
        s.exec().try_sweep(&s.usdc, &stranger, &MIN_STAKE)
    )));
    s.auth(
        &owner,
        "sweep",
        (s.usdc.clone(), owner.clone(), MIN_STAKE).into_val(&s.env),
        &[],
    );
    s.exec().sweep(&s.usdc, &owner, &MIN_STAKE);
    s.env.mock_all_auths();
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &owner), before + MIN_STAKE);
    assert_eq!(
        contract_code(flatten(s.exec().try_sweep(&s.usdc, &owner, &0))),
        INVALID_AMOUNT
    );
}


/// The two-step proxy is held to the executor's bond: the draw limit is 90 % of its stake.
#[test]
fn two_step_draws_are_bonded() {
    let s = Setup::registered(Mode::Native);
    let limit = s.registry().get_keeper(&s.exec_id).draw_limit;
    assert_eq!(limit, MIN_STAKE * 9 / 10);
    assert_eq!(contract_code(flatten(s.exec().try_draw(&(limit + 1)))), 216);
    s.exec().add_bond(&s.registry_id, &(2_000 * U));
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!((info.stake, info.draw_limit), (3_000 * U, 2_700 * U));
    s.exec().draw(&(2_700 * U));
    s.exec().return_proceeds(&(2_700 * U), &0);
    let before = s.balance(&s.usdc, &s.owner);
    s.exec().withdraw_bond(&s.registry_id, &(2_000 * U));
    assert_eq!(s.balance(&s.usdc, &s.owner), before + 2_000 * U);
    assert_eq!(s.registry().get_keeper(&s.exec_id).stake, MIN_STAKE);
}

#[test]
fn error_codes_are_stable() {
    assert_eq!(ExecutorError::InvalidAmount as u32, INVALID_AMOUNT);
    assert_eq!(ExecutorError::ProceedsBelowDraw as u32, PROCEEDS_BELOW_DRAW);
    assert_eq!(
        ExecutorError::ProceedsBelowMinimum as u32,
        PROCEEDS_BELOW_MINIMUM
    );
    assert_eq!(ExecutorError::InvalidSwap as u32, INVALID_SWAP);
    assert_eq!(ExecutorError::Overflow as u32, 454);
    assert_eq!(ExecutorError::BadRegistryConfig as u32, 455);
    assert_eq!(ExecutorError::VenueNotAllowed as u32, VENUE_NOT_ALLOWED);
    assert_eq!(ExecutorError::CollateralKept as u32, COLLATERAL_KEPT);
}
