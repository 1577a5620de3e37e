//! Bonds: add_bond, withdraw_bond, the draw limit they move, and the slash that recovers the
//! outstanding draw from the bond.
extern crate std;

use soroban_sdk::testutils::{Address as _, Events as _, MockAuth, MockAuthInvoke};
use soroban_sdk::{Address, Event as _, IntoVal};

use crate::events::{BondAdded, BondWithdrawn, KeeperSlashed};
use crate::test_fixture::*;
use crate::types::KeeperInfo;
use crate::RegistryError;

fn last_event(t: &T) -> Option<soroban_sdk::xdr::ContractEvent> {
    t.env
        .events()
        .all()
        .filter_by_contract(&t.reg)
        .events()
        .last()
        .cloned()
}

#[test]
fn add_bond_pulls_usdc_raises_stake_and_limit() {
    let t = T::new();
    let k = t.keeper();
    t.mint(&k, 500 * U);
    t.c().add_bond(&k, &(400 * U));
    let expected = BondAdded {
        operator: k.clone(),
        amount: 400 * U,
        stake: STAKE + 400 * U,
    }
    .to_xdr(&t.env, &t.reg);
    assert_eq!(last_event(&t), Some(expected));
    assert_eq!(t.token().balance(&k), 100 * U);
    assert_eq!(t.token().balance(&t.reg), STAKE + 400 * U);
    let info = t.c().get_keeper(&k);
    assert_eq!(info.stake, STAKE + 400 * U);
    assert_eq!(info.draw_limit, (STAKE + 400 * U) * 3 / 4);
    for bad in [0, -1] {
        assert_eq!(
            err(t.c().try_add_bond(&k, &bad)),
            is(RegistryError::InvalidAmount)
        );
    }
    let stranger = t.funded(U);
    assert_eq!(
        err(t.c().try_add_bond(&stranger, &U)),
        is(RegistryError::NotRegistered)
    );
    // More than the operator holds: the token transfer fails and nothing changes.
    assert!(t.c().try_add_bond(&k, &(101 * U)).is_err());
    assert_eq!(t.c().get_keeper(&k).stake, STAKE + 400 * U);
}

#[test]
fn bonds_need_the_operator_signature() {
    let t = T::new();
    let k = t.keeper();
    t.mint(&k, 2 * U);
    t.c().add_bond(&k, &U);
    // Both calls would succeed with k's signature (checked at the end); someone else signs
    // for a call naming k: refused by the host's auth check.
    let other = Address::generate(&t.env);
    for name in ["add_bond", "withdraw_bond"] {
        t.env.mock_auths(&[MockAuth {
            address: &other,
            invoke: &MockAuthInvoke {
                contract: &t.reg,
                fn_name: name,
                args: (k.clone(), U).into_val(&t.env),
                sub_invokes: &[],
            },
        }]);
        let r = if name == "add_bond" {
            t.c().try_add_bond(&k, &U)
        } else {
            t.c().try_withdraw_bond(&k, &U)
        };
        assert!(r.is_err(), "{name} without the operator's signature");
    }
    t.env.mock_all_auths();
    assert_eq!(t.c().get_keeper(&k).stake, STAKE + U);
    t.c().add_bond(&k, &U);
    t.c().withdraw_bond(&k, &(2 * U));
    assert_eq!(t.c().get_keeper(&k).stake, STAKE);
}

#[test]
fn withdraw_bond_refunds_down_to_min_stake() {
    let t = T::new();
    let k = t.keeper();
    t.mint(&k, 300 * U);
    t.c().add_bond(&k, &(300 * U));
    t.c().withdraw_bond(&k, &(100 * U));
    let expected = BondWithdrawn {
        operator: k.clone(),
        amount: 100 * U,
        stake: STAKE + 200 * U,
    }
    .to_xdr(&t.env, &t.reg);
    assert_eq!(last_event(&t), Some(expected));
    assert_eq!(t.token().balance(&k), 100 * U);
    assert_eq!(t.c().get_keeper(&k).draw_limit, (STAKE + 200 * U) * 3 / 4);
    // The attack: take the bond below the minimum. Refused by one unit; exactly min_stake
    // left is allowed.
    assert_eq!(
        err(t.c().try_withdraw_bond(&k, &(200 * U + 1))),
        is(RegistryError::BondBelowMinimum)
    );
    t.c().withdraw_bond(&k, &(200 * U));
    let info = t.c().get_keeper(&k);
    assert_eq!((info.stake, info.draw_limit), (STAKE, STAKE * 3 / 4));
    assert_eq!(
        err(t.c().try_withdraw_bond(&k, &1)),
        is(RegistryError::BondBelowMinimum)
    );
    assert_eq!(
        err(t.c().try_withdraw_bond(&k, &0)),
        is(RegistryError::InvalidAmount)
    );
    assert_eq!(t.token().balance(&k), 300 * U);
}

