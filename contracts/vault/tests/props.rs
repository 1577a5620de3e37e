//! Property test: random sequences of pool operations (deposits, withdrawals, draws, returns
//! with profit, partial returns, slashes realising losses, registrations, pauses, time) with
//! several depositors and keepers. After every step:
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
use soroban_sdk::{Address, String};

const DEPOSITORS: usize = 4;
const KEEPERS: usize = 3;
const CASES: u32 = 20;
const OPS: usize = 500;
const WASM_CASES: u32 = 2;
const WASM_OPS: usize = 150;

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
        let s = Setup::new(mode);
        let depositors = (0..DEPOSITORS).map(|_| s.funded(0)).collect();
        let keepers = (0..KEEPERS).map(|_| s.keeper(0)).collect();
        World {
            s,
            depositors,
            keepers,
            claims: vec![Claim::default(); DEPOSITORS],
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
                let room = (st.total_usdc - st.active_liq).min(MAX_DRAW);
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
                    assert_eq!(booked, profit);
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
