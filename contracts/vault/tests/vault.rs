//! Vault state transitions and errors, each run on native contracts and on the built wasm.
mod common;

use common::*;
use registry::events::{
    BondAdded, DrawCleared, DrawMarked, ExecutionRecorded, KeeperDeregistered, KeeperRegistered,
    KeeperSlashed, VaultSet,
};
use soroban_sdk::testutils::{Address as _, Events as _};
use soroban_sdk::xdr::ContractEvent;
use soroban_sdk::{Address, Event as _, String};
use vault::events::{
    Deposited, DrawWrittenOff, Drawn, PauseChanged, ProceedsReturned, RegistrySet,
    WithdrawRequested, Withdrawn,
};
use vault::share_math::DEAD_SHARES;
use vault::{PauseFlags, VaultConfig, VaultState};

fn state(s: &Setup) -> VaultState {
    s.vault().get_state()
}

fn assert_books(s: &Setup) {
    let st = state(s);
    assert_eq!(
        s.vault_balance(),
        st.total_usdc - st.active_liq,
        "balance == total_usdc - active_liq"
    );
}

fn first_deposit(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(1_000 * U);
    let shares = s.vault().deposit(&d, &(1_000 * U));
    assert_eq!(shares, 1_000 * U - DEAD_SHARES);
    let last = s.env.events().all().filter_by_contract(&s.vault_id);
    let expected = Deposited {
        depositor: d.clone(),
        amount: 1_000 * U,
        shares,
        dead_shares: DEAD_SHARES,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(last.events().last(), Some(&expected));
    assert_eq!(
        state(&s),
        VaultState {
            total_usdc: 1_000 * U,
            total_shares: 1_000 * U,
            total_profit: 0,
            active_liq: 0,
            ..state(&s)
        }
    );
    assert_eq!(s.vault().get_depositor(&s.vault_id).shares, DEAD_SHARES);
    let info = s.vault().get_depositor(&d);
    assert_eq!(info.shares, shares);
    assert_eq!(info.cost_basis, 1_000 * U);
    assert_eq!(info.total_deposited, 1_000 * U);
    assert_eq!(info.last_deposit_time, START_TIME);
    assert_eq!(s.token().balance(&d), 0);
    assert_eq!(s.vault().balance(&d), 1_000 * U - DEAD_SHARES);
    assert_eq!(s.vault().share_price(), 10_000_000);
    assert_books(&s);
    // The depositor authorised the call.
}

fn deposit_at_price_after_profit(mode: Mode) {
    let s = Setup::new(mode);
    let d1 = s.funded(1_000 * U);
    s.vault().deposit(&d1, &(1_000 * U));
    let k = s.keeper(100 * U);
    s.vault().draw(&k, &(500 * U));
    s.vault().return_proceeds(&k, &(600 * U), &100); // 100 USDC profit, locked at first
    assert_eq!(s.vault().share_price(), 10_000_000);
    assert_eq!(s.vault().get_locked_profit(), 100 * U);
    s.unlock_all(); // unlocked: price 1.1
    assert_eq!(s.vault().get_locked_profit(), 0);
    assert_eq!(s.vault().share_price(), 11_000_000);
    let d2 = s.funded(110 * U);
    let shares = s.vault().deposit(&d2, &(110 * U));
    assert_eq!(shares, 100 * U); // floor(110e7 * 1000e7 / 1100e7)
    assert_eq!(s.vault().balance(&d2), 110 * U);
    assert_books(&s);
}

fn deposit_errors(mode: Mode) {
    let s = Setup::unwired(mode, vault_config());
    let d = s.funded(100_000 * U);
    assert_eq!(code(s.vault().try_deposit(&d, &(10 * U))), NOT_INIT);
    assert_eq!(code(s.vault().try_withdraw(&d, &(10 * U))), NOT_INIT);
    assert_eq!(code(s.vault().try_draw(&d, &(10 * U))), NOT_INIT);
    assert_eq!(
        code(s.vault().try_return_proceeds(&d, &(10 * U), &0)),
        NOT_INIT
    );
    assert_eq!(code(s.vault().try_get_registry()), NOT_INIT);
    s.vault().set_registry(&s.registry_id);
    assert_eq!(
        code(s.vault().try_set_registry(&s.registry_id)),
        ALREADY_INIT
    );
    s.registry().set_vault(&s.vault_id);

    assert_eq!(code(s.vault().try_deposit(&d, &0)), INVALID_AMOUNT);
    assert_eq!(code(s.vault().try_deposit(&d, &-5)), INVALID_AMOUNT);
    assert_eq!(code(s.vault().try_deposit(&d, &DEAD_SHARES)), ZERO_SHARES);
    s.vault().set_pause(&true, &false);
    assert_eq!(code(s.vault().try_deposit(&d, &(10 * U))), DEPOSITS_PAUSED);
    s.vault().set_pause(&false, &false);
    s.vault().deposit(&d, &(10 * U));
    // The book price is 1.0: 1 unit buys exactly 1 share; nothing rounds to zero yet.
    assert_eq!(s.vault().deposit(&d, &1), 1);
    // Nothing moved on the failed calls.
    assert_eq!(s.token().balance(&d), 100_000 * U - 10 * U - 1);
    assert_books(&s);

    // A depositor without the USDC: the token transfer fails and the deposit reverts.
    let poor = s.funded(5 * U);
    assert!(s.vault().try_deposit(&poor, &(6 * U)).is_err());
    assert_eq!(s.vault().get_depositor(&poor).shares, 0);
    assert_eq!(s.token().balance(&poor), 5 * U);
}

fn deposit_cap(mode: Mode) {
    let cfg = VaultConfig {
        deposit_cap: 1_000 * U,
        ..vault_config()
    };
    let s = Setup::unwired(mode, cfg);
    s.vault().set_registry(&s.registry_id);
    s.registry().set_vault(&s.vault_id);
    let d = s.funded(2_000 * U);
    s.vault().deposit(&d, &(600 * U));
    assert_eq!(
        code(s.vault().try_deposit(&d, &(400 * U + 1))),
        DEPOSIT_CAP_EXCEEDED
    );
    s.vault().deposit(&d, &(400 * U));
    assert_eq!(state(&s).total_usdc, 1_000 * U);
}

fn constructor_rejects_bad_config(mode: Mode) {
    let bad = VaultConfig {
        deposit_cap: 0,
        ..vault_config()
    };
    assert_constructor_error(mode, bad);
    let bad = VaultConfig {
        max_draw_per_keeper: -1,
        ..vault_config()
    };
    assert_constructor_error(mode, bad);
}

fn assert_constructor_error(mode: Mode, config: VaultConfig) {
    let r = std::panic::catch_unwind(|| Setup::unwired(mode, config));
    let payload = r.err().expect("constructor accepted a bad config");
    let msg = payload
        .downcast_ref::<std::string::String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(
        msg.contains(&format!("Error(Contract, #{INVALID_CONFIG})")),
        "unexpected panic: {msg}"
    );
}

fn zero_shares_after_price_rise(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(1_000 * U));
    let k = s.keeper(5_000 * U);
    s.vault().draw(&k, &(1_000 * U));
    s.vault().return_proceeds(&k, &(3_000 * U), &1);
    s.unlock_all(); // price 3.0
    assert_eq!(code(s.vault().try_deposit(&d, &2)), ZERO_SHARES);
    assert_eq!(s.vault().deposit(&d, &3), 1);
}

