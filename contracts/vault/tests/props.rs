//! Property test: random sequences of pool operations (deposits, withdrawals, withdrawal
//! requests, two-step draws, returns with profit, partial returns, flash fills through an
//! approved executor that gain or lose, bonds added, slashes, registrations, pauses, time)
//! with several depositors and keepers, a 10 % keeper fee and profit unlocking. After every
//! step:
//!   1. the depositors' shares (with the vault's dead shares) sum to total_shares;
//!   2. the vault's USDC balance == total_usdc - active_liq;
//!   3. no depositor can hold or have withdrawn more than it deposited plus its pro-rata
//!      share of the pool's income (profit, recovered stake) plus rounding dust of others;
//!   4. vault and registry agree on who has an active draw and how much is out;
//!   5. the pending withdrawal requests add up, each within its holding, and the locked profit
//!      stays within the booked profit (income is credited to holders as it unlocks);
//!   6. no outstanding draw exceeds the keeper's draw limit (what its bond covers).
//!
//! Size: CASES sequences of OPS operations (20 x 500 = 10,000 operations) on the native
//! contracts, plus WASM_CASES x WASM_OPS on the built wasm. Override with the environment
//! variables VAULT_PROP_CASES / VAULT_PROP_OPS. The sequences come from a fixed seed (1;
//! VAULT_PROP_SEED for others), so every run draws the same ones.
mod common;

use common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use soroban_sdk::token::TokenClient;
use soroban_sdk::{
    contract, contractimpl, map, symbol_short, Address, BytesN, Env, IntoVal, Map, String, Symbol,
    Val,
};
use vault::VaultConfig;

/// A lending pool stand-in for flash fills: `submit_with_allowance` pulls `repay` USDC from the
/// executor (Blend's `transfer_from` against the allowance) and pays it `pay` USDC, so a flash
/// fill gains `pay - repay` (negative: the executor cannot repay, the transaction reverts).
#[contract]
pub struct FlashPool;

#[contractimpl]
impl FlashPool {
    pub fn init(env: Env, usdc: Address) {
        env.storage().instance().set(&symbol_short!("usdc"), &usdc);
    }
    pub fn get_reserve_list(env: Env) -> soroban_sdk::Vec<Address> {
        let usdc: Address = env.storage().instance().get(&symbol_short!("usdc")).unwrap();
        soroban_sdk::vec![&env, usdc]
    }
    pub fn submit_with_allowance(
        env: Env,
        _from: Address,
        spender: Address,
        to: Address,
        requests: soroban_sdk::Vec<Map<Symbol, Val>>,
    ) -> Val {
        let usdc: Address = env.storage().instance().get(&symbol_short!("usdc")).unwrap();
        let token = TokenClient::new(&env, &usdc);
        let me = env.current_contract_address();
        for r in requests.iter() {
            let kind: u32 = r.get(Symbol::new(&env, "request_type")).unwrap().into_val(&env);
            let amount: i128 = r.get(symbol_short!("amount")).unwrap().into_val(&env);
            match kind {
                5 => token.transfer_from(&me, &spender, &me, &amount),
                3 => token.transfer(&me, &to, &amount),
                _ => {}
            }
        }
        ().into_val(&env)
    }
}

const DEPOSITORS: usize = 4;
const KEEPERS: usize = 3;
const CASES: u32 = 20;
const OPS: usize = 500;
const WASM_CASES: u32 = 2;
const WASM_OPS: usize = 150;
const FEE_BPS: u32 = 1_000;

#[derive(Clone, Debug)]
enum Op {
    Deposit { who: usize, amount: i128 },
    Withdraw { who: usize, bps: i128 },
    Draw { keeper: usize, bps: i128 },
    ReturnProfit { keeper: usize, profit: i128 },
    ReturnPartial { keeper: usize, bps: i128 },
    Slash { keeper: usize },
    Register { keeper: usize },
    Deregister { keeper: usize },
    Pause { deposits: bool, draws: bool },
    Advance { seconds: u64 },
    Bond { keeper: usize, amount: i128 },
    Flash { bps: i128, gain: i128 },
    RequestWithdraw { who: usize, bps: i128 },
}

