//! Registry unit tests: registration, vault-only entry points, draw marks, statistics,
//! constructor refusals and slashing. Bonds: tests_bond.rs; executors and venues:
//! tests_exec.rs; slots, pages and the 2,000-keeper wasm run: tests_scale.rs.
extern crate std;

use soroban_sdk::testutils::{Address as _, Events as _};
use soroban_sdk::{Address, BytesN, Event as _};

use crate::events::KeeperRegistered;
use crate::test_fixture::*;
use crate::{RegistryClient, RegistryConfig, RegistryError};

#[test]
fn register_pulls_exactly_the_stake() {
    let t = T::new();
    let k = t.funded(STAKE + 5);
    t.c().register(&k, &t.name("alpha"));
    let ev = t.env.events().all().filter_by_contract(&t.reg);
    let expected = KeeperRegistered {
        operator: k.clone(),
        name: t.name("alpha"),
        stake: STAKE,
    }
    .to_xdr(&t.env, &t.reg);
    assert_eq!(ev.events().last(), Some(&expected));
    assert_eq!(t.token().balance(&k), 5);
    assert_eq!(t.token().balance(&t.reg), STAKE);
    let info = t.c().get_keeper(&k);
    assert_eq!(info.operator, k);
    assert_eq!(info.name, t.name("alpha"));
    assert_eq!(info.stake, STAKE);
    assert_eq!(info.registered_at, T0);
    assert!(!info.has_active_draw && !info.slashed);
    assert_eq!(
        (
            info.total_executions,
            info.successful_fills,
            info.total_profit
        ),
        (0, 0, 0)
    );
    // An operator this registry did not deploy: not approved. 2500 bps: 3/4 of the stake
    // backs a draw.
    assert!(!info.approved);
    assert_eq!(info.draw_limit, STAKE * 3 / 4);
    assert_eq!(t.c().keeper_count(), 1);
    assert_eq!(t.operators(), std::vec![k.clone()]);
    assert_eq!(
        err(t.c().try_register(&k, &t.name("again"))),
        is(RegistryError::AlreadyRegistered)
    );
    assert_eq!(t.c().get_config(), config(&t.usdc, &t.executor_wasm));
    assert_eq!(t.c().get_vault(), t.vault);
}

#[test]
fn register_rejects_bad_names_and_short_balances() {
    let t = T::new();
    let k = t.funded(STAKE - 1);
    assert_eq!(
        err(t.c().try_register(&k, &t.name(""))),
        is(RegistryError::InvalidName)
    );
    let long = "x".repeat(65);
    assert_eq!(
        err(t.c().try_register(&k, &t.name(&long))),
        is(RegistryError::InvalidName)
    );
    // Not enough USDC: the token transfer fails inside register and everything reverts.
    assert!(t.c().try_register(&k, &t.name("poor")).is_err());
    assert_eq!(
        err(t.c().try_get_keeper(&k)),
        is(RegistryError::NotRegistered)
    );
    assert_eq!(t.c().keeper_count(), 0);
    assert_eq!(t.token().balance(&k), STAKE - 1);
}

#[test]
fn deregister_refunds_and_is_refused_during_a_draw() {
    let t = T::new();
    let a = t.keeper();
    let b = t.keeper();
    let c = t.keeper();
    t.c().mark_draw(&t.vault, &b, &(10 * U));
    assert_eq!(
        err(t.c().try_deregister(&b)),
        is(RegistryError::DrawOutstanding)
    );
    t.c().deregister(&a);
    assert_eq!(t.token().balance(&a), STAKE);
    // Swap-remove: the last keeper (c) moved into a's slot.
    assert_eq!(t.operators(), std::vec![c.clone(), b.clone()]);
    assert_eq!(t.c().keeper_count(), 2);
    assert_eq!(
        err(t.c().try_deregister(&a)),
        is(RegistryError::NotRegistered)
    );
    // The moved keeper's record is intact and still found by its address.
    let info = t.c().get_keeper(&c);
    assert_eq!((info.operator, info.stake), (c.clone(), STAKE));
    t.c().clear_draw(&t.vault, &b);
    t.c().deregister(&b);
    assert_eq!(t.token().balance(&b), STAKE);
    assert_eq!(t.operators(), std::vec![c]);
    // A deregistered operator may come back.
    t.c().register(&a, &t.name("back"));
    assert_eq!(t.c().keeper_count(), 2);
}

