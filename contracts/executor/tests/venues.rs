//! Sales on several venues in one flash fill: a lot split between two routers (an exact part,
//! then the remainder), a path through an intermediate asset, the published Comet weighted pool
//! (target/wasm/blend/comet.wasm, `bash scripts/blend-wasms.sh`) alone and beside a router; and
//! the attacks on them, each leaving the vault, registry, pool and executor as they were: venues
//! the registry does not list, malformed swaps, paths that do not end in USDC, amounts that
//! leave collateral unsold or exceed what the fill paid, floors above what a venue pays.
//!
//! The fixture is in common/ (its venues in common/venues.rs); every fill here is on the wasm
//! executor, with only the owner's signature mocked.
extern crate std;

mod common;

use common::*;
use dex_router::DexRouterClient;
use executor::SwapVenue;
use soroban_sdk::token::TokenClient;
use soroban_sdk::{vec, Address};

const SEIZED: i128 = 80 * U;
const DRAW: i128 = 140_000 * U;

fn router(a: &Address) -> SwapVenue {
    SwapVenue::Router(a.clone())
}

fn comet(a: &Address) -> SwapVenue {
    SwapVenue::Comet(a.clone())
}

/// Comet's output for a 50/50 pool with a 0.3 % fee (Balancer's out-given-in with a weight
/// ratio of 1), in floating point: the reference the pool's fixed-point result must be near.
fn comet_out(balance_in: i128, balance_out: i128, amount_in: i128) -> f64 {
    let adjusted = amount_in as f64 * (1.0 - 0.003);
    balance_out as f64 * (1.0 - balance_in as f64 / (balance_in as f64 + adjusted))
}

fn reserves(s: &Setup, router: &Address) -> (i128, i128) {
    DexRouterClient::new(&s.env, router).get_reserves(&s.weth, &s.usdc)
}

/// The lot split between the primary router (2M USDC a side) and a second one (1M): exactly
/// two thirds on the primary, then whatever is left (`amount_in` 0) on the second. The vault
/// gets more than from the whole lot on the primary alone, on an identical fixture.
#[test]
fn a_split_sale_across_two_routers_pays_more_than_one_venue() {
    let whole = {
        let s = Setup::registered(Mode::Wasm);
        s.add_router(1_000_000 * U, true);
        let out = s.quote(SEIZED);
        let swaps = s.weth_swap(out);
        let profit = s
            .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
            .unwrap();
        assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
        profit
    };

    let s = Setup::registered(Mode::Wasm);
    let second = s.add_router(1_000_000 * U, true);
    let first_part = SEIZED * 2 / 3;
    let rest = SEIZED - first_part;
    let out1 = s.quote(first_part);
    let out2 = s.quote_on(&second, rest, &[&s.weth, &s.usdc]);
    let (primary_before, second_before) = (reserves(&s, &s.router_id), reserves(&s, &second));
    let swaps = vec![
        &s.env,
        swap(router(&s.router_id), &[&s.weth, &s.usdc], first_part, out1),
        swap(router(&second), &[&s.weth, &s.usdc], 0, out2),
    ];
    let vault_before = s.balance(&s.usdc, &s.vault_id);
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let out = out1 + out2;
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert!(
        profit > whole,
        "split {profit} must beat the whole lot on one venue {whole}"
    );
    assert_eq!(s.balance(&s.usdc, &s.vault_id), vault_before + profit);
    // each pair took its part, the remainder leg took exactly what was left
    let (primary_after, second_after) = (reserves(&s, &s.router_id), reserves(&s, &second));
    assert_eq!(primary_after.0 - primary_before.0, first_part);
    assert_eq!(second_after.0 - second_before.0, rest);
    assert_eq!(
        (primary_before.1 - primary_after.1, second_before.1 - second_after.1),
        (out1, out2)
    );
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), Setup::fee(out - DRAW));
}

