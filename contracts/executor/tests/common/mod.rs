//! Shared fixture of the executor's integration tests: the real vault, registry, DEX pair and
//! router of this workspace wired together, a mock lending pool (pool.rs), and an executor
//! deployed through the registry from target/wasm/executor.wasm (Mode::Wasm) or registered as a
//! native contract (Mode::Native). Extra venues (routers, intermediate assets, the published
//! Comet pool) are in venues.rs, call results and `assert_reverts` in calls.rs. Each test
//! binary uses a subset.
#![allow(dead_code)]

mod calls;
mod pool;
mod venues;

pub use calls::*;
pub use pool::*;

use dex_pair::DexPair;
use dex_router::{DexRouter, DexRouterClient};
use executor::{ExecutorClient, FlashCall, Request, Swap, SwapVenue};
use registry::{RegistryClient, RegistryConfig};
use soroban_sdk::testutils::{
    Address as _, BytesN as _, EnvTestConfig, Ledger as _, MockAuth, MockAuthInvoke,
};
use soroban_sdk::token::{StellarAssetClient, TokenClient};
use soroban_sdk::{vec, Address, BytesN, Env, IntoVal, String, Val, Vec};
use vault::{VaultClient, VaultConfig};

pub const U: i128 = 10_000_000;
pub const MIN_STAKE: i128 = 1_000 * U;
pub const NOW: u64 = 1_700_000_000;
pub const SEQ: u32 = 5_000;
pub const POOL_DEPOSIT: i128 = 1_000_000 * U;

// Executor error codes (errors.rs), stable interface.
pub const INVALID_AMOUNT: u32 = 450;
pub const PROCEEDS_BELOW_DRAW: u32 = 451;
pub const PROCEEDS_BELOW_MINIMUM: u32 = 452;
pub const INVALID_SWAP: u32 = 453;
pub const VENUE_NOT_ALLOWED: u32 = 456;
pub const COLLATERAL_KEPT: u32 = 457;
pub const VAULT_NOT_APPROVED: u32 = 122;
pub const KEEPER_FEE_BPS: u32 = 1_000;
// Other contracts' codes that pass through.
pub const VAULT_NO_ACTIVE_DRAW: u32 = 115;
pub const REG_NOT_REGISTERED: u32 = 202;
pub const ROUTER_INSUFFICIENT_OUTPUT: u32 = 353;

// Blend v2 request types used here.
pub const FILL_USER_LIQUIDATION: u32 = 6;
pub const REPAY: u32 = 5;
pub const WITHDRAW_COLLATERAL: u32 = 3;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Native,
    Wasm,
}

fn executor_wasm() -> std::vec::Vec<u8> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm/executor.wasm");
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build it first with `bash scripts/build-wasm.sh executor` \
             (scripts/test.sh does this before cargo test)",
            path.display()
        )
    })
}

pub struct Setup {
    pub env: Env,
    pub owner: Address,
    pub usdc: Address,
    pub weth: Address,
    pub vault_id: Address,
    pub registry_id: Address,
    pub router_id: Address,
    pub pool: Address,
    pub exec_id: Address,
    pub borrower: Address,
}