fn withdraw_after_cooldown(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(1_000 * U);
    let shares = s.vault().deposit(&d, &(1_000 * U));
    s.advance(COOLDOWN - 1);
    assert_eq!(code(s.vault().try_withdraw(&d, &shares)), COOLDOWN_ACTIVE);
    s.advance(1);
    // Half: cost basis leaves pro rata.
    let half = shares / 2;
    let paid = s.vault().withdraw(&d, &half);
    assert_eq!(paid, half);
    let info = s.vault().get_depositor(&d);
    assert_eq!(info.shares, shares - half);
    assert_eq!(info.cost_basis, 1_000 * U - (1_000 * U * half) / shares);
    assert_eq!(info.total_withdrawn, half);
    // A new deposit restarts the cooldown.
    s.mint(&d, 10 * U);
    s.vault().deposit(&d, &(10 * U));
    assert_eq!(code(s.vault().try_withdraw(&d, &1_000)), COOLDOWN_ACTIVE);
    s.advance(COOLDOWN);
    let rest = s.vault().get_depositor(&d).shares;
    s.vault().withdraw(&d, &rest);
    let info = s.vault().get_depositor(&d);
    assert_eq!((info.shares, info.cost_basis), (0, 0));
    // Only the dead shares and the USDC backing them remain.
    assert_eq!(state(&s).total_shares, DEAD_SHARES);
    assert_eq!(state(&s).total_usdc, DEAD_SHARES);
    assert_books(&s);
}