/// WETH -> MID -> USDC on the primary router: the router moves the intermediate asset pair to
/// pair, and the executor is left with none of it.
#[test]
fn a_sale_routed_through_an_intermediate_asset() {
    let s = Setup::registered(Mode::Wasm);
    let mid = s.add_intermediate();
    let path = [&s.weth, &mid, &s.usdc];
    let out = s.quote_on(&s.router_id, SEIZED, &path);
    assert!(out > DRAW, "the route must be profitable: {out}");
    let swaps = vec![&s.env, swap(router(&s.router_id), &path, 0, out)];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    assert_eq!(s.balance(&mid, &s.exec_id), 0);

    // the same route for part of a lot, the direct pair for the rest
    let s = Setup::registered(Mode::Wasm);
    let mid = s.add_intermediate();
    let path = [&s.weth, &mid, &s.usdc];
    let via = s.quote_on(&s.router_id, 30 * U, &path);
    let direct = s.quote(SEIZED - 30 * U);
    let swaps = vec![
        &s.env,
        swap(router(&s.router_id), &path, 30 * U, via),
        swap(router(&s.router_id), &[&s.weth, &s.usdc], 0, direct),
    ];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let out = via + direct;
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert_eq!((s.balance(&s.weth, &s.exec_id), s.balance(&mid, &s.exec_id)), (0, 0));
}

/// The lot sold into the published Comet pool: the executor pre-authorises exactly the approve
/// Comet makes on its behalf (every call here mocks only the owner's signature), Comet pulls the
/// WETH and pays the USDC, and the allowance is used up.
#[test]
fn a_sale_into_a_comet_pool() {
    let s = Setup::registered(Mode::Wasm);
    let pool = s.add_comet(1_000 * U, true);
    let (weth_in_pool, usdc_in_pool) = (s.balance(&s.weth, &pool), s.balance(&s.usdc, &pool));
    let expected = comet_out(weth_in_pool, usdc_in_pool, SEIZED);
    let swaps = vec![&s.env, swap(comet(&pool), &[&s.weth, &s.usdc], 0, DRAW)];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let paid = usdc_in_pool - s.balance(&s.usdc, &pool);
    assert!(
        ((paid as f64) - expected).abs() / expected < 1e-6,
        "Comet paid {paid}, the weighted-pool formula gives {expected}"
    );
    assert_eq!(profit, paid - DRAW - Setup::fee(paid - DRAW));
    assert_eq!(s.balance(&s.weth, &pool), weth_in_pool + SEIZED);
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    assert_eq!(
        TokenClient::new(&s.env, &s.weth).allowance(&s.exec_id, &pool),
        0
    );
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!((info.successful_fills, info.total_profit), (1, profit));
}

/// Half the lot on the primary router, the rest in a Comet pool of the same depth.
#[test]
fn a_split_between_a_router_and_a_comet_pool() {
    let s = Setup::registered(Mode::Wasm);
    let pool = s.add_comet(1_000 * U, true);
    let half = SEIZED / 2;
    let out1 = s.quote(half);
    let usdc_in_pool = s.balance(&s.usdc, &pool);
    let swaps = vec![
        &s.env,
        swap(router(&s.router_id), &[&s.weth, &s.usdc], half, out1),
        swap(comet(&pool), &[&s.weth, &s.usdc], 0, 0),
    ];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let out2 = usdc_in_pool - s.balance(&s.usdc, &pool);
    let out = out1 + out2;
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    // two venues of the same depth: the even split beats the whole lot on one (a fresh fixture)
    let whole = Setup::new(Mode::Native).quote(SEIZED);
    assert!(out > whole, "{out} vs {whole}");
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
}

