extern crate std;

use dex_pair::DexPair;
use proptest::prelude::*;
use soroban_sdk::{
    testutils::{Address as _, BytesN as _, Ledger as _, MockAuth, MockAuthInvoke},
    token::{StellarAssetClient, TokenClient},
    vec, Address, BytesN, Env, IntoVal, Vec,
};

use crate::{math, DexRouter, DexRouterClient, RouterError};

const DAY: u64 = 86_400;

struct Fixture<'a> {
    e: Env,
    admin: Address,
    router: DexRouterClient<'a>,
    /// Sorted token addresses.
    tokens: std::vec::Vec<Address>,
    lp: Address,
}

/// Three tokens A < B < C, pairs A/B and B/C registered (native pair contracts), each seeded
/// with `reserve` on both sides.
fn fixture<'a>(reserve: i128) -> Fixture<'a> {
    let e = Env::default();
    e.mock_all_auths();
    e.ledger().set_timestamp(1_000_000);
    let admin = Address::generate(&e);
    let mut tokens: std::vec::Vec<Address> =
        (0..3).map(|_| e.register_stellar_asset_contract_v2(admin.clone()).address()).collect();
    tokens.sort();
    let router_id = e.register(DexRouter, (admin.clone(), BytesN::<32>::random(&e)));
    let router = DexRouterClient::new(&e, &router_id);
    let lp = Address::generate(&e);
    for t in &tokens {
        StellarAssetClient::new(&e, t).mint(&lp, &(1_000_000_000 * 10_000_000));
    }
    for w in [(0, 1), (1, 2)] {
        let pair = e.register(DexPair, (router_id.clone(), tokens[w.0].clone(), tokens[w.1].clone()));
        router.register_pair(&pair);
        router.add_liquidity(&tokens[w.0], &tokens[w.1], &reserve, &reserve, &0, &0, &lp, &(1_000_000 + DAY));
    }
    Fixture { e, admin, router, tokens, lp }
}

impl Fixture<'_> {
    fn trader(&self, token: usize, amount: i128) -> Address {
        let t = Address::generate(&self.e);
        StellarAssetClient::new(&self.e, &self.tokens[token]).mint(&t, &amount);
        t
    }
    fn bal(&self, token: usize, who: &Address) -> i128 {
        TokenClient::new(&self.e, &self.tokens[token]).balance(who)
    }
    fn path(&self, idx: &[usize]) -> Vec<Address> {
        let mut p = Vec::new(&self.e);
        for i in idx {
            p.push_back(self.tokens[*i].clone());
        }
        p
    }
    fn deadline(&self) -> u64 {
        1_000_000 + 60
    }
}

#[test]
fn quote_matches_pair_math_and_swap_pays_it() {
    let f = fixture(10_000_0000000);
    let amount_in = 100_0000000;
    let quoted = f.router.router_get_amounts_out(&amount_in, &f.path(&[0, 1]));
    let expect = math::amount_out(amount_in, 10_000_0000000, 10_000_0000000).unwrap();
    assert_eq!(quoted, vec![&f.e, amount_in, expect]);
    let t = f.trader(0, amount_in);
    let amounts = f.router.swap_exact_tokens_for_tokens(&amount_in, &expect, &f.path(&[0, 1]), &t, &f.deadline());
    assert_eq!(amounts, quoted);
    assert_eq!(f.bal(0, &t), 0);
    assert_eq!(f.bal(1, &t), expect);
    // reversed order of the same pair
    let back = f.router.router_get_amounts_out(&expect, &f.path(&[1, 0]));
    assert!(back.get_unchecked(1) < amount_in, "a round trip pays the fee twice");
}