fn withdraw_errors(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(1_000 * U);
    let shares = s.vault().deposit(&d, &(1_000 * U));
    s.advance(COOLDOWN);
    assert_eq!(code(s.vault().try_withdraw(&d, &0)), INVALID_AMOUNT);
    assert_eq!(code(s.vault().try_withdraw(&d, &-1)), INVALID_AMOUNT);
    assert_eq!(
        code(s.vault().try_withdraw(&d, &(shares + 1))),
        INSUFFICIENT_SHARES
    );
    let stranger = s.funded(0);
    assert_eq!(
        code(s.vault().try_withdraw(&stranger, &1)),
        INSUFFICIENT_SHARES
    );
    // Capital out with a keeper is not withdrawable.
    let k = s.keeper(0);
    s.vault().draw(&k, &(900 * U));
    assert_eq!(
        code(s.vault().try_withdraw(&d, &shares)),
        INSUFFICIENT_LIQUIDITY
    );
    // Pauses never stop withdraw.
    s.vault().set_pause(&true, &true);
    assert_eq!(
        s.vault().withdraw(&d, &(100 * U - DEAD_SHARES)),
        100 * U - DEAD_SHARES
    );
    assert_books(&s);
}

fn slash_makes_the_pool_whole(mode: Mode) {
    // The draw is within the keeper's bond: the slash takes the outstanding capital and the
    // lateness penalty from the bond, so the pool loses nothing and earns the penalty (locked,
    // then unlocking like a fill's profit).
    let s = Setup::new(mode);
    let d = s.funded(1_000 * U);
    let shares = s.vault().deposit(&d, &(1_000 * U));
    let k = s.keeper(0);
    s.vault().draw(&k, &(1_000 * U));
    s.advance(SLASH_TIMEOUT + 1);
    let penalty = KEEPER_STAKE * SLASH_RATE_BPS as i128 / 10_000;
    assert_eq!(s.registry().slash(&k), 1_000 * U + penalty);
    assert_eq!(state(&s).total_usdc, 1_000 * U + penalty);
    assert_eq!(state(&s).total_profit, penalty);
    assert_eq!(s.vault().get_locked_profit(), penalty);
    assert_eq!(s.vault().share_price(), 10_000_000);
    assert_eq!(s.registry().get_keeper(&k).stake, KEEPER_STAKE - 1_000 * U - penalty);
    s.advance(COOLDOWN.max(UNLOCK_SECS));
    assert_eq!(
        s.vault().withdraw(&d, &shares),
        shares * (1_000 * U + penalty) / (1_000 * U)
    );
    assert_books(&s);
}

