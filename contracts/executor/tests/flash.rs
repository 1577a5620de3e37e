//! Flash fills (`vault.flash_draw` calling the executor's `on_flash`) against the real vault,
//! registry, DEX pair and router, and a mock lending pool that moves tokens the way Blend v2's
//! `submit_with_allowance` does (`transfer_from` of what the requests owe, `transfer` of what the
//! pool pays out). The real Blend v2 pool is exercised in src/keeper/clients/executor.e2e.test.ts.
//!
//! Every call under test runs with only the owner's signature mocked (`Setup::auth`): the
//! executor's own authorisation of the nested token pulls (router input) is checked by the host
//! for real. Flash fills need an executor the registry deployed from its approved wasm
//! (target/wasm/executor.wasm, `bash scripts/build-wasm.sh executor`): Mode::Wasm deploys it
//! through `registry.deploy_executor`; Mode::Native registers the native contract directly,
//! which the vault does not lend to in one transaction (NotApprovedExecutor). Here: the happy
//! path, the reverts (proceeds, floors, arguments, unregistered, not the owner) and the attacks
//! on a fill (a venue the registry does not list, collateral left unsold).
extern crate std;

mod common;

use common::*;
use executor::{Swap, SwapVenue};
use soroban_sdk::testutils::Address as _;
use soroban_sdk::token::StellarAssetClient;
use soroban_sdk::{vec, Address, Vec};
use vault::VaultState;

/// Full fill: repay 140,000 USDC, seize 80 WETH (~147,700 USDC on the pair), swap, return.
fn liquidate_happy_path(mode: Mode) {
    let s = Setup::registered(mode);
    let repay = 140_000 * U;
    let seized = 80 * U;
    let out = s.quote(seized);
    assert!(out > repay, "the fixture must be profitable: {out}");
    let before = s.vault().get_state();
    let pool_usdc_before = s.balance(&s.usdc, &s.pool);
    let requests = s.requests(repay, seized);
    let swaps = s.weth_swap(out * 99 / 100);

    let profit = s
        .liquidate_as(&s.owner.clone(), repay, &requests, &swaps, repay)
        .unwrap();
    let gross = out - repay;
    let fee = Setup::fee(gross);
    assert_eq!(
        profit,
        gross - fee,
        "proceeds = swap output; the draw paid the repay; the keeper's fee comes out of it"
    );
    let after = s.vault().get_state();
    assert_eq!(
        after,
        VaultState {
            total_usdc: before.total_usdc + profit,
            total_shares: before.total_shares,
            total_profit: before.total_profit + profit,
            active_liq: 0,
            locked_profit: profit,
            lock_start: NOW,
            lock_end: NOW + 3_600,
            pending_shares: 0,
        }
    );
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &s.vault_id), POOL_DEPOSIT + profit);
    assert_eq!(s.balance(&s.usdc, &s.pool), pool_usdc_before + repay);
    assert_eq!(MockPoolClient::new(&s.env, &s.pool).fills(), 1);
    // nothing stays with the executor but the keeper's fee
    assert_eq!(s.balance(&s.usdc, &s.exec_id), fee);
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!(
        (
            info.total_executions,
            info.successful_fills,
            info.total_profit
        ),
        (1, 1, profit)
    );
    assert_eq!(info.avg_response_time_ms, 4_000);
    assert!(!info.has_active_draw);
}

#[test]
fn a_native_executor_is_not_approved_for_flash_draws() {
    let s = Setup::registered(Mode::Native);
    let repay = 140_000 * U;
    let r = s.liquidate_as(&s.owner.clone(), repay, &s.requests(repay, 80 * U), &s.weth_swap(0), 0);
    assert_eq!(contract_code(r), VAULT_NOT_APPROVED);
    assert!(!s.registry().get_keeper(&s.exec_id).approved);
}

#[test]
fn liquidate_happy_path_wasm() {
    liquidate_happy_path(Mode::Wasm);
}

#[test]
fn liquidate_keeps_usdc_the_executor_already_held() {
    let s = Setup::registered(Mode::Wasm);
    // e.g. a refunded stake: not part of the proceeds
    StellarAssetClient::new(&s.env, &s.usdc).mint(&s.exec_id, &(500 * U));
    let repay = 140_000 * U;
    let out = s.quote(80 * U);
    let profit = s
        .liquidate_as(
            &s.owner.clone(),
            repay,
            &s.requests(repay, 80 * U),
            &s.weth_swap(0),
            0,
        )
        .unwrap();
    let fee = Setup::fee(out - repay);
    assert_eq!(profit, out - repay - fee);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 500 * U + fee);
}