/// A router or a Comet pool the registry does not list is refused, also as the second part of a
/// split whose first part is on a listed venue. Both are real, working venues.
#[test]
fn swaps_only_through_registry_venues_router_and_comet() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let unlisted_router = s.add_router(1_000_000 * U, false);
    let unlisted_comet = s.add_comet(1_000 * U, false);
    let path = [&s.weth, &s.usdc];
    for venue in [router(&unlisted_router), comet(&unlisted_comet)] {
        let alone = vec![&s.env, swap(venue.clone(), &path, 0, 0)];
        assert_reverts(&s, DRAW, &r, &alone, 0, VENUE_NOT_ALLOWED);
        let second = vec![
            &s.env,
            swap(router(&s.router_id), &path, SEIZED / 2, 0),
            swap(venue, &path, 0, 0),
        ];
        assert_reverts(&s, DRAW, &r, &second, 0, VENUE_NOT_ALLOWED);
    }
    // a listed router named as a Comet pool (or the reverse) fails in the venue's call
    let listed_comet = s.add_comet(1_000 * U, true);
    let swapped = vec![&s.env, swap(comet(&s.router_id), &path, 0, 0)];
    assert!(s
        .liquidate_as(&s.owner.clone(), DRAW, &r, &swapped, 0)
        .is_err());
    let swapped = vec![&s.env, swap(router(&listed_comet), &path, 0, 0)];
    assert!(s
        .liquidate_as(&s.owner.clone(), DRAW, &r, &swapped, 0)
        .is_err());
    assert_eq!(s.vault().get_state().total_profit, 0);
}

/// Negative amounts, Comet paths of other than two tokens and sales of USDC are refused.
#[test]
fn malformed_swaps_are_refused() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let pool = s.add_comet(1_000 * U, true);
    let mid = s.add_intermediate();
    let cases = [
        swap(router(&s.router_id), &[&s.weth, &s.usdc], -1, 0),
        swap(comet(&pool), &[&s.weth, &s.usdc], -SEIZED, 0),
        swap(comet(&pool), &[&s.weth, &mid, &s.usdc], 0, 0),
        swap(comet(&pool), &[&s.weth], 0, 0),
        swap(comet(&pool), &[&s.usdc, &s.weth], 0, 0),
        swap(router(&s.router_id), &[&s.usdc, &s.weth], 1_000 * U, 0),
        swap(router(&s.router_id), &[&s.usdc, &s.weth, &s.usdc], 0, 0),
    ];
    for bad in cases {
        // after a good first part, so the refusal is not an accident of the first swap
        let swaps = vec![
            &s.env,
            swap(router(&s.router_id), &[&s.weth, &s.usdc], SEIZED / 2, 0),
            bad,
        ];
        assert_reverts(&s, DRAW, &r, &swaps, 0, INVALID_SWAP);
    }
}

/// Skimming: enough of the lot sold for USDC to cover the draw, the rest sold into a token the
/// pool does not list (the unsold-collateral check does not see it) for the owner to sweep
/// later. Every sale must end in USDC, so the vault gets all of the lot's value.
#[test]
fn every_sale_ends_in_usdc() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let mid = s.add_intermediate();
    let cover = 76 * U;
    assert!(s.quote(cover) > DRAW, "the first part alone covers the draw");
    for skim in [
        swap(router(&s.router_id), &[&s.weth, &mid], 0, 0),
        swap(router(&s.router_id), &[&s.weth, &s.usdc, &mid], 0, 0),
    ] {
        let swaps = vec![
            &s.env,
            swap(router(&s.router_id), &[&s.weth, &s.usdc], cover, 0),
            skim,
        ];
        assert_reverts(&s, DRAW, &r, &swaps, 0, INVALID_SWAP);
    }
    assert_eq!(s.balance(&mid, &s.exec_id), 0);
}

/// Exact amounts that leave part of the lot with the executor: CollateralKept.
#[test]
fn amounts_that_leave_collateral_unsold_revert() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let second = s.add_router(1_000_000 * U, true);
    let path = [&s.weth, &s.usdc];
    let one_short = vec![&s.env, swap(router(&s.router_id), &path, SEIZED - 1, 0)];
    assert_reverts(&s, DRAW, &r, &one_short, 0, COLLATERAL_KEPT);
    let split_short = vec![
        &s.env,
        swap(router(&s.router_id), &path, 40 * U, 0),
        swap(router(&second), &path, 39 * U, 0),
    ];
    assert_reverts(&s, DRAW, &r, &split_short, 0, COLLATERAL_KEPT);
}

