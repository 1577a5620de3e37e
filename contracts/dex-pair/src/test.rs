extern crate std;

use proptest::prelude::*;
use soroban_sdk::{
    testutils::Address as _,
    token::{StellarAssetClient, TokenClient},
    Address, Env,
};

use crate::{math, DexPair, DexPairClient, PairError};

struct Fixture<'a> {
    e: Env,
    pair: DexPairClient<'a>,
    t0: TokenClient<'a>,
    t1: TokenClient<'a>,
    a0: StellarAssetClient<'a>,
    a1: StellarAssetClient<'a>,
    lp: Address,
}

fn fixture<'a>() -> Fixture<'a> {
    let e = Env::default();
    e.mock_all_auths();
    let admin = Address::generate(&e);
    let t0 = e.register_stellar_asset_contract_v2(admin.clone()).address();
    let t1 = e.register_stellar_asset_contract_v2(admin.clone()).address();
    let factory = Address::generate(&e);
    let pair = e.register(DexPair, (factory, t0.clone(), t1.clone()));
    let lp = Address::generate(&e);
    Fixture {
        pair: DexPairClient::new(&e, &pair),
        t0: TokenClient::new(&e, &t0),
        t1: TokenClient::new(&e, &t1),
        a0: StellarAssetClient::new(&e, &t0),
        a1: StellarAssetClient::new(&e, &t1),
        lp,
        e,
    }
}

impl Fixture<'_> {
    fn seed(&self, r0: i128, r1: i128) -> i128 {
        self.a0.mint(&self.pair.address, &r0);
        self.a1.mint(&self.pair.address, &r1);
        self.pair.deposit(&self.lp)
    }
}

#[test]
fn first_deposit_locks_minimum_liquidity() {
    let f = fixture();
    let shares = f.seed(4_000_0000000, 1_000_0000000);
    // sqrt(4e10 * 1e10) = 2e10
    assert_eq!(shares, 2_000_0000000 - math::MINIMUM_LIQUIDITY);
    assert_eq!(f.pair.total_shares(), 2_000_0000000);
    assert_eq!(f.pair.balance(&f.pair.address), math::MINIMUM_LIQUIDITY);
    assert_eq!(f.pair.get_reserves(), (4_000_0000000, 1_000_0000000));
}

#[test]
fn second_deposit_is_pro_rata_and_floors() {
    let f = fixture();
    f.seed(4_000_0000000, 1_000_0000000);
    let other = Address::generate(&f.e);
    f.a0.mint(&f.pair.address, &400_0000000);
    f.a1.mint(&f.pair.address, &200_0000000); // excess on side 1 is donated
    let shares = f.pair.deposit(&other);
    assert_eq!(shares, 200_0000000);
    assert_eq!(f.pair.get_reserves(), (4_400_0000000, 1_200_0000000));
}

#[test]
fn swap_exact_quote_succeeds_and_one_more_fails() {
    let f = fixture();
    f.seed(1_000_0000000, 1_000_0000000);
    let trader = Address::generate(&f.e);
    let amount_in = 10_0000000;
    let out = math::amount_out(amount_in, 1_000_0000000, 1_000_0000000).unwrap();
    // 10 * 0.997 * 1000 / (1000 + 9.97) = 9.8715...
    assert_eq!(out, 9_8715803);
    f.a0.mint(&f.pair.address, &amount_in);
    assert_eq!(
        f.pair.try_swap(&0, &(out + 1), &trader),
        Err(Ok(PairError::KInvariant.into()))
    );
    f.pair.swap(&0, &out, &trader);
    assert_eq!(f.t1.balance(&trader), out);
    assert_eq!(f.pair.get_reserves(), (1_010_0000000, 1_000_0000000 - out));
}

#[test]
fn swap_without_input_fails() {
    let f = fixture();
    f.seed(1_000_0000000, 1_000_0000000);
    let trader = Address::generate(&f.e);
    assert_eq!(
        f.pair.try_swap(&0, &1, &trader),
        Err(Ok(PairError::InsufficientInput.into()))
    );
    assert_eq!(
        f.pair.try_swap(&0, &0, &trader),
        Err(Ok(PairError::InvalidAmount.into()))
    );
    assert_eq!(
        f.pair.try_swap(&0, &1_000_0000000, &trader),
        Err(Ok(PairError::InsufficientLiquidity.into()))
    );
}