#[test]
fn vault_only_entry_points() {
    let t = T::new();
    let k = t.keeper();
    let e = is(RegistryError::Unauthorized);
    assert_eq!(err(t.c().try_mark_draw(&k, &k, &U)), e);
    assert_eq!(err(t.c().try_clear_draw(&k, &k)), e);
    assert_eq!(err(t.c().try_record_execution(&k, &k, &true, &0, &1)), e);
    // The real vault address without the vault's signature: the auth check fails.
    t.env.set_auths(&[]);
    assert!(t.c().try_mark_draw(&t.vault, &k, &U).is_err());
    t.env.mock_all_auths();
    assert!(!t.c().get_keeper(&k).has_active_draw);
}

#[test]
fn vault_must_be_set_once() {
    let t = T::new();
    assert_eq!(
        err(t.c().try_set_vault(&t.vault)),
        is(RegistryError::VaultAlreadySet)
    );
    // A fresh registry without a vault.
    let env = &t.env;
    let reg = env.register(
        crate::Registry,
        (Address::generate(env), config(&t.usdc, &t.executor_wasm)),
    );
    let c = RegistryClient::new(env, &reg);
    assert_eq!(err(c.try_get_vault()), is(RegistryError::VaultNotSet));
    let k = Address::generate(env);
    assert_eq!(
        err(c.try_mark_draw(&t.vault, &k, &U)),
        is(RegistryError::VaultNotSet)
    );
    assert_eq!(err(c.try_slash(&k)), is(RegistryError::VaultNotSet));
    // The executor's constructor takes the vault: no deployment before there is one.
    let salt = BytesN::from_array(env, &[1; 32]);
    assert_eq!(
        err(c.try_deploy_executor(&k, &salt)),
        is(RegistryError::VaultNotSet)
    );
}

/// The contract error code a constructor panicked with, or None when it accepted the config.
fn constructor_error(cfg: impl Fn(&mut RegistryConfig)) -> Option<u32> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let env = new_env();
        let mut c = config(
            &Address::generate(&env),
            &BytesN::from_array(&env, &[0; 32]),
        );
        cfg(&mut c);
        env.register(crate::Registry, (Address::generate(&env), c));
    }));
    let payload = r.err()?;
    let msg = payload
        .downcast_ref::<std::string::String>()
        .cloned()
        .or_else(|| {
            payload
                .downcast_ref::<&str>()
                .map(|s| std::string::String::from(*s))
        })
        .unwrap_or_default();
    let at = msg
        .find("Error(Contract, #")
        .unwrap_or_else(|| panic!("not a contract error: {msg}"));
    let code = &msg[at + 17..];
    Some(code[..code.find(')').unwrap()].parse().unwrap())
}

#[test]
fn constructor_refusals_name_their_error() {
    let bad_stake = RegistryError::InvalidConfig as u32;
    let bad_rate = RegistryError::InvalidSlashRate as u32;
    let bad_timeout = RegistryError::InvalidTimeout as u32;
    assert_eq!(constructor_error(|c| c.min_stake = 0), Some(bad_stake));
    assert_eq!(constructor_error(|c| c.min_stake = -1), Some(bad_stake));
    assert_eq!(constructor_error(|c| c.slash_rate_bps = 0), Some(bad_rate));
    assert_eq!(
        constructor_error(|c| c.slash_rate_bps = 5_001),
        Some(bad_rate)
    );
    assert_eq!(
        constructor_error(|c| c.slash_rate_bps = 10_001),
        Some(bad_rate)
    );
    assert_eq!(
        constructor_error(|c| c.slash_timeout = 0),
        Some(bad_timeout)
    );
    assert_eq!(
        constructor_error(|c| c.slash_timeout = 604_801),
        Some(bad_timeout)
    );
    // The bounds themselves are accepted.
    assert_eq!(constructor_error(|c| c.slash_rate_bps = 1), None);
    assert_eq!(constructor_error(|c| c.slash_rate_bps = 5_000), None);
    assert_eq!(constructor_error(|c| c.slash_timeout = 1), None);
    assert_eq!(constructor_error(|c| c.slash_timeout = 604_800), None);
}