/// SAC error: the balance is too low for the transfer.
const TOKEN_BALANCE_ERROR: u32 = 10;

/// An exact amount above what the fill paid: with nothing else held, the token refuses the
/// router's pull and the whole transaction reverts (the remainder leg put first leaves nothing
/// for an exact leg after it, same outcome). WETH the executor already held (the owner's) is
/// sold along with the lot and all of its USDC goes to the vault: an owner can give the vault
/// more, never take any of it (the vault's USDC is never sold: a USDC path[0] is refused).
#[test]
fn selling_more_than_the_fill_paid() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let path = [&s.weth, &s.usdc];
    let too_much = vec![&s.env, swap(router(&s.router_id), &path, SEIZED + 1, 0)];
    assert_reverts(&s, DRAW, &r, &too_much, 0, TOKEN_BALANCE_ERROR);
    let pool = s.add_comet(1_000 * U, true);
    let too_much = vec![&s.env, swap(comet(&pool), &path, SEIZED + 1, 0)];
    assert_reverts(&s, DRAW, &r, &too_much, 0, TOKEN_BALANCE_ERROR);
    let remainder_first = vec![
        &s.env,
        swap(router(&s.router_id), &path, 0, 0),
        swap(router(&s.router_id), &path, 10 * U, 0),
    ];
    assert_reverts(&s, DRAW, &r, &remainder_first, 0, TOKEN_BALANCE_ERROR);

    let extra = 5 * U;
    s.mint(&s.weth, &s.exec_id, extra);
    let out = s.quote(SEIZED + extra);
    let vault_before = s.balance(&s.usdc, &s.vault_id);
    let all = vec![&s.env, swap(router(&s.router_id), &path, SEIZED + extra, out)];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &r, &all, 0)
        .unwrap();
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert_eq!(s.balance(&s.usdc, &s.vault_id), vault_before + profit);
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
}

/// A floor above what a venue pays reverts the whole transaction: the router's
/// InsufficientOutputAmount on the second leg of a split, Comet's ErrLimitOut. The vault, the
/// registry, the pool, the venues and the executor are all as before.
#[test]
fn a_floor_above_what_the_venue_pays_reverts_everything() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let second = s.add_router(1_000_000 * U, true);
    let pool = s.add_comet(1_000 * U, true);
    let path = [&s.weth, &s.usdc];
    let first_part = SEIZED * 2 / 3;
    let out2 = s.quote_on(&second, SEIZED - first_part, &path);
    let venues_before = (
        reserves(&s, &s.router_id),
        reserves(&s, &second),
        s.balance(&s.weth, &pool),
        s.balance(&s.usdc, &pool),
    );
    let second_leg_short = vec![
        &s.env,
        swap(router(&s.router_id), &path, first_part, 0),
        swap(router(&second), &path, 0, out2 + 1),
    ];
    assert_reverts(&s, DRAW, &r, &second_leg_short, 0, ROUTER_INSUFFICIENT_OUTPUT);
    // Comet pays about comet_out(...): ask 0.1 % more
    let expected = comet_out(venues_before.2, venues_before.3, SEIZED);
    let floor = (expected * 1.001) as i128;
    let comet_short = vec![&s.env, swap(comet(&pool), &path, 0, floor)];
    assert_reverts(&s, DRAW, &r, &comet_short, 0, COMET_LIMIT_OUT);
    assert_eq!(
        (
            reserves(&s, &s.router_id),
            reserves(&s, &second),
            s.balance(&s.weth, &pool),
            s.balance(&s.usdc, &pool),
        ),
        venues_before
    );
}

/// Comet's ErrLimitOut: the output is below `min_amount_out`.
const COMET_LIMIT_OUT: u32 = 20;