fn op() -> impl Strategy<Value = Op> {
    let who = 0..DEPOSITORS;
    let keeper = 0..KEEPERS;
    prop_oneof![
        6 => (who.clone(), prop_oneof![1i128..5_000, 1_000 * U..50_000 * U, 1i128..200 * U])
            .prop_map(|(who, amount)| Op::Deposit { who, amount }),
        4 => (who, 1i128..=10_000).prop_map(|(who, bps)| Op::Withdraw { who, bps }),
        // Mostly a share of what can be drawn, sometimes a raw amount (often too large).
        5 => (keeper.clone(), prop_oneof![3 => 1i128..=10_000, 1 => 10_001i128..20_000])
            .prop_map(|(keeper, bps)| Op::Draw { keeper, bps }),
        3 => (keeper.clone(), prop_oneof![Just(0i128), 1i128..1_000, 1 * U..5_000 * U])
            .prop_map(|(keeper, profit)| Op::ReturnProfit { keeper, profit }),
        2 => (keeper.clone(), 1i128..10_000).prop_map(|(keeper, bps)| Op::ReturnPartial { keeper, bps }),
        1 => keeper.clone().prop_map(|keeper| Op::Slash { keeper }),
        2 => keeper.clone().prop_map(|keeper| Op::Register { keeper }),
        1 => keeper.prop_map(|keeper| Op::Deregister { keeper }),
        1 => (proptest::bool::weighted(0.2), proptest::bool::weighted(0.2))
            .prop_map(|(deposits, draws)| Op::Pause { deposits, draws }),
        4 => prop_oneof![0u64..120, 500u64..700, 3_000u64..4_000]
            .prop_map(|seconds| Op::Advance { seconds }),
        1 => (0..KEEPERS, prop_oneof![1i128..1_000, 1_000 * U..100_000 * U])
            .prop_map(|(keeper, amount)| Op::Bond { keeper, amount }),
        2 => (0..DEPOSITORS, 0i128..=10_000).prop_map(|(who, bps)| Op::RequestWithdraw { who, bps }),
        // A flash fill of a share of idle USDC (sometimes more than there is) gaining `gain`
        // (sometimes losing: it must revert and change nothing).
        4 => (
            prop_oneof![4 => 1i128..=10_000, 1 => 10_001i128..20_000],
            prop_oneof![3 => 0i128..5_000 * U, 1 => -(100 * U)..0i128]
        )
            .prop_map(|(bps, gain)| Op::Flash { bps, gain }),
    ]
}

/// Per depositor: what it may at most own or have taken out.
#[derive(Default, Clone)]
struct Claim {
    deposited: i128,
    withdrawn: i128,
    /// Pro-rata income (rounded up) plus rounding dust from other depositors' operations.
    accrued: i128,
}

struct World {
    s: Setup,
    depositors: Vec<Address>,
    keepers: Vec<Address>,
    claims: Vec<Claim>,
    /// An executor the registry deployed (approved for flash draws) and the pool it fills on.
    executor: Address,
    pool: Address,
    /// Booked profit already unlocked (and credited to the holders of the time).
    unlocked_seen: i128,
    successes: usize,
    by_kind: std::collections::BTreeMap<&'static str, (usize, usize)>,
}

fn ceil_div(a: i128, b: i128) -> i128 {
    (a + b - 1) / b
}

impl World {
    fn new(mode: Mode) -> Self {
        let config = VaultConfig {
            keeper_fee_bps: FEE_BPS,
            ..vault_config()
        };
        let s = Setup::unwired(mode, config);
        // The executor's owner authorises `on_flash`, below the vault's `flash_draw`.
        s.env.mock_all_auths_allowing_non_root_auth();
        s.vault().set_registry(&s.registry_id);
        s.registry().set_vault(&s.vault_id);
        let depositors = (0..DEPOSITORS).map(|_| s.funded(0)).collect();
        let keepers = (0..KEEPERS).map(|_| s.keeper(0)).collect();
        let pool = s.env.register(FlashPool, ());
        FlashPoolClient::new(&s.env, &pool).init(&s.usdc);
        s.registry()
            .set_venues(&soroban_sdk::vec![&s.env, pool.clone()]);
        let owner = s.funded(MIN_STAKE);
        let executor = s
            .registry()
            .deploy_executor(&owner, &BytesN::from_array(&s.env, &[1; 32]));
        s.env.invoke_contract::<()>(
            &executor,
            &Symbol::new(&s.env, "register"),
            soroban_sdk::vec![
                &s.env,
                s.registry_id.to_val(),
                String::from_str(&s.env, "exec").to_val()
            ],
        );
        World {
            s,
            depositors,
            keepers,
            claims: vec![Claim::default(); DEPOSITORS],
            executor,
            pool,
            unlocked_seen: 0,
            successes: 0,
            by_kind: Default::default(),
        }
    }

