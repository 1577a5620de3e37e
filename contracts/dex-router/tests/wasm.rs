//! The router and its pairs as built wasm (target/wasm/*.wasm, made by
//! `bash scripts/build-wasm.sh dex-pair dex-router`): `create_pair` really deploys the pair code
//! and the whole swap path runs in the wasm VM, as on the network.
#![allow(clippy::inconsistent_digit_grouping)]

use dex_router::{DexRouterClient, RouterError};
use soroban_sdk::{
    testutils::{Address as _, Ledger as _},
    token::{StellarAssetClient, TokenClient},
    vec, Address, Env,
};

fn wasm_bytes(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm").join(format!("{name}.wasm"));
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!("{} is missing ({e}): build it first with `bash scripts/build-wasm.sh dex-pair dex-router`", path.display())
    })
}

#[test]
fn create_pair_deploys_the_pair_wasm_and_swaps_through_it() {
    let e = Env::default();
    e.mock_all_auths();
    e.cost_estimate().budget().reset_unlimited();
    e.ledger().set_timestamp(1_000);
    let admin = Address::generate(&e);
    let a = e.register_stellar_asset_contract_v2(admin.clone()).address();
    let b = e.register_stellar_asset_contract_v2(admin.clone()).address();
    let pair_hash = e.deployer().upload_contract_wasm(wasm_bytes("dex_pair").as_slice());
    let router_id = e.register(wasm_bytes("dex_router").as_slice(), (admin.clone(), pair_hash));
    let router = DexRouterClient::new(&e, &router_id);

    let lp = Address::generate(&e);
    StellarAssetClient::new(&e, &a).mint(&lp, &(1_000_000 * 10_000_000));
    StellarAssetClient::new(&e, &b).mint(&lp, &(1_000_000 * 10_000_000));
    // the pair does not exist yet: add_liquidity creates it
    let (da, db, shares) = router.add_liquidity(&a, &b, &1_000_0000000, &4_000_0000000, &0, &0, &lp, &2_000);
    assert_eq!((da, db, shares), (1_000_0000000, 4_000_0000000, 2_000_0000000 - 1_000));
    let pair = router.router_pair_for(&b, &a);
    assert_eq!(router.all_pairs(), vec![&e, pair.clone()]);
    assert_eq!(router.try_create_pair(&a, &b), Err(Ok(RouterError::PairExists.into())));
    assert_eq!(router.get_reserves(&b, &a), (4_000_0000000, 1_000_0000000));

    let trader = Address::generate(&e);
    StellarAssetClient::new(&e, &b).mint(&trader, &40_0000000);
    let quote = router.router_get_amounts_out(&40_0000000, &vec![&e, b.clone(), a.clone()]);
    let amounts = router.swap_exact_tokens_for_tokens(&40_0000000, &quote.get_unchecked(1), &vec![&e, b.clone(), a.clone()], &trader, &2_000);
    assert_eq!(amounts, quote);
    assert_eq!(TokenClient::new(&e, &a).balance(&trader), quote.get_unchecked(1));
    assert_eq!(TokenClient::new(&e, &b).balance(&pair), 4_040_0000000);

    router.set_paused(&true);
    assert_eq!(
        router.try_router_get_amounts_out(&1, &vec![&e, a.clone(), b.clone()]),
        Err(Ok(RouterError::Paused.into()))
    );
}