#[test]
fn draw_marks_partial_returns_and_clears() {
    let t = T::new();
    let k = t.keeper();
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &k, &0)),
        is(RegistryError::InvalidAmount)
    );
    let stranger = Address::generate(&t.env);
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &stranger, &U)),
        is(RegistryError::NotRegistered)
    );
    assert_eq!(
        err(t.c().try_clear_draw(&t.vault, &k)),
        is(RegistryError::NoActiveDraw)
    );
    t.c().mark_draw(&t.vault, &k, &(100 * U));
    let info = t.c().get_keeper(&k);
    assert!(info.has_active_draw);
    assert_eq!((info.draw_amount, info.draw_timestamp), (100 * U, T0));
    // Raising an active draw is refused; lowering it (partial return) keeps the timestamp.
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &k, &(100 * U))),
        is(RegistryError::DrawOutstanding)
    );
    t.advance(50);
    t.c().mark_draw(&t.vault, &k, &(40 * U));
    let info = t.c().get_keeper(&k);
    assert_eq!((info.draw_amount, info.draw_timestamp), (40 * U, T0));
    t.c().clear_draw(&t.vault, &k);
    let info = t.c().get_keeper(&k);
    assert!(!info.has_active_draw);
    assert_eq!((info.draw_amount, info.draw_timestamp), (0, 0));
}

#[test]
fn record_execution_counts_and_averages() {
    let t = T::new();
    let k = t.keeper();
    assert_eq!(
        err(t.c().try_record_execution(&t.vault, &k, &true, &-1, &1)),
        is(RegistryError::InvalidAmount)
    );
    t.c().record_execution(&t.vault, &k, &true, &(5 * U), &100);
    t.c().record_execution(&t.vault, &k, &false, &0, &301);
    t.c().record_execution(&t.vault, &k, &true, &U, &200);
    let info = t.c().get_keeper(&k);
    assert_eq!(info.total_executions, 3);
    assert_eq!(info.successful_fills, 2);
    assert_eq!(info.total_profit, 6 * U);
    // (100 + 301) / 2 = 200 (floor), then (200 * 2 + 200) / 3 = 200.
    assert_eq!(info.avg_response_time_ms, 200);
}

#[test]
fn slash_timing_share_and_ban() {
    let t = T::new();
    let k = t.keeper();
    assert_eq!(err(t.c().try_slash(&k)), is(RegistryError::NoActiveDraw));
    let nobody = Address::generate(&t.env);
    assert_eq!(
        err(t.c().try_slash(&nobody)),
        is(RegistryError::NotRegistered)
    );
    let draw = 7 * U;
    t.c().mark_draw(&t.vault, &k, &draw);
    t.advance(TIMEOUT);
    assert_eq!(err(t.c().try_slash(&k)), is(RegistryError::SlashTooEarly));
    t.advance(1);
    // Permissionless: no signature needed.
    t.env.set_auths(&[]);
    let recovered = t.c().slash(&k);
    t.env.mock_all_auths();
    // 2500 bps penalty plus the whole outstanding draw.
    let penalty = STAKE / 4;
    assert_eq!(recovered, penalty + draw);
    assert_eq!(t.token().balance(&t.vault), penalty + draw);
    assert_eq!(t.token().balance(&t.reg), STAKE - penalty - draw);
    assert_eq!(t.last_write_off(), Some((k.clone(), penalty + draw)));
    let info = t.c().get_keeper(&k);
    assert!(info.slashed && !info.has_active_draw);
    let left = STAKE - penalty - draw;
    assert_eq!(
        (info.slash_count, info.total_slashed, info.stake),
        (1, penalty + draw, left)
    );
    assert_eq!(info.draw_limit, left * 3 / 4);
    assert_eq!((info.total_executions, info.successful_fills), (1, 0));
    // Banned: no new draw mark, no re-registration after leaving.
    assert_eq!(
        err(t.c().try_mark_draw(&t.vault, &k, &U)),
        is(RegistryError::KeeperBanned)
    );
    t.c().deregister(&k);
    assert_eq!(t.token().balance(&k), left);
    t.mint(&k, STAKE);
    assert_eq!(
        err(t.c().try_register(&k, &t.name("again"))),
        is(RegistryError::KeeperBanned)
    );
}

#[test]
fn slash_rounds_the_penalty_down() {
    let t = T::with_rate(3);
    let k = t.keeper();
    t.c().mark_draw(&t.vault, &k, &U);
    t.advance(TIMEOUT + 1);
    // floor(1000e7 * 3 / 10000) = 3_000_000, plus the draw.
    assert_eq!(t.c().slash(&k), 3_000_000 + U);
}