#[test]
fn withdraw_bond_with_a_draw_outstanding_is_refused() {
    let t = T::new();
    let k = t.keeper();
    t.mint(&k, 400 * U);
    t.c().add_bond(&k, &(400 * U));
    // The attack: draw against the bond, then pull the bond out before returning.
    t.c().mark_draw(&t.vault, &k, &(1_000 * U));
    assert_eq!(
        err(t.c().try_withdraw_bond(&k, &(400 * U))),
        is(RegistryError::DrawOutstanding)
    );
    // A partial return still leaves a draw outstanding.
    t.c().mark_draw(&t.vault, &k, &U);
    assert_eq!(
        err(t.c().try_withdraw_bond(&k, &U)),
        is(RegistryError::DrawOutstanding)
    );
    t.c().clear_draw(&t.vault, &k);
    t.c().withdraw_bond(&k, &(400 * U));
    assert_eq!(t.c().get_keeper(&k).stake, STAKE);
}

#[test]
fn a_new_draw_above_the_draw_limit_is_refused() {
    let t = T::new();
    let k = t.keeper();
    let limit = STAKE * 3 / 4;
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &k, &(limit + 1))),
        is(RegistryError::BondTooSmall)
    );
    t.c().mark_draw(&t.vault, &k, &limit);
    // Lowering an active draw is a partial return, unaffected by the limit.
    t.c().mark_draw(&t.vault, &k, &(limit - 1));
    t.c().clear_draw(&t.vault, &k);
    // More bond, a larger draw.
    t.mint(&k, 400 * U);
    t.c().add_bond(&k, &(400 * U));
    t.c().mark_draw(&t.vault, &k, &(limit + 300 * U));
    assert_eq!(t.c().get_keeper(&k).draw_amount, limit + 300 * U);
}

#[test]
fn the_draw_limit_rounds_down() {
    let t = T::new();
    let k = t.keeper();
    t.mint(&k, 3);
    t.c().add_bond(&k, &3);
    // stake 10_000_000_003 at 2500 bps: floor(stake * 7500 / 10000) = 7_500_000_002, one below
    // what the stake keeps after the (rounded-down) penalty.
    let info = t.c().get_keeper(&k);
    assert_eq!(info.draw_limit, 7_500_000_002);
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &k, &7_500_000_003)),
        is(RegistryError::BondTooSmall)
    );
    t.c().mark_draw(&t.vault, &k, &7_500_000_002);
}

#[test]
fn a_slashed_keeper_cannot_add_bond() {
    let t = T::new();
    let k = t.keeper();
    t.c().mark_draw(&t.vault, &k, &U);
    t.advance(TIMEOUT + 1);
    t.c().slash(&k);
    // The attack: top the bond back up to draw again. Refused; so is a draw.
    t.mint(&k, STAKE);
    assert_eq!(
        err(t.c().try_add_bond(&k, &STAKE)),
        is(RegistryError::KeeperBanned)
    );
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &k, &U)),
        is(RegistryError::KeeperBanned)
    );
    // Here the slash left less than min_stake, so nothing can be withdrawn; what is left goes
    // back through deregister.
    assert_eq!(
        err(t.c().try_withdraw_bond(&k, &1)),
        is(RegistryError::BondBelowMinimum)
    );
}

#[test]
fn slash_recovers_the_draw_plus_the_penalty_so_the_vault_loses_nothing() {
    let t = T::new();
    let k = t.keeper();
    t.mint(&k, 600 * U);
    t.c().add_bond(&k, &(600 * U));
    let stake = STAKE + 600 * U;
    // The worst case for the depositors: a draw of the whole limit, never returned.
    let draw = stake * 3 / 4;
    t.c().mark_draw(&t.vault, &k, &draw);
    t.advance(TIMEOUT + 1);
    let recovered = t.c().slash(&k);
    let penalty = stake / 4;
    let expected = KeeperSlashed {
        keeper: k.clone(),
        slashed: draw + penalty,
        written_down: WRITTEN_DOWN,
        remaining_stake: stake - draw - penalty,
    }
    .to_xdr(&t.env, &t.reg);
    assert_eq!(last_event(&t), Some(expected));
    assert_eq!(recovered, draw + penalty);
    // The vault got the outstanding draw back in full and the penalty on top.
    assert_eq!(t.token().balance(&t.vault), draw + penalty);
    assert_eq!(t.last_write_off(), Some((k.clone(), draw + penalty)));
    let info = t.c().get_keeper(&k);
    assert_eq!(info.stake, 0);
    assert_eq!(info.total_slashed, draw + penalty);
    assert_eq!(t.token().balance(&t.reg), 0);
}

#[test]
fn slash_cover_is_capped_by_what_the_stake_has_left() {
    // Not reachable through the interface (a draw is at most draw_limit and the stake cannot
    // shrink during a draw), so the record is written directly: a draw of 2x the stake.
    let t = T::new();
    let k = t.keeper();
    t.c().mark_draw(&t.vault, &k, &U);
    t.env.as_contract(&t.reg, || {
        let (slot, mut info): (u32, KeeperInfo) = crate::storage::find_keeper(&t.env, &k).unwrap();
        info.draw_amount = 2 * STAKE;
        crate::storage::set_slot(&t.env, slot, &info);
    });
    t.advance(TIMEOUT + 1);
    // penalty = stake / 4, cover = min(2 * stake, stake - penalty): the whole stake.
    assert_eq!(t.c().slash(&k), STAKE);
    assert_eq!(t.c().get_keeper(&k).stake, 0);
    assert_eq!(t.token().balance(&t.vault), STAKE);
}
