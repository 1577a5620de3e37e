extern crate std;

use dex_pair::DexPair;
use dex_router::{DexRouter, DexRouterClient, RouterError};
use soroban_sdk::{
    contract, contractimpl,
    testutils::{Address as _, BytesN as _, Ledger as _, MockAuth, MockAuthInvoke},
    token::{StellarAssetClient, TokenClient},
    vec, Address, BytesN, Env, IntoVal, Vec,
};

use crate::{
    external::{Asset, PriceData},
    RebalanceError, RebalanceVault, RebalanceVaultClient,
};

const NOW: u64 = 1_000_000;
const UNIT: i128 = 10_000_000;

/// Minimal SEP-40 oracle: 14 decimals, one settable price per asset.
#[contract]
pub struct TestOracle;

#[contractimpl]
impl TestOracle {
    pub fn decimals(_e: Env) -> u32 {
        14
    }
    pub fn set(e: Env, asset: Address, price: i128) {
        e.storage().instance().set(&asset, &price);
    }
    pub fn lastprice(e: Env, asset: Asset) -> Option<PriceData> {
        let Asset::Stellar(a) = asset else { return None };
        e.storage().instance().get::<_, i128>(&a).map(|price| PriceData { price, timestamp: e.ledger().timestamp() })
    }
}

struct Fixture<'a> {
    e: Env,
    admin: Address,
    rebalancer: Address,
    router: DexRouterClient<'a>,
    vault: RebalanceVaultClient<'a>,
    /// usdc, xlm (0.10), eth (2000.00)
    tokens: [Address; 3],
}

fn sac(e: &Env, admin: &Address) -> Address {
    e.register_stellar_asset_contract_v2(admin.clone()).address()
}

/// Pools priced like the oracle: USDC/XLM at 0.10, USDC/ETH at 2000. Vault weights
/// 50 / 25 / 25, fixed prices unless `oracle`.
fn fixture<'a>(oracle: bool) -> Fixture<'a> {
    let e = Env::default();
    e.mock_all_auths();
    e.ledger().set_timestamp(NOW);
    let admin = Address::generate(&e);
    let tokens = [sac(&e, &admin), sac(&e, &admin), sac(&e, &admin)];
    let router_id = e.register(DexRouter, (admin.clone(), BytesN::<32>::random(&e)));
    let router = DexRouterClient::new(&e, &router_id);
    let lp = Address::generate(&e);
    for t in &tokens {
        StellarAssetClient::new(&e, t).mint(&lp, &(10_000_000_000 * UNIT));
    }
    for (other, usdc_side, other_side) in [(1usize, 1_000_000 * UNIT, 10_000_000 * UNIT), (2, 2_000_000 * UNIT, 1_000 * UNIT)] {
        let (a, b) = if tokens[0] < tokens[other] { (&tokens[0], &tokens[other]) } else { (&tokens[other], &tokens[0]) };
        let pair = e.register(DexPair, (router_id.clone(), a.clone(), b.clone()));
        router.register_pair(&pair);
        router.add_liquidity(&tokens[0], &tokens[other], &usdc_side, &other_side, &0, &0, &lp, &(NOW + 60));
    }
    let rebalancer = Address::generate(&e);
    let prices = [UNIT, UNIT / 10, 2_000 * UNIT];
    let oracle_id = if oracle {
        let id = e.register(TestOracle, ());
        let client = TestOracleClient::new(&e, &id);
        for (t, p) in tokens.iter().zip(prices) {
            client.set(t, &(p * 10_000_000)); // 7 -> 14 decimals
        }
        Some(id)
    } else {
        None
    };
    let assets = vec![&e, tokens[0].clone(), tokens[1].clone(), tokens[2].clone()];
    let vault_id = e.register(
        RebalanceVault,
        (admin.clone(), rebalancer.clone(), router_id.clone(), tokens[0].clone(), assets, vec![&e, 5_000u32, 2_500u32, 2_500u32], oracle_id),
    );
    let vault = RebalanceVaultClient::new(&e, &vault_id);
    if !oracle {
        for (t, p) in tokens.iter().zip(prices) {
            vault.set_price(t, &p);
        }
    }
    Fixture { e, admin, rebalancer, router, vault, tokens }
}

impl Fixture<'_> {
    fn fund(&self, amounts: [i128; 3]) {
        for (t, a) in self.tokens.iter().zip(amounts) {
            if a > 0 {
                StellarAssetClient::new(&self.e, t).mint(&self.vault.address, &a);
            }
        }
    }
    fn balance(&self, i: usize) -> i128 {
        TokenClient::new(&self.e, &self.tokens[i]).balance(&self.vault.address)
    }
    /// Calls `rebalance` with only the rebalancer's signature mocked: the vault's own
    /// authorization of the router's token pull is checked for real.
    fn rebalance_as(&self, who: &Address, slippage: u32) -> Result<crate::DriftReport, soroban_sdk::Error> {
        self.e.set_auths(&[]);
        let deadline = NOW + 60;
        let res = self
            .vault
            .mock_auths(&[MockAuth {
                address: who,
                invoke: &MockAuthInvoke {
                    contract: &self.vault.address,
                    fn_name: "rebalance",
                    args: (who.clone(), slippage, deadline).into_val(&self.e),
                    sub_invokes: &[],
                },
            }])
            .try_rebalance(who, &slippage, &deadline);
        self.e.mock_all_auths();
        match res {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(_)) => panic!("conversion error"),
            Err(Ok(err)) => Err(err),
            Err(Err(_)) => panic!("invoke error"),
        }
    }
}