#[test]
fn amount_out_min_above_quote_is_refused_and_nothing_moves() {
    let f = fixture(10_000_0000000);
    let t = f.trader(0, 50_0000000);
    let q = f.router.router_get_amounts_out(&50_0000000, &f.path(&[0, 1])).get_unchecked(1);
    let res = f.router.try_swap_exact_tokens_for_tokens(&50_0000000, &(q + 1), &f.path(&[0, 1]), &t, &f.deadline());
    assert_eq!(res, Err(Ok(RouterError::InsufficientOutputAmount.into())));
    assert_eq!(f.bal(0, &t), 50_0000000);
    assert_eq!(f.router.get_reserves(&f.tokens[0], &f.tokens[1]), (10_000_0000000, 10_000_0000000));
}

#[test]
fn multi_hop_path_swaps_through_both_pairs() {
    let f = fixture(10_000_0000000);
    let t = f.trader(2, 20_0000000);
    let path = f.path(&[2, 1, 0]);
    let q = f.router.router_get_amounts_out(&20_0000000, &path);
    assert_eq!(q.len(), 3);
    let amounts = f.router.swap_exact_tokens_for_tokens(&20_0000000, &0, &path, &t, &f.deadline());
    assert_eq!(amounts, q);
    assert_eq!(f.bal(0, &t), q.get_unchecked(2));
    assert_eq!(f.bal(1, &t), 0, "the middle token never reaches the trader");
}

#[test]
fn exact_output_swap_and_its_cap() {
    let f = fixture(10_000_0000000);
    let t = f.trader(0, 1_000_0000000);
    let want = 30_0000000;
    let need = f.router.router_get_amounts_in(&want, &f.path(&[0, 1])).get_unchecked(0);
    assert_eq!(need, math::amount_in(want, 10_000_0000000, 10_000_0000000).unwrap());
    let res = f.router.try_swap_tokens_for_exact_tokens(&want, &(need - 1), &f.path(&[0, 1]), &t, &f.deadline());
    assert_eq!(res, Err(Ok(RouterError::ExcessiveInputAmount.into())));
    f.router.swap_tokens_for_exact_tokens(&want, &need, &f.path(&[0, 1]), &t, &f.deadline());
    assert_eq!(f.bal(1, &t), want);
    assert_eq!(f.bal(0, &t), 1_000_0000000 - need);
}

#[test]
fn expired_deadline_is_refused() {
    let f = fixture(10_000_0000000);
    let t = f.trader(0, 10_0000000);
    let res = f.router.try_swap_exact_tokens_for_tokens(&10_0000000, &0, &f.path(&[0, 1]), &t, &(1_000_000 - 1));
    assert_eq!(res, Err(Ok(RouterError::Expired.into())));
}

#[test]
fn paused_venue_refuses_swaps_and_quotes_until_resumed() {
    let f = fixture(10_000_0000000);
    let t = f.trader(0, 10_0000000);
    f.router.set_paused(&true);
    assert!(f.router.is_paused());
    assert_eq!(
        f.router.try_swap_exact_tokens_for_tokens(&10_0000000, &0, &f.path(&[0, 1]), &t, &f.deadline()),
        Err(Ok(RouterError::Paused.into()))
    );
    assert_eq!(
        f.router.try_router_get_amounts_out(&10_0000000, &f.path(&[0, 1])),
        Err(Ok(RouterError::Paused.into()))
    );
    f.router.set_paused(&false);
    f.router.swap_exact_tokens_for_tokens(&10_0000000, &0, &f.path(&[0, 1]), &t, &f.deadline());
    assert_eq!(f.bal(0, &t), 0);
}

#[test]
fn only_the_admin_can_pause() {
    let f = fixture(10_000_0000000);
    let stranger = Address::generate(&f.e);
    f.e.set_auths(&[]);
    let res = f
        .router
        .mock_auths(&[MockAuth {
            address: &stranger,
            invoke: &MockAuthInvoke {
                contract: &f.router.address,
                fn_name: "set_paused",
                args: (true,).into_val(&f.e),
                sub_invokes: &[],
            },
        }])
        .try_set_paused(&true);
    assert!(res.is_err());
    assert!(!f.router.is_paused());
    assert_eq!(f.router.get_admin(), f.admin);
}