    /// Credits pool income to every depositor pro rata (rounded up: an upper bound).
    fn accrue_income(&mut self, income: i128) {
        if income <= 0 {
            return;
        }
        let total = self.s.vault().get_state().total_shares;
        for (i, d) in self.depositors.iter().enumerate() {
            let shares = self.s.vault().get_depositor(d).shares;
            if shares > 0 {
                self.claims[i].accrued += ceil_div(income * shares, total);
            }
        }
    }

    /// Income reaches the share price only as it unlocks: credit what unlocked since the last
    /// look to the depositors holding shares now.
    fn accrue_unlocked(&mut self) {
        let st = self.s.vault().get_state();
        let unlocked = st.total_profit - self.s.vault().get_locked_profit();
        let delta = unlocked - self.unlocked_seen;
        assert!(delta >= 0, "unlocked profit went down: {delta}");
        self.accrue_income(delta);
        self.unlocked_seen = unlocked;
    }

    /// Another depositor's deposit or withdrawal rounds toward the pool: the others may gain
    /// up to one share's value (+1 unit) from it.
    fn accrue_dust(&mut self, actor: usize, price_before: i128) {
        let dust = ceil_div(price_before, 10_000_000) + 1;
        for (i, d) in self.depositors.iter().enumerate() {
            if i != actor && self.s.vault().get_depositor(d).shares > 0 {
                self.claims[i].accrued += dust;
            }
        }
    }

