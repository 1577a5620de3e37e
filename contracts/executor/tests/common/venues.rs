//! Venues beside the fixture's USDC/WETH pair: listing a venue in the registry, more routers
//! and pairs, an intermediate asset, the published Comet pool (target/wasm/blend/comet.wasm,
//! `bash scripts/blend-wasms.sh`), and router quotes on any of them.
use super::{Setup, NOW, U};
use dex_pair::DexPair;
use dex_router::{DexRouter, DexRouterClient};
use soroban_sdk::testutils::{Address as _, BytesN as _};
use soroban_sdk::{vec, Address, BytesN, IntoVal, Symbol, Vec};

impl Setup {
    /// Adds `venue` to the registry's venues.
    pub fn list_venue(&self, venue: &Address) {
        let mut venues = self.registry().get_venues();
        venues.push_back(venue.clone());
        self.registry().set_venues(&venues);
    }

    /// A pair of `a`/`b` on `router`, seeded with `amount_a` / `amount_b`.
    pub fn seed_pair(
        &self,
        router: &Address,
        a: &Address,
        b: &Address,
        amount_a: i128,
        amount_b: i128,
    ) {
        let (t0, t1) = if a < b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        let pair = self.env.register(DexPair, (router.clone(), t0, t1));
        let client = DexRouterClient::new(&self.env, router);
        client.register_pair(&pair);
        let lp = Address::generate(&self.env);
        self.mint(a, &lp, amount_a);
        self.mint(b, &lp, amount_b);
        client.add_liquidity(a, b, &amount_a, &amount_b, &0, &0, &lp, &(NOW + 60));
    }

    /// A second router with a USDC/WETH pair at 2,000 holding `usdc_depth` USDC (and the WETH
    /// at that price); listed among the registry's venues when `listed`.
    pub fn add_router(&self, usdc_depth: i128, listed: bool) -> Address {
        let admin = Address::generate(&self.env);
        let router = self
            .env
            .register(DexRouter, (admin, BytesN::<32>::random(&self.env)));
        self.seed_pair(&router, &self.usdc, &self.weth, usdc_depth, usdc_depth / 2_000);
        if listed {
            self.list_venue(&router);
        }
        router
    }

    /// A token that is not one of the pool's reserves, priced at 100 USDC on the primary router:
    /// pairs WETH/MID (10,000 WETH : 200,000 MID) and MID/USDC (200,000 MID : 20M USDC).
    pub fn add_intermediate(&self) -> Address {
        let mid = self
            .env
            .register_stellar_asset_contract_v2(Address::generate(&self.env))
            .address();
        self.seed_pair(&self.router_id, &self.weth, &mid, 10_000 * U, 200_000 * U);
        self.seed_pair(&self.router_id, &mid, &self.usdc, 200_000 * U, 20_000_000 * U);
        mid
    }

    /// The published Comet weighted pool (blend-contract-sdk's comet.wasm): WETH/USDC 50/50,
    /// 0.3 % fee, `weth` WETH against 2,000 USDC each; listed among the venues when `listed`.
    pub fn add_comet(&self, weth: i128, listed: bool) -> Address {
        let comet = self.env.register(comet_wasm().as_slice(), ());
        let controller = Address::generate(&self.env);
        self.mint(&self.weth, &controller, weth);
        self.mint(&self.usdc, &controller, weth * 2_000);
        let e = &self.env;
        e.invoke_contract::<()>(
            &comet,
            &Symbol::new(e, "init"),
            vec![
                e,
                controller.into_val(e),
                vec![e, self.weth.clone(), self.usdc.clone()].into_val(e),
                vec![e, 5_000_000i128, 5_000_000i128].into_val(e),
                vec![e, weth, weth * 2_000].into_val(e),
                30_000i128.into_val(e),
            ],
        );
        if listed {
            self.list_venue(&comet);
        }
        comet
    }

    /// Router quote for `amount` of `path[0]`.
    pub fn quote_on(&self, router: &Address, amount: i128, path: &[&Address]) -> i128 {
        let mut p: Vec<Address> = Vec::new(&self.env);
        for a in path {
            p.push_back((*a).clone());
        }
        DexRouterClient::new(&self.env, router)
            .router_get_amounts_out(&amount, &p)
            .last()
            .unwrap()
    }
}

fn comet_wasm() -> std::vec::Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/wasm/blend/comet.wasm");
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): fetch it first with `bash scripts/blend-wasms.sh` \
             (scripts/test.sh does this before cargo test)",
            path.display()
        )
    })
}