impl Setup {
    /// Vault (1M USDC deposited) and registry wired together, a USDC/WETH pair at 2,000 on the
    /// router (2M USDC / 1,000 WETH), a mock pool holding 100 WETH, and the executor of a fresh
    /// owner who holds `MIN_STAKE` + 10,000 USDC. Nothing registered yet.
    pub fn new(mode: Mode) -> Self {
        let env = Env::new_with_config(EnvTestConfig {
            capture_snapshot_at_drop: false,
        });
        env.mock_all_auths();
        env.cost_estimate().budget().reset_unlimited();
        env.ledger().with_mut(|l| {
            l.timestamp = NOW;
            l.sequence_number = SEQ;
        });
        let admin = Address::generate(&env);
        let usdc = env
            .register_stellar_asset_contract_v2(admin.clone())
            .address();
        let weth = env
            .register_stellar_asset_contract_v2(admin.clone())
            .address();
        let vault_id = env.register(
            vault::Vault,
            (
                admin.clone(),
                usdc.clone(),
                VaultConfig {
                    deposit_cap: 100_000_000 * U,
                    withdraw_cooldown: 0,
                    max_draw_per_keeper: 500_000 * U,
                    keeper_fee_bps: KEEPER_FEE_BPS,
                    profit_unlock_secs: 3_600,
                },
            ),
        );
        let registry_id = env.register(
            registry::Registry,
            (
                admin.clone(),
                RegistryConfig {
                    min_stake: MIN_STAKE,
                    slash_timeout: 3_600,
                    slash_rate_bps: 1_000,
                    usdc_token: usdc.clone(),
                    executor_wasm: env
                        .deployer()
                        .upload_contract_wasm(executor_wasm().as_slice()),
                },
            ),
        );
        VaultClient::new(&env, &vault_id).set_registry(&registry_id);
        RegistryClient::new(&env, &registry_id).set_vault(&vault_id);
        let depositor = Address::generate(&env);
        StellarAssetClient::new(&env, &usdc).mint(&depositor, &POOL_DEPOSIT);
        VaultClient::new(&env, &vault_id).deposit(&depositor, &POOL_DEPOSIT);

        let router_id = env.register(DexRouter, (admin.clone(), BytesN::<32>::random(&env)));
        let router = DexRouterClient::new(&env, &router_id);
        let (t0, t1) = if usdc < weth {
            (usdc.clone(), weth.clone())
        } else {
            (weth.clone(), usdc.clone())
        };
        let pair = env.register(DexPair, (router_id.clone(), t0, t1));
        router.register_pair(&pair);
        let lp = Address::generate(&env);
        StellarAssetClient::new(&env, &usdc).mint(&lp, &(2_000_000 * U));
        StellarAssetClient::new(&env, &weth).mint(&lp, &(1_000 * U));
        router.add_liquidity(
            &usdc,
            &weth,
            &(2_000_000 * U),
            &(1_000 * U),
            &0,
            &0,
            &lp,
            &(NOW + 60),
        );

        let pool = env.register(MockPool, ());
        StellarAssetClient::new(&env, &weth).mint(&pool, &(100 * U));
        MockPoolClient::new(&env, &pool).set_reserves(&vec![&env, usdc.clone(), weth.clone()]);
        RegistryClient::new(&env, &registry_id)
            .set_venues(&vec![&env, pool.clone(), router_id.clone()]);

        let owner = Address::generate(&env);
        StellarAssetClient::new(&env, &usdc).mint(&owner, &(MIN_STAKE + 10_000 * U));
        let args = (owner.clone(), vault_id.clone(), usdc.clone(), registry_id.clone());
        let exec_id = match mode {
            Mode::Native => env.register(executor::Executor, args),
            Mode::Wasm => RegistryClient::new(&env, &registry_id)
                .deploy_executor(&owner, &BytesN::from_array(&env, &[7; 32])),
        };
        let borrower = Address::generate(&env);
        Setup {
            env,
            owner,
            usdc,
            weth,
            vault_id,
            registry_id,
            router_id,
            pool,
            exec_id,
            borrower,
        }
    }

    /// `new` plus the executor registered in the registry.
    pub fn registered(mode: Mode) -> Self {
        let s = Self::new(mode);
        s.register_as(&s.owner.clone(), "exec-1").unwrap();
        s
    }