    fn apply(&mut self, op: &Op) {
        let before = self.successes;
        self.accrue_unlocked();
        self.apply_inner(op);
        self.accrue_unlocked();
        let kind = format!("{op:?}");
        let kind: &'static str = Box::leak(
            kind.split_whitespace()
                .next()
                .unwrap()
                .to_string()
                .into_boxed_str(),
        );
        let e = self.by_kind.entry(kind).or_default();
        e.0 += 1;
        e.1 += self.successes - before;
    }

    fn apply_inner(&mut self, op: &Op) {
        let v = self.s.vault();
        let r = self.s.registry();
        let price = v.share_price();
        match *op {
            Op::Deposit { who, amount } => {
                let d = self.depositors[who].clone();
                self.s.mint(&d, amount);
                if v.try_deposit(&d, &amount).is_ok() {
                    self.claims[who].deposited += amount;
                    self.accrue_dust(who, price);
                    self.successes += 1;
                }
            }
            Op::Withdraw { who, bps } => {
                let d = self.depositors[who].clone();
                let held = v.get_depositor(&d).shares;
                let shares = (held * bps / 10_000).max(1);
                if let Ok(Ok(paid)) = v.try_withdraw(&d, &shares) {
                    self.claims[who].withdrawn += paid;
                    self.accrue_dust(who, price);
                    self.successes += 1;
                }
            }
            Op::Draw { keeper, bps } => {
                let st = v.get_state();
                // Mostly within the keeper's bond; the raw amounts below test the limit.
                let limit = match r.try_get_keeper(&self.keepers[keeper]) {
                    Ok(Ok(info)) => info.draw_limit,
                    _ => MAX_DRAW,
                };
                let room = (st.total_usdc - st.active_liq).min(MAX_DRAW).min(limit);
                let amount = if bps > 10_000 {
                    bps * U
                } else {
                    room * bps / 10_000
                };
                if v.try_draw(&self.keepers[keeper], &amount).is_ok() {
                    self.successes += 1;
                }
            }
            Op::ReturnProfit { keeper, profit } => {
                let k = self.keepers[keeper].clone();
                let out = v.get_keeper_draw(&k);
                if out > 0 {
                    // The keeper earned the profit on its liquidation.
                    self.s.mint(&k, profit);
                    let booked = v.return_proceeds(&k, &(out + profit), &(profit as u64 % 5_000));
                    assert_eq!(booked, profit - profit * FEE_BPS as i128 / 10_000);
                    self.successes += 1;
                } else {
                    assert!(v.try_return_proceeds(&k, &(1 + profit), &1).is_err());
                }
            }
            Op::ReturnPartial { keeper, bps } => {
                let k = self.keepers[keeper].clone();
                let out = v.get_keeper_draw(&k);
                let part = out * bps / 10_000;
                if part > 0 {
                    let ts = r.get_keeper(&k).draw_timestamp;
                    assert_eq!(v.return_proceeds(&k, &part, &10), 0);
                    assert_eq!(v.get_keeper_draw(&k), out - part);
                    assert_eq!(
                        r.get_keeper(&k).draw_timestamp,
                        ts,
                        "partial return kept the clock"
                    );
                    self.successes += 1;
                }
            }
            Op::Slash { keeper } => {
                let k = self.keepers[keeper].clone();
                let before = v.get_state();
                let out = v.get_keeper_draw(&k);
                match r.try_slash(&k) {
                    Ok(Ok(slashed)) => {
                        let after = v.get_state();
                        assert_eq!(after.total_usdc, before.total_usdc - out + slashed);
                        assert_eq!(after.active_liq, before.active_liq - out);
                        assert!(r.get_keeper(&k).slashed);
                        assert!(slashed >= out, "the bond covers the draw");
                        self.successes += 1;
                    }
                    _ => assert_eq!(v.get_state(), before),
                }
            }
            Op::Register { keeper } => {
                // A slashed keeper is banned for good: its slot goes to a new operator.
                if let Ok(Ok(info)) = r.try_get_keeper(&self.keepers[keeper]) {
                    if info.slashed && r.try_deregister(&self.keepers[keeper]).is_ok() {
                        self.keepers[keeper] = self.s.funded(0);
                    }
                }
                let k = self.keepers[keeper].clone();
                self.s.mint(&k, MIN_STAKE);
                if r.try_register(&k, &String::from_str(&self.s.env, "k"))
                    .is_ok()
                {
                    self.successes += 1;
                }
            }
            Op::Deregister { keeper } => {
                if r.try_deregister(&self.keepers[keeper]).is_ok() {
                    self.successes += 1;
                }
            }
            Op::Pause { deposits, draws } => {
                v.set_pause(&deposits, &draws);
            }
            Op::Advance { seconds } => self.s.advance(seconds),
            Op::Bond { keeper, amount } => {
                let k = self.keepers[keeper].clone();
                self.s.mint(&k, amount);
                if r.try_add_bond(&k, &amount).is_ok() {
                    self.successes += 1;
                }
            }
            Op::Flash { bps, gain } => {
                let st = v.get_state();
                let idle = (st.total_usdc - st.active_liq).min(MAX_DRAW);
                let amount = if bps > 10_000 { bps * U } else { idle * bps / 10_000 };
                let env = &self.s.env;
                let request = |kind: u32, amount: i128| -> Map<Symbol, Val> {
                    map![
                        env,
                        (symbol_short!("address"), self.s.usdc.to_val()),
                        (symbol_short!("amount"), amount.into_val(env)),
                        (Symbol::new(env, "request_type"), kind.into_val(env))
                    ]
                };
                // The pool is paid `amount` and pays back `amount + gain`.
                self.s.mint(&self.pool, amount.max(0) + gain.max(0));
                let call: Map<Symbol, Val> = map![
                    env,
                    (Symbol::new(env, "min_proceeds"), 0i128.into_val(env)),
                    (symbol_short!("pool"), self.pool.to_val()),
                    (
                        symbol_short!("requests"),
                        soroban_sdk::vec![env, request(5, amount), request(3, amount + gain)]
                            .to_val()
                    ),
                    (symbol_short!("swaps"), soroban_sdk::Vec::<Val>::new(env).to_val())
                ];
                let before = v.get_state();
                match v.try_flash_draw(&self.executor, &amount, &call.to_val(), &7) {
                    Ok(Ok(booked)) => {
                        assert!(gain >= 0 && amount > 0);
                        assert_eq!(booked, gain - gain * FEE_BPS as i128 / 10_000);
                        let after = v.get_state();
                        assert_eq!(after.total_usdc, before.total_usdc + booked);
                        assert_eq!(after.active_liq, before.active_liq);
                        self.successes += 1;
                    }
                    other => {
                        if std::env::var("PROPS_DEBUG").is_ok() {
                            eprintln!("flash {amount} {gain}: {other:?}");
                        }
                        assert_eq!(v.get_state(), before, "a failed flash changes nothing")
                    }
                }
            }
            Op::RequestWithdraw { who, bps } => {
                let d = self.depositors[who].clone();
                let held = v.get_depositor(&d).shares;
                if v.try_request_withdraw(&d, &(held * bps / 10_000)).is_ok() {
                    self.successes += 1;
                }
            }
        }
    }

    fn check(&self, step: usize, op: &Op) {
        let v = self.s.vault();
        let r = self.s.registry();
        let st = v.get_state();
        let ctx = || format!("after step {step} ({op:?}): {st:?}");

        // 1. shares
        let mut shares: i128 = v.get_depositor(&self.s.vault_id).shares;
        for d in &self.depositors {
            shares += v.get_depositor(d).shares;
        }
        assert_eq!(shares, st.total_shares, "sum of shares, {}", ctx());

        // 2. books
        assert_eq!(
            self.s.vault_balance(),
            st.total_usdc - st.active_liq,
            "balance, {}",
            ctx()
        );
        assert!(
            st.active_liq >= 0 && st.total_usdc >= st.active_liq,
            "{}",
            ctx()
        );

        // 3. no depositor beyond deposit + pro-rata income
        for (i, d) in self.depositors.iter().enumerate() {
            let c = &self.claims[i];
            let value = v.balance(d);
            assert!(
                c.withdrawn + value <= c.deposited + c.accrued,
                "depositor {i}: withdrawn {} + value {value} > deposited {} + accrued {}, {}",
                c.withdrawn,
                c.deposited,
                c.accrued,
                ctx()
            );
        }

        // 5. the pending requests are the depositors' requests, each within its holding; the
        //    profit still locked is within what was booked
        let mut requested = 0;
        for d in &self.depositors {
            let info = v.get_depositor(d);
            assert!(info.withdraw_request <= info.shares, "request above holding, {}", ctx());
            requested += info.withdraw_request;
        }
        assert_eq!(requested, st.pending_shares, "pending shares, {}", ctx());
        let locked = v.get_locked_profit();
        assert!(locked >= 0 && locked <= st.total_profit, "locked profit, {}", ctx());

        // 6. no outstanding draw above what the keeper's bond covers
        for k in &self.keepers {
            if let Ok(Ok(info)) = r.try_get_keeper(k) {
                assert!(info.draw_amount <= info.draw_limit, "draw above bond, {}", ctx());
            }
        }

        // 4. vault and registry agree on draws
        let mut out = 0;
        for k in &self.keepers {
            let drawn = v.get_keeper_draw(k);
            out += drawn;
            match r.try_get_keeper(k) {
                Ok(Ok(info)) => {
                    assert_eq!(info.has_active_draw, drawn > 0, "draw flag, {}", ctx());
                    assert_eq!(info.draw_amount, drawn, "draw amount, {}", ctx());
                }
                _ => assert_eq!(drawn, 0, "unregistered keeper with a draw, {}", ctx()),
            }
        }
        assert_eq!(out, st.active_liq, "active_liq == sum of draws, {}", ctx());
    }
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run(mode: Mode, cases: u32, ops: usize) -> (usize, usize) {
    // Seeded, so a run is reproducible and CI cannot pass or fail by the draw
    // (VAULT_PROP_SEED picks other sequences).
    let seed = env_or("VAULT_PROP_SEED", 1usize) as u64;
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    });
    let totals = std::cell::Cell::new((0usize, 0usize));
    let kinds =
        std::cell::RefCell::new(std::collections::BTreeMap::<&'static str, (usize, usize)>::new());
    runner
        .run(&proptest::collection::vec(op(), ops), |seq| {
            let mut w = World::new(mode);
            for (i, o) in seq.iter().enumerate() {
                w.apply(o);
                w.check(i, o);
            }
            for (k, (n, ok)) in &w.by_kind {
                let mut m = kinds.borrow_mut();
                let e = m.entry(k).or_default();
                e.0 += n;
                e.1 += ok;
            }
            let (n, ok) = totals.get();
            totals.set((n + seq.len(), ok + w.successes));
            Ok(())
        })
        .unwrap();
    println!(
        "{mode:?} operations (attempted, succeeded): {:?}",
        kinds.borrow()
    );
    totals.get()
}

#[test]
fn invariants_hold_over_random_operation_sequences_native() {
    let cases = env_or("VAULT_PROP_CASES", CASES as usize) as u32;
    let ops = env_or("VAULT_PROP_OPS", OPS);
    let (n, ok) = run(Mode::Native, cases, ops);
    println!("native: {n} operations in {cases} sequences, {ok} succeeded");
    assert!(n >= (cases as usize) * ops);
    assert!(ok * 4 >= n, "too few operations succeeded: {ok} of {n}");
}

#[test]
fn invariants_hold_over_random_operation_sequences_wasm() {
    let (n, ok) = run(Mode::Wasm, WASM_CASES, WASM_OPS);
    println!("wasm: {n} operations, {ok} succeeded");
    assert!(ok * 4 >= n, "too few operations succeeded: {ok} of {n}");
}