#[test]
fn drift_report_values_each_asset() {
    let f = fixture(false);
    // 10_000 USDC, 100_000 XLM (= 10_000 USDC), 0 ETH: 50 / 50 / 0 against 50 / 25 / 25
    f.fund([10_000 * UNIT, 100_000 * UNIT, 0]);
    let r = f.vault.get_drift();
    assert_eq!(r.total_value, 20_000 * UNIT);
    assert_eq!(r.max_drift_bps, 2_500);
    let xlm = r.assets.get_unchecked(1);
    assert_eq!((xlm.value, xlm.actual_bps, xlm.drift_bps), (10_000 * UNIT, 5_000, 2_500));
    assert_eq!(r.assets.get_unchecked(2).drift_bps, -2_500);
}

#[test]
fn rebalance_moves_own_funds_to_targets() {
    let f = fixture(false);
    f.fund([10_000 * UNIT, 100_000 * UNIT, 0]);
    let after = f.rebalance_as(&f.rebalancer, 100).unwrap();
    // pool fees (0.3 %) and price impact leave a few bps
    assert!(after.max_drift_bps <= 20, "drift after rebalance: {}", after.max_drift_bps);
    assert!(after.total_value > 19_900 * UNIT && after.total_value <= 20_000 * UNIT);
    assert!(f.balance(2) > 2 * UNIT, "bought ETH: {}", f.balance(2));
    assert!(f.balance(1) < 60_000 * UNIT, "sold XLM: {}", f.balance(1));
    assert_eq!(f.vault.get_drift(), after);
}

#[test]
fn rebalance_with_oracle_prices() {
    let f = fixture(true);
    assert_eq!(f.vault.get_price(&f.tokens[2]), 2_000 * UNIT);
    f.fund([0, 0, 10 * UNIT]); // all in ETH
    // selling 7.5 ETH into a 1_000 ETH pool costs ~0.75 % impact + 0.3 % fee: over 1 %
    assert_eq!(f.rebalance_as(&f.rebalancer, 100), Err(RouterError::InsufficientOutputAmount.into()));
    let after = f.rebalance_as(&f.rebalancer, 200).unwrap();
    // the impact of the large sell also shows in the drift
    assert!(after.max_drift_bps <= 50, "drift after rebalance: {}", after.max_drift_bps);
}

#[test]
fn only_the_rebalancer_may_rebalance() {
    let f = fixture(false);
    f.fund([10_000 * UNIT, 100_000 * UNIT, 0]);
    let stranger = Address::generate(&f.e);
    assert_eq!(f.rebalance_as(&stranger, 100), Err(RebalanceError::Unauthorized.into()));
    assert_eq!(f.balance(1), 100_000 * UNIT);
}

#[test]
fn pool_far_from_oracle_price_trips_the_slippage_floor() {
    let f = fixture(false);
    f.fund([10_000 * UNIT, 100_000 * UNIT, 0]);
    // the vault believes XLM is worth 0.12; the pool pays about 0.10
    f.vault.set_price(&f.tokens[1], &(UNIT * 12 / 100));
    assert_eq!(f.rebalance_as(&f.rebalancer, 100), Err(RouterError::InsufficientOutputAmount.into()));
    assert_eq!(f.balance(1), 100_000 * UNIT, "nothing moved");
}

#[test]
fn paused_router_fails_the_rebalance() {
    let f = fixture(false);
    f.fund([10_000 * UNIT, 100_000 * UNIT, 0]);
    f.router.set_paused(&true);
    assert_eq!(f.rebalance_as(&f.rebalancer, 100), Err(RouterError::Paused.into()));
}

#[test]
fn weights_must_sum_to_10000() {
    let f = fixture(false);
    assert_eq!(
        f.vault.try_set_weights(&vec![&f.e, 5_000u32, 2_500u32, 2_000u32]),
        Err(Ok(RebalanceError::InvalidWeights.into()))
    );
    assert_eq!(f.vault.try_set_weights(&vec![&f.e, 5_000u32, 5_000u32]), Err(Ok(RebalanceError::InvalidWeights.into())));
    f.vault.set_weights(&vec![&f.e, 4_000u32, 3_000u32, 3_000u32]);
    assert_eq!(f.vault.get_config().weights_bps, vec![&f.e, 4_000u32, 3_000u32, 3_000u32]);
    assert_eq!(f.vault.get_config().admin, f.admin);
}

#[test]
fn unknown_asset_and_bad_price() {
    let f = fixture(false);
    let other = sac(&f.e, &f.admin);
    assert_eq!(f.vault.try_set_price(&other, &UNIT), Err(Ok(RebalanceError::UnknownAsset.into())));
    assert_eq!(f.vault.try_set_price(&f.tokens[1], &0), Err(Ok(RebalanceError::InvalidPrice.into())));
    let _: Vec<Address> = f.router.all_pairs();
}