#[test]
fn liquidate_reverts_when_proceeds_do_not_cover_the_draw() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    // 70 WETH sell for ~130,000 USDC: less than the draw
    let seized = 70 * U;
    assert!(s.quote(seized) < repay);
    assert_reverts(
        &s,
        repay,
        &s.requests(repay, seized),
        &s.weth_swap(0),
        0,
        PROCEEDS_BELOW_DRAW,
    );
}

#[test]
fn liquidate_reverts_below_min_proceeds() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let out = s.quote(80 * U);
    assert_reverts(
        &s,
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(0),
        out + 1,
        PROCEEDS_BELOW_MINIMUM,
    );
}

#[test]
fn liquidate_reverts_on_the_swap_floor() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let out = s.quote(80 * U);
    assert_reverts(
        &s,
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(out + 1),
        0,
        ROUTER_INSUFFICIENT_OUTPUT,
    );
}

#[test]
fn liquidate_refuses_bad_arguments() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let r = s.requests(repay, 80 * U);
    assert_reverts(&s, 0, &r, &s.weth_swap(0), 0, 103); // the vault's InvalidAmount
    assert_reverts(&s, repay, &r, &s.weth_swap(0), -1, INVALID_AMOUNT);
    let router = || SwapVenue::Router(s.router_id.clone());
    let short = vec![&s.env, swap(router(), &[&s.weth], 0, 0)];
    assert_reverts(&s, repay, &r, &short, 0, INVALID_SWAP);
    let empty = vec![&s.env, swap(router(), &[], 0, 0)];
    assert_reverts(&s, repay, &r, &empty, 0, INVALID_SWAP);
    let sells_usdc = vec![&s.env, swap(router(), &[&s.usdc, &s.weth], 0, 0)];
    assert_reverts(&s, repay, &r, &sells_usdc, 0, INVALID_SWAP);
}

#[test]
fn liquidate_by_an_unregistered_executor_fails_in_the_vault() {
    let s = Setup::new(Mode::Wasm);
    let repay = 140_000 * U;
    let r = s.liquidate_as(
        &s.owner.clone(),
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(0),
        0,
    );
    assert_eq!(contract_code(r), REG_NOT_REGISTERED);
}

#[test]
fn only_the_owner_may_liquidate() {
    let s = Setup::registered(Mode::Wasm);
    let stranger = Address::generate(&s.env);
    let repay = 140_000 * U;
    let state = s.vault().get_state();
    assert!(is_auth_error(s.liquidate_as(
        &stranger,
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(0),
        0
    )));
    assert_eq!(s.vault().get_state(), state);
}

/// A keeper that routes the sale through a router of its own (which could pay the vault only
/// the principal and keep the rest) or fills on a pool the registry does not list.
#[test]
fn flash_fills_only_through_the_registry_venues() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let r = s.requests(repay, 80 * U);
    let own_router = vec![
        &s.env,
        swap(
            SwapVenue::Router(Address::generate(&s.env)),
            &[&s.weth, &s.usdc],
            0,
            0,
        ),
    ];
    assert_reverts(&s, repay, &r, &own_router, 0, VENUE_NOT_ALLOWED);
    let other_pool = s.env.register(MockPool, ());
    let code = contract_code(s.flash_as(&s.owner.clone(), &other_pool, repay, &r, &s.weth_swap(0), 0));
    assert_eq!(code, VENUE_NOT_ALLOWED);
}

/// A keeper that leaves the seized collateral unsold (to sweep it later) instead of selling it
/// for the vault: the flash fill reverts.
#[test]
fn flash_fills_sell_everything_the_fill_paid() {
    let s = Setup::registered(Mode::Wasm);
    // proceeds would cover the draw even without the sale: the vault lends 140,000, the pool
    // takes 100,000 and pays 80 WETH
    let r = s.requests(100_000 * U, 80 * U);
    let no_sale: Vec<Swap> = Vec::new(&s.env);
    assert_reverts(&s, 140_000 * U, &r, &no_sale, 0, COLLATERAL_KEPT);
}