#[test]
fn withdraw_returns_pro_rata_and_checks_balance() {
    let f = fixture();
    let shares = f.seed(4_000_0000000, 1_000_0000000);
    let to = Address::generate(&f.e);
    assert_eq!(
        f.pair.try_withdraw(&f.lp, &(shares + 1), &to),
        Err(Ok(PairError::InsufficientLiquidityBurned.into()))
    );
    let (a0, a1) = f.pair.withdraw(&f.lp, &(shares / 2), &to);
    assert_eq!(f.t0.balance(&to), a0);
    assert_eq!(f.t1.balance(&to), a1);
    assert_eq!(a0, 1_999_9999000);
    assert_eq!(a1, 499_9999750);
    assert_eq!(f.pair.balance(&f.lp), shares - shares / 2);
}

#[test]
fn identical_tokens_are_rejected() {
    let e = Env::default();
    let admin = Address::generate(&e);
    let t = e.register_stellar_asset_contract_v2(admin.clone()).address();
    let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        e.register(DexPair, (admin.clone(), t.clone(), t.clone()));
    }));
    assert!(res.is_err());
}

#[test]
fn amount_in_inverts_amount_out() {
    // The required input for an exact output always buys at least that output.
    let (ri, ro) = (5_000_0000000, 2_000_0000000);
    let want = 123_4567890;
    let need = math::amount_in(want, ri, ro).unwrap();
    assert!(math::amount_out(need, ri, ro).unwrap() >= want);
    assert!(math::amount_out(need - 1, ri, ro).unwrap() < want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A swap at the quoted output always passes the k check, the reserves' product never
    /// falls, and one unit more than the quote is always refused.
    #[test]
    fn k_never_decreases(
        r0 in 1_0000000i128..1_000_000_0000000,
        r1 in 1_0000000i128..1_000_000_0000000,
        amount_in in 1i128..100_000_0000000,
        zero_for_one in any::<bool>(),
    ) {
        let f = fixture();
        f.seed(r0, r1);
        let trader = Address::generate(&f.e);
        let (rin, rout) = if zero_for_one { (r0, r1) } else { (r1, r0) };
        let out = math::amount_out(amount_in, rin, rout).unwrap();
        prop_assume!(out > 0);
        if zero_for_one { f.a0.mint(&f.pair.address, &amount_in); } else { f.a1.mint(&f.pair.address, &amount_in); }
        let (o0, o1) = if zero_for_one { (0, out) } else { (out, 0) };
        let (p0, p1) = if zero_for_one { (0, out + 1) } else { (out + 1, 0) };
        if out + 1 < rout {
            prop_assert_eq!(
                f.pair.try_swap(&p0, &p1, &trader),
                Err(Ok(PairError::KInvariant.into()))
            );
        }
        f.pair.swap(&o0, &o1, &trader);
        let (n0, n1) = f.pair.get_reserves();
        prop_assert!(n0 * n1 >= r0 * r1);
        prop_assert_eq!(f.t0.balance(&f.pair.address), n0);
        prop_assert_eq!(f.t1.balance(&f.pair.address), n1);
    }

    /// Pure math: the required input for an exact output buys at least that output, and one
    /// unit less does not.
    #[test]
    fn amount_in_is_minimal(
        ri in 1_0000000i128..1_000_000_0000000,
        ro in 1_0000000i128..1_000_000_0000000,
        frac in 1u32..9_999,
    ) {
        let want = ro * frac as i128 / 10_000;
        prop_assume!(want > 0);
        let need = math::amount_in(want, ri, ro).unwrap();
        prop_assert!(math::amount_out(need, ri, ro).unwrap() >= want);
        if need > 1 {
            prop_assert!(math::amount_out(need - 1, ri, ro).unwrap_or(0) < want);
        }
    }
}