    pub fn exec(&self) -> ExecutorClient<'_> {
        ExecutorClient::new(&self.env, &self.exec_id)
    }

    pub fn vault(&self) -> VaultClient<'_> {
        VaultClient::new(&self.env, &self.vault_id)
    }

    pub fn registry(&self) -> RegistryClient<'_> {
        RegistryClient::new(&self.env, &self.registry_id)
    }

    pub fn balance(&self, token: &Address, who: &Address) -> i128 {
        TokenClient::new(&self.env, token).balance(who)
    }

    /// Only `who`'s authorisation of `exec.<fn_name>(args)` (with `sub` below it) is mocked.
    pub fn auth(&self, who: &Address, fn_name: &str, args: Vec<Val>, sub: &[MockAuthInvoke]) {
        self.env.set_auths(&[]);
        let invoke = MockAuthInvoke {
            contract: &self.exec_id,
            fn_name,
            args,
            sub_invokes: sub,
        };
        self.env.mock_auths(&[MockAuth {
            address: who,
            invoke: &invoke,
        }]);
    }

    pub fn register_as(&self, who: &Address, name: &str) -> Result<(), soroban_sdk::Error> {
        let name = String::from_str(&self.env, name);
        let transfer = MockAuthInvoke {
            contract: &self.usdc,
            fn_name: "transfer",
            args: (who.clone(), self.exec_id.clone(), MIN_STAKE).into_val(&self.env),
            sub_invokes: &[],
        };
        let sub = [transfer];
        self.auth(
            who,
            "register",
            (self.registry_id.clone(), name.clone()).into_val(&self.env),
            &sub,
        );
        let r = self.exec().try_register(&self.registry_id, &name);
        self.env.mock_all_auths();
        flatten(r)
    }

    /// The request list of a full fill: fill, repay `repay` USDC, withdraw `weth` WETH.
    pub fn requests(&self, repay: i128, weth: i128) -> Vec<Request> {
        vec![
            &self.env,
            Request {
                request_type: FILL_USER_LIQUIDATION,
                address: self.borrower.clone(),
                amount: 100,
            },
            Request {
                request_type: REPAY,
                address: self.usdc.clone(),
                amount: repay,
            },
            Request {
                request_type: WITHDRAW_COLLATERAL,
                address: self.weth.clone(),
                amount: weth,
            },
        ]
    }

    /// The whole WETH balance sold on the router.
    pub fn weth_swap(&self, min_out: i128) -> Vec<Swap> {
        vec![
            &self.env,
            swap(
                SwapVenue::Router(self.router_id.clone()),
                &[&self.weth, &self.usdc],
                0,
                min_out,
            ),
        ]
    }

    pub fn quote(&self, weth: i128) -> i128 {
        let amounts = DexRouterClient::new(&self.env, &self.router_id).router_get_amounts_out(
            &weth,
            &vec![&self.env, self.weth.clone(), self.usdc.clone()],
        );
        amounts.last().unwrap()
    }

    /// The owner sends `vault.flash_draw(executor, draw, call, 4000)`; only the owner's
    /// authorisation of the executor's `on_flash(draw, call)` is mocked.
    pub fn liquidate_as(
        &self,
        who: &Address,
        draw: i128,
        requests: &Vec<Request>,
        swaps: &Vec<Swap>,
        min_proceeds: i128,
    ) -> Result<i128, soroban_sdk::Error> {
        self.flash_as(who, &self.pool.clone(), draw, requests, swaps, min_proceeds)
    }

    pub fn flash_as(
        &self,
        who: &Address,
        pool: &Address,
        draw: i128,
        requests: &Vec<Request>,
        swaps: &Vec<Swap>,
        min_proceeds: i128,
    ) -> Result<i128, soroban_sdk::Error> {
        let rt: u64 = 4_000;
        let call = FlashCall {
            pool: pool.clone(),
            requests: requests.clone(),
            swaps: swaps.clone(),
            min_proceeds,
        };
        let call_val: Val = call.into_val(&self.env);
        self.auth(who, "on_flash", (draw, call_val).into_val(&self.env), &[]);
        let r = self.vault().try_flash_draw(&self.exec_id, &draw, &call_val, &rt);
        self.env.mock_all_auths();
        flatten(r)
    }

    pub fn fee(gross: i128) -> i128 {
        gross * KEEPER_FEE_BPS as i128 / 10_000
    }

    pub fn mint(&self, token: &Address, to: &Address, amount: i128) {
        StellarAssetClient::new(&self.env, token).mint(to, &amount);
    }
}