fn draw_and_full_return_with_profit(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let k = s.keeper(1_000 * U);
    s.vault().draw(&k, &(4_000 * U));
    assert_eq!(s.vault().get_keeper_draw(&k), 4_000 * U);
    assert_eq!(state(&s).active_liq, 4_000 * U);
    assert_eq!(s.token().balance(&k), 5_000 * U);
    let info = s.registry().get_keeper(&k);
    assert!(info.has_active_draw);
    assert_eq!(info.draw_amount, 4_000 * U);
    assert_eq!(info.draw_timestamp, START_TIME);
    assert_books(&s);

    s.advance(30);
    let profit = s.vault().return_proceeds(&k, &(4_250 * U), &1_200);
    assert_eq!(profit, 250 * U);
    let ev = s.env.events().all().filter_by_contract(&s.vault_id);
    let expected = ProceedsReturned {
        keeper: k.clone(),
        amount: 4_250 * U,
        profit,
        remaining: 0,
        response_time_ms: 1_200,
        fee: 0,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(ev.events().last(), Some(&expected));
    assert_eq!(
        state(&s),
        VaultState {
            total_usdc: 10_250 * U,
            total_shares: 10_000 * U,
            total_profit: 250 * U,
            active_liq: 0,
            ..state(&s)
        }
    );
    assert_eq!(s.vault().get_keeper_draw(&k), 0);
    let info = s.registry().get_keeper(&k);
    assert!(!info.has_active_draw);
    assert_eq!((info.draw_amount, info.draw_timestamp), (0, 0));
    assert_eq!((info.total_executions, info.successful_fills), (1, 1));
    assert_eq!(info.total_profit, 250 * U);
    assert_eq!(info.avg_response_time_ms, 1_200);
    assert_books(&s);

    // Second execution: running mean of the response times, exact return = no profit.
    s.vault().draw(&k, &(1_000 * U));
    assert_eq!(s.vault().return_proceeds(&k, &(1_000 * U), &400), 0);
    let info = s.registry().get_keeper(&k);
    assert_eq!(info.avg_response_time_ms, 800);
    assert_eq!(info.total_executions, 2);
    // An unchanged return (a lost race) is an execution, not a successful fill.
    assert_eq!(info.successful_fills, 1);
    assert_eq!(state(&s).total_profit, 250 * U);
}

fn partial_return_keeps_timestamp(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let k = s.keeper(0);
    s.vault().draw(&k, &(1_000 * U));
    s.advance(SLASH_TIMEOUT - 10);
    assert_eq!(s.vault().return_proceeds(&k, &(400 * U), &5), 0);
    assert_eq!(s.vault().get_keeper_draw(&k), 600 * U);
    assert_eq!(state(&s).active_liq, 600 * U);
    let info = s.registry().get_keeper(&k);
    assert!(info.has_active_draw);
    assert_eq!(info.draw_amount, 600 * U);
    assert_eq!(info.draw_timestamp, START_TIME); // not restarted
    assert_eq!(info.total_executions, 0);
    assert_books(&s);
    // The slash clock still runs from the original draw.
    s.advance(11);
    let slashed = s.registry().slash(&k);
    let penalty = KEEPER_STAKE * SLASH_RATE_BPS as i128 / 10_000;
    assert_eq!(slashed, 600 * U + penalty);
    // The 600 still out came back from the bond, with the penalty on top.
    assert_eq!(state(&s).total_usdc, 10_000 * U + penalty);
    assert_eq!(state(&s).active_liq, 0);
    assert_books(&s);
}

fn return_larger_than_draw_books_profit_only_on_own_draw(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let a = s.keeper(1_000 * U);
    let b = s.keeper(1_000 * U);
    s.vault().draw(&a, &(1_000 * U));
    s.vault().draw(&b, &(2_000 * U));
    // a returns more than a's draw: only a's 1000 leaves active_liq, the rest is profit.
    assert_eq!(s.vault().return_proceeds(&a, &(1_500 * U), &1), 500 * U);
    assert_eq!(state(&s).active_liq, 2_000 * U);
    assert_eq!(s.vault().get_keeper_draw(&b), 2_000 * U);
    // a has nothing outstanding any more.
    assert_eq!(
        code(s.vault().try_return_proceeds(&a, &(1 * U), &1)),
        NO_ACTIVE_DRAW
    );
    assert_books(&s);
}

fn return_errors(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let k = s.keeper(0);
    assert_eq!(
        code(s.vault().try_return_proceeds(&k, &(1 * U), &1)),
        NO_ACTIVE_DRAW
    );
    s.vault().draw(&k, &(1_000 * U));
    assert_eq!(
        code(s.vault().try_return_proceeds(&k, &0, &1)),
        INVALID_AMOUNT
    );
    assert_eq!(
        code(s.vault().try_return_proceeds(&k, &-1, &1)),
        INVALID_AMOUNT
    );
    // A keeper short of USDC: the transfer fails, nothing changes.
    assert!(s.vault().try_return_proceeds(&k, &(1_001 * U), &1).is_err());
    assert_eq!(s.vault().get_keeper_draw(&k), 1_000 * U);
    // Pauses never stop returns.
    s.vault().set_pause(&true, &true);
    assert_eq!(s.vault().return_proceeds(&k, &(1_000 * U), &1), 0);
    assert_books(&s);
}

fn draw_errors(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(1_000_000 * U);
    s.vault().deposit(&d, &(150_000 * U));
    let stranger = s.funded(0);
    assert_eq!(
        code(s.vault().try_draw(&stranger, &(1 * U))),
        REG_NOT_REGISTERED
    );
    let k = s.keeper_staked(2 * MAX_DRAW, 0);
    assert_eq!(code(s.vault().try_draw(&k, &0)), INVALID_AMOUNT);
    assert_eq!(code(s.vault().try_draw(&k, &-3)), INVALID_AMOUNT);
    assert_eq!(
        code(s.vault().try_draw(&k, &(MAX_DRAW + 1))),
        DRAW_CAP_EXCEEDED
    );
    s.vault().set_pause(&false, &true);
    assert_eq!(code(s.vault().try_draw(&k, &(1 * U))), DRAWS_PAUSED);
    s.vault().set_pause(&false, &false);
    s.vault().draw(&k, &MAX_DRAW);
    assert_eq!(code(s.vault().try_draw(&k, &(1 * U))), DRAW_OUTSTANDING);
    // Only idle USDC can be drawn: 50000 left.
    let k2 = s.keeper_staked(2 * MAX_DRAW, 0);
    assert_eq!(
        code(s.vault().try_draw(&k2, &(50_000 * U + 1))),
        INSUFFICIENT_LIQUIDITY
    );
    s.vault().draw(&k2, &(50_000 * U));
    assert_eq!(s.vault_balance(), 0);
    assert_books(&s);
    // Nothing is recorded by a failed draw.
    assert_eq!(s.registry().get_keeper(&k).draw_amount, MAX_DRAW);
    assert!(s.registry().try_get_keeper(&stranger).is_err());
}

fn slash_timing_and_ban(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let k = s.keeper(0);
    assert_eq!(code(s.registry().try_slash(&k)), 207); // NoActiveDraw
    s.vault().draw(&k, &(2_000 * U));
    s.advance(SLASH_TIMEOUT);
    assert_eq!(code(s.registry().try_slash(&k)), 208); // SlashTooEarly at exactly the timeout
    s.advance(1);
    let before = state(&s);
    let vault_before = s.vault_balance();
    let slashed = s.registry().slash(&k);
    let penalty = KEEPER_STAKE * SLASH_RATE_BPS as i128 / 10_000;
    assert_eq!(slashed, 2_000 * U + penalty);
    assert_eq!(s.vault_balance(), vault_before + slashed);
    let after = state(&s);
    assert_eq!(after.total_usdc, before.total_usdc - 2_000 * U + slashed);
    assert_eq!(after.active_liq, before.active_liq - 2_000 * U);
    assert_eq!(after.total_shares, before.total_shares);
    assert_eq!(s.vault().get_keeper_draw(&k), 0);
    let info = s.registry().get_keeper(&k);
    assert!(info.slashed);
    assert!(!info.has_active_draw);
    assert_eq!(
        (info.slash_count, info.total_slashed, info.stake),
        (1, slashed, KEEPER_STAKE - slashed)
    );
    assert_eq!(info.total_executions, 1);
    assert_eq!(info.successful_fills, 0);
    assert_books(&s);
    // Twice: no active draw any more.
    assert_eq!(code(s.registry().try_slash(&k)), 207);
    // A slashed keeper cannot draw again.
    s.mint(&k, 0);
    assert_eq!(code(s.vault().try_draw(&k, &(1 * U))), KEEPER_SLASHED);
    // It can leave with what is left of its stake, but not come back.
    s.registry().deregister(&k);
    assert_eq!(s.token().balance(&k), 2_000 * U + KEEPER_STAKE - slashed);
    s.mint(&k, MIN_STAKE);
    assert_eq!(
        code(
            s.registry()
                .try_register(&k, &String::from_str(&s.env, "again"))
        ),
        209
    );
    assert_eq!(code(s.vault().try_draw(&k, &(1 * U))), REG_NOT_REGISTERED);
}

fn write_off_only_by_registry(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let k = s.keeper(0);
    s.vault().draw(&k, &(1_000 * U));
    // The keeper writes its own draw off, naming itself as the registry.
    assert_eq!(code(s.vault().try_write_off(&k, &k, &0)), UNAUTHORIZED);
    // Naming the real registry without its authorisation fails the auth check.
    s.env.set_auths(&[]);
    assert!(s.vault().try_write_off(&s.registry_id, &k, &0).is_err());
    s.env.mock_all_auths();
    assert_eq!(s.vault().get_keeper_draw(&k), 1_000 * U);
    assert_books(&s);
}

fn registry_vault_only_entry_points(mode: Mode) {
    let s = Setup::new(mode);
    let k = s.keeper(0);
    // A keeper calling the vault-only functions directly, as itself: Unauthorized (203).
    assert_eq!(code(s.registry().try_mark_draw(&k, &k, &(1 * U))), 203);
    assert_eq!(code(s.registry().try_clear_draw(&k, &k)), 203);
    assert_eq!(
        code(
            s.registry()
                .try_record_execution(&k, &k, &true, &(1 * U), &1)
        ),
        203
    );
    // Naming the vault without the vault's authorisation: the auth check fails.
    s.env.set_auths(&[]);
    assert!(s
        .registry()
        .try_mark_draw(&s.vault_id, &k, &(1 * U))
        .is_err());
    assert!(s
        .registry()
        .try_record_execution(&s.vault_id, &k, &true, &(1 * U), &1)
        .is_err());
    s.env.mock_all_auths();
    let info = s.registry().get_keeper(&k);
    assert!(!info.has_active_draw);
    assert_eq!(info.total_executions, 0);
}

fn actors_must_authorise(mode: Mode) {
    let s = Setup::new(mode);
    let d = s.funded(1_000 * U);
    let k = s.keeper(0);
    s.env.set_auths(&[]);
    assert!(s.vault().try_deposit(&d, &(100 * U)).is_err());
    assert!(s.vault().try_draw(&k, &(1 * U)).is_err());
    assert!(s.vault().try_set_pause(&true, &true).is_err());
    assert!(s.registry().try_deregister(&k).is_err());
    s.env.mock_all_auths();
    s.vault().deposit(&d, &(100 * U));
    let auths = s.env.auths();
    assert!(
        auths.iter().any(|(a, _)| *a == d),
        "deposit needs the depositor's auth"
    );
    s.vault().set_pause(&true, &false);
    assert!(s.env.auths().iter().any(|(a, _)| *a == s.admin));
    assert_eq!(
        s.vault().get_pause(),
        PauseFlags {
            deposits: true,
            draws: false
        }
    );
    // slash is permissionless: it runs with no signature at all.
    s.vault().set_pause(&false, &false);
    s.vault().draw(&k, &(10 * U));
    s.advance(SLASH_TIMEOUT + 1);
    s.env.set_auths(&[]);
    let penalty = KEEPER_STAKE * SLASH_RATE_BPS as i128 / 10_000;
    assert_eq!(s.registry().slash(&k), 10 * U + penalty);
    s.env.mock_all_auths();
    assert_books(&s);
}

fn getters(mode: Mode) {
    let s = Setup::new(mode);
    assert_eq!(s.vault().get_config(), vault_config());
    assert_eq!(s.vault().get_registry(), s.registry_id);
    assert_eq!(s.vault().get_usdc(), s.usdc);
    assert_eq!(s.registry().get_vault(), s.vault_id);
    assert_eq!(s.vault().share_price(), 10_000_000);
    let nobody = Address::generate(&s.env);
    assert_eq!(s.vault().balance(&nobody), 0);
    assert_eq!(s.vault().get_keeper_draw(&nobody), 0);
    assert_eq!(s.vault().get_pause(), PauseFlags::default());
}

// Every event of both contracts, as emitted, equals the event its `#[contractevent]` struct
// defines (topics and data map): the contracts publish through their own shared code.
fn events_match_their_definitions(mode: Mode) {
    let s = Setup::unwired(mode, vault_config());
    let vault_events = |s: &Setup| -> std::vec::Vec<ContractEvent> {
        s.env
            .events()
            .all()
            .filter_by_contract(&s.vault_id)
            .events()
            .to_vec()
    };
    let registry_events = |s: &Setup| -> std::vec::Vec<ContractEvent> {
        s.env
            .events()
            .all()
            .filter_by_contract(&s.registry_id)
            .events()
            .to_vec()
    };

    s.vault().set_registry(&s.registry_id);
    let expected = RegistrySet {
        registry: s.registry_id.clone(),
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
    s.registry().set_vault(&s.vault_id);
    let expected = VaultSet {
        vault: s.vault_id.clone(),
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);

    s.vault().set_pause(&true, &false);
    let expected = PauseChanged {
        deposits: true,
        draws: false,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
    s.vault().set_pause(&false, &false);

    let d = s.funded(10_000 * U);
    s.vault().deposit(&d, &(10_000 * U));
    let expected = Deposited {
        depositor: d.clone(),
        amount: 10_000 * U,
        shares: 10_000 * U - DEAD_SHARES,
        dead_shares: DEAD_SHARES,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);

    let k = s.funded(KEEPER_STAKE + 100 * U);
    s.registry()
        .register(&k, &String::from_str(&s.env, "events"));
    let expected = KeeperRegistered {
        operator: k.clone(),
        name: String::from_str(&s.env, "events"),
        stake: MIN_STAKE,
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);
    s.registry().add_bond(&k, &(KEEPER_STAKE - MIN_STAKE));
    let expected = BondAdded {
        operator: k.clone(),
        amount: KEEPER_STAKE - MIN_STAKE,
        stake: KEEPER_STAKE,
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);

    s.vault().draw(&k, &(1_000 * U));
    let expected = Drawn {
        keeper: k.clone(),
        amount: 1_000 * U,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
    let expected = DrawMarked {
        keeper: k.clone(),
        amount: 1_000 * U,
        timestamp: START_TIME,
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);

    s.advance(10);
    s.vault().return_proceeds(&k, &(400 * U), &900);
    let expected = ProceedsReturned {
        keeper: k.clone(),
        amount: 400 * U,
        profit: 0,
        remaining: 600 * U,
        response_time_ms: 900,
        fee: 0,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
    let expected = DrawMarked {
        keeper: k.clone(),
        amount: 600 * U,
        timestamp: START_TIME,
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);

    s.vault().return_proceeds(&k, &(700 * U), &1_100);
    let expected = ProceedsReturned {
        keeper: k.clone(),
        amount: 700 * U,
        profit: 100 * U,
        remaining: 0,
        response_time_ms: 1_100,
        fee: 0,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
    let expected = [
        DrawCleared { keeper: k.clone() }.to_xdr(&s.env, &s.registry_id),
        ExecutionRecorded {
            keeper: k.clone(),
            success: true,
            profit: 100 * U,
            response_time_ms: 1_100,
        }
        .to_xdr(&s.env, &s.registry_id),
    ];
    assert_eq!(registry_events(&s), expected);

    s.vault().draw(&k, &(2_000 * U));
    s.advance(SLASH_TIMEOUT + 1);
    let slashed = s.registry().slash(&k);
    let expected = DrawWrittenOff {
        keeper: k.clone(),
        written_down: 2_000 * U,
        recovered: slashed,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
    let expected = KeeperSlashed {
        keeper: k.clone(),
        slashed,
        written_down: 2_000 * U,
        remaining_stake: KEEPER_STAKE - slashed,
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);

    s.registry().deregister(&k);
    let expected = KeeperDeregistered {
        operator: k.clone(),
        refund: KEEPER_STAKE - slashed,
    }
    .to_xdr(&s.env, &s.registry_id);
    assert_eq!(registry_events(&s), [expected]);

    s.vault().request_withdraw(&d, &(1_000 * U));
    let expected = WithdrawRequested {
        depositor: d.clone(),
        shares: 1_000 * U,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);

    s.advance(COOLDOWN);
    let paid = s.vault().withdraw(&d, &(1_000 * U));
    let expected = Withdrawn {
        depositor: d.clone(),
        shares: 1_000 * U,
        amount: paid,
    }
    .to_xdr(&s.env, &s.vault_id);
    assert_eq!(vault_events(&s), [expected]);
}

both_modes!(
    first_deposit,
    deposit_at_price_after_profit,
    deposit_errors,
    deposit_cap,
    constructor_rejects_bad_config,
    zero_shares_after_price_rise,
    withdraw_after_cooldown,
    withdraw_errors,
    slash_makes_the_pool_whole,
    draw_and_full_return_with_profit,
    partial_return_keeps_timestamp,
    return_larger_than_draw_books_profit_only_on_own_draw,
    return_errors,
    draw_errors,
    slash_timing_and_ban,
    write_off_only_by_registry,
    registry_vault_only_entry_points,
    actors_must_authorise,
    getters,
    events_match_their_definitions,
);