#[test]
fn bad_paths_and_missing_pairs() {
    let f = fixture(10_000_0000000);
    assert_eq!(
        f.router.try_router_get_amounts_out(&1_0000000, &f.path(&[0])),
        Err(Ok(RouterError::InvalidPath.into()))
    );
    assert_eq!(
        f.router.try_router_get_amounts_out(&1_0000000, &f.path(&[0, 2])),
        Err(Ok(RouterError::PairNotFound.into()))
    );
    assert_eq!(
        f.router.try_router_get_amounts_out(&0, &f.path(&[0, 1])),
        Err(Ok(RouterError::InvalidAmount.into()))
    );
    assert_eq!(
        f.router.try_router_get_amounts_in(&10_000_0000000, &f.path(&[0, 1])),
        Err(Ok(RouterError::InsufficientLiquidity.into()))
    );
}

#[test]
fn add_liquidity_keeps_the_ratio_and_remove_returns_it() {
    let f = fixture(10_000_0000000);
    let (a, b, shares) = f.router.add_liquidity(
        &f.tokens[0], &f.tokens[1], &100_0000000, &500_0000000, &0, &0, &f.lp, &f.deadline(),
    );
    assert_eq!((a, b), (100_0000000, 100_0000000));
    assert_eq!(shares, 100_0000000);
    let res = f.router.try_add_liquidity(
        &f.tokens[0], &f.tokens[1], &100_0000000, &50_0000000, &100_0000000, &0, &f.lp, &f.deadline(),
    );
    assert_eq!(res, Err(Ok(RouterError::InsufficientAAmount.into())));
    let before = f.bal(1, &f.lp);
    // reversed token order: amounts come back in the caller's order
    let (rb, ra) = f.router.remove_liquidity(&f.tokens[1], &f.tokens[0], &shares, &0, &0, &f.lp, &f.deadline());
    assert_eq!((ra, rb), (100_0000000, 100_0000000));
    assert_eq!(f.bal(1, &f.lp), before + rb);
}

#[test]
fn foreign_pairs_are_not_adopted() {
    let f = fixture(10_000_0000000);
    let other_router = Address::generate(&f.e);
    let pair = f.e.register(DexPair, (other_router, f.tokens[0].clone(), f.tokens[2].clone()));
    assert_eq!(f.router.try_register_pair(&pair), Err(Ok(RouterError::ForeignPair.into())));
    assert_eq!(f.router.all_pairs().len(), 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Any sequence of exact-input swaps in either direction never lowers the pair's
    /// reserve product, and the reserves always equal the pair's token balances.
    #[test]
    fn reserve_product_never_falls(
        reserve_a in 100_0000000i128..1_000_000_0000000,
        swaps in proptest::collection::vec((any::<bool>(), 1i128..10_000_0000000), 1..8),
    ) {
        let f = fixture(reserve_a);
        let pair = f.router.router_pair_for(&f.tokens[0], &f.tokens[1]);
        let mut k = reserve_a * reserve_a;
        for (dir, amt) in swaps {
            let (from, to) = if dir { (0, 1) } else { (1, 0) };
            let q = f.router.router_get_amounts_out(&amt, &f.path(&[from, to])).get_unchecked(1);
            if q == 0 { continue; }
            let t = f.trader(from, amt);
            f.router.swap_exact_tokens_for_tokens(&amt, &q, &f.path(&[from, to]), &t, &f.deadline());
            prop_assert_eq!(f.bal(to, &t), q);
            let (r0, r1) = f.router.get_reserves(&f.tokens[0], &f.tokens[1]);
            prop_assert!(r0 * r1 >= k);
            prop_assert_eq!(f.bal(0, &pair), r0);
            prop_assert_eq!(f.bal(1, &pair), r1);
            k = r0 * r1;
        }
    }
}
