//! The executor against the real vault, registry, DEX pair and router of this workspace, and a
//! mock lending pool that moves tokens the way Blend v2's `submit_with_allowance` does
//! (`transfer_from` of what the requests owe, `transfer` of what the pool pays out). The real
//! Blend v2 pool is exercised in src/keeper/clients/executor.e2e.test.ts.
//!
//! Every call under test runs with only the owner's signature mocked (`as_owner`): the
//! executor's own authorisation of the nested token pulls (registry stake, router input) is
//! checked by the host for real. Flash fills need an executor the registry deployed from its
//! approved wasm (target/wasm/executor.wasm, `bash scripts/build-wasm.sh executor`): Mode::Wasm
//! deploys it through `registry.deploy_executor`; Mode::Native registers the native contract
//! directly, which the vault does not lend to in one transaction (NotApprovedExecutor).
extern crate std;

use dex_pair::DexPair;
use dex_router::{DexRouter, DexRouterClient};
use executor::{ExecutorClient, ExecutorError, FlashCall, Request, Swap, SwapVenue};
use registry::{RegistryClient, RegistryConfig};
use soroban_sdk::testutils::{
    Address as _, BytesN as _, EnvTestConfig, Ledger as _, MockAuth, MockAuthInvoke,
};
use soroban_sdk::token::{StellarAssetClient, TokenClient};
use soroban_sdk::{
    contract, contractimpl, symbol_short, vec, Address, BytesN, Env, IntoVal, String, Symbol, Val,
    Vec,
};
use vault::{VaultClient, VaultConfig, VaultState};

const U: i128 = 10_000_000;
const MIN_STAKE: i128 = 1_000 * U;
const NOW: u64 = 1_700_000_000;
const SEQ: u32 = 5_000;
const POOL_DEPOSIT: i128 = 1_000_000 * U;

// Executor error codes (errors.rs), stable interface.
const INVALID_AMOUNT: u32 = 450;
const PROCEEDS_BELOW_DRAW: u32 = 451;
const PROCEEDS_BELOW_MINIMUM: u32 = 452;
const INVALID_SWAP: u32 = 453;
const VENUE_NOT_ALLOWED: u32 = 456;
const COLLATERAL_KEPT: u32 = 457;
const VAULT_NOT_APPROVED: u32 = 122;
const KEEPER_FEE_BPS: u32 = 1_000;
// Other contracts' codes that pass through.
const VAULT_NO_ACTIVE_DRAW: u32 = 115;
const REG_NOT_REGISTERED: u32 = 202;
const ROUTER_INSUFFICIENT_OUTPUT: u32 = 353;

// Blend v2 request types used here.
const FILL_USER_LIQUIDATION: u32 = 6;
const REPAY: u32 = 5;
const WITHDRAW_COLLATERAL: u32 = 3;

/// Token movements of Blend v2's `submit_with_allowance(from, spender, to, requests)`: what the
/// requests owe the pool is pulled from `spender` with `transfer_from` (the pool is the
/// allowance's spender), what the pool owes goes to `to` with `transfer`. Repay pulls the
/// request amount, WithdrawCollateral pays it out of the pool's own balance, a fill is counted.
#[contract]
pub struct MockPool;

#[contractimpl]
impl MockPool {
    pub fn submit_with_allowance(
        env: Env,
        from: Address,
        spender: Address,
        to: Address,
        requests: Vec<Request>,
    ) -> Val {
        spender.require_auth();
        if from != spender {
            from.require_auth();
        }
        let me = env.current_contract_address();
        for r in requests.iter() {
            match r.request_type {
                REPAY => {
                    TokenClient::new(&env, &r.address).transfer_from(&me, &spender, &me, &r.amount)
                }
                WITHDRAW_COLLATERAL => {
                    TokenClient::new(&env, &r.address).transfer(&me, &to, &r.amount)
                }
                FILL_USER_LIQUIDATION => {
                    let n: u32 = env
                        .storage()
                        .instance()
                        .get(&symbol_short!("fills"))
                        .unwrap_or(0);
                    env.storage()
                        .instance()
                        .set(&symbol_short!("fills"), &(n + 1));
                }
                _ => panic!("mock pool: unsupported request type {}", r.request_type),
            }
        }
        ().into_val(&env)
    }

    pub fn get_reserve_list(env: Env) -> Vec<Address> {
        env.storage()
            .instance()
            .get(&symbol_short!("reserves"))
            .unwrap_or(Vec::new(&env))
    }

    pub fn set_reserves(env: Env, reserves: Vec<Address>) {
        env.storage()
            .instance()
            .set(&symbol_short!("reserves"), &reserves);
    }

    pub fn fills(env: Env) -> u32 {
        env.storage()
            .instance()
            .get(&symbol_short!("fills"))
            .unwrap_or(0)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
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

struct Setup {
    env: Env,
    owner: Address,
    usdc: Address,
    weth: Address,
    vault_id: Address,
    registry_id: Address,
    router_id: Address,
    pool: Address,
    exec_id: Address,
    borrower: Address,
}

impl Setup {
    /// Vault (1M USDC deposited) and registry wired together, a USDC/WETH pair at 2,000 on the
    /// router (2M USDC / 1,000 WETH), a mock pool holding 100 WETH, and the executor of a fresh
    /// owner who holds `MIN_STAKE` + 10,000 USDC. Nothing registered yet.
    fn new(mode: Mode) -> Self {
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
    fn registered(mode: Mode) -> Self {
        let s = Self::new(mode);
        s.register_as(&s.owner.clone(), "exec-1").unwrap();
        s
    }

    fn exec(&self) -> ExecutorClient<'_> {
        ExecutorClient::new(&self.env, &self.exec_id)
    }

    fn vault(&self) -> VaultClient<'_> {
        VaultClient::new(&self.env, &self.vault_id)
    }

    fn registry(&self) -> RegistryClient<'_> {
        RegistryClient::new(&self.env, &self.registry_id)
    }

    fn balance(&self, token: &Address, who: &Address) -> i128 {
        TokenClient::new(&self.env, token).balance(who)
    }

    /// Only `who`'s authorisation of `exec.<fn_name>(args)` (with `sub` below it) is mocked.
    fn auth(&self, who: &Address, fn_name: &str, args: Vec<Val>, sub: &[MockAuthInvoke]) {
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

    fn register_as(&self, who: &Address, name: &str) -> Result<(), soroban_sdk::Error> {
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
    fn requests(&self, repay: i128, weth: i128) -> Vec<Request> {
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
    fn weth_swap(&self, min_out: i128) -> Vec<Swap> {
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

    fn quote(&self, weth: i128) -> i128 {
        let amounts = DexRouterClient::new(&self.env, &self.router_id).router_get_amounts_out(
            &weth,
            &vec![&self.env, self.weth.clone(), self.usdc.clone()],
        );
        amounts.last().unwrap()
    }

    /// The owner sends `vault.flash_draw(executor, draw, call, 4000)`; only the owner's
    /// authorisation of the executor's `on_flash(draw, call)` is mocked.
    fn liquidate_as(
        &self,
        who: &Address,
        draw: i128,
        requests: &Vec<Request>,
        swaps: &Vec<Swap>,
        min_proceeds: i128,
    ) -> Result<i128, soroban_sdk::Error> {
        self.flash_as(who, &self.pool.clone(), draw, requests, swaps, min_proceeds)
    }

    fn flash_as(
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

    fn fee(gross: i128) -> i128 {
        gross * KEEPER_FEE_BPS as i128 / 10_000
    }

    fn mint(&self, token: &Address, to: &Address, amount: i128) {
        StellarAssetClient::new(&self.env, token).mint(to, &amount);
    }

    /// Adds `venue` to the registry's venues.
    fn list_venue(&self, venue: &Address) {
        let mut venues = self.registry().get_venues();
        venues.push_back(venue.clone());
        self.registry().set_venues(&venues);
    }

    /// A pair of `a`/`b` on `router`, seeded with `amount_a` / `amount_b`.
    fn seed_pair(&self, router: &Address, a: &Address, b: &Address, amount_a: i128, amount_b: i128) {
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
    fn add_router(&self, usdc_depth: i128, listed: bool) -> Address {
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
    fn add_intermediate(&self) -> Address {
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
    fn add_comet(&self, weth: i128, listed: bool) -> Address {
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
    fn quote_on(&self, router: &Address, amount: i128, path: &[&Address]) -> i128 {
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

fn swap(venue: SwapVenue, path: &[&Address], amount_in: i128, min_out: i128) -> Swap {
    let env = match &venue {
        SwapVenue::Router(a) | SwapVenue::Comet(a) => a.env().clone(),
    };
    let mut p: Vec<Address> = Vec::new(&env);
    for a in path {
        p.push_back((*a).clone());
    }
    Swap {
        venue,
        path: p,
        amount_in,
        min_out,
    }
}

fn flatten<T, C>(
    r: Result<Result<T, C>, Result<soroban_sdk::Error, soroban_sdk::InvokeError>>,
) -> Result<T, soroban_sdk::Error> {
    match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => panic!("return value conversion failed"),
        Err(Ok(e)) => Err(e),
        Err(Err(e)) => panic!("invoke error {e:?}"),
    }
}

fn contract_code(r: Result<impl core::fmt::Debug, soroban_sdk::Error>) -> u32 {
    let e = r.expect_err("the call should fail");
    assert!(
        e.is_type(soroban_sdk::xdr::ScErrorType::Contract),
        "not a contract error: {e:?}"
    );
    e.get_code()
}

/// A failed `require_auth` is Error(Auth, InvalidAction) inside the host; a test call sees it
/// as Error(Context, InvalidAction) once it has crossed the contract-call boundary.
fn is_auth_error(r: Result<impl core::fmt::Debug, soroban_sdk::Error>) -> bool {
    use soroban_sdk::xdr::{ScErrorCode, ScErrorType};
    let e = r.expect_err("the call should fail");
    (e.is_type(ScErrorType::Auth) || e.is_type(ScErrorType::Context))
        && e.is_code(ScErrorCode::InvalidAction)
}

fn register(mode: Mode) {
    let s = Setup::new(mode);
    let owner_before = s.balance(&s.usdc, &s.owner);
    s.register_as(&s.owner.clone(), "exec-1").unwrap();
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!(info.operator, s.exec_id);
    assert_eq!(info.stake, MIN_STAKE);
    assert_eq!(info.name, String::from_str(&s.env, "exec-1"));
    assert_eq!(s.balance(&s.usdc, &s.owner), owner_before - MIN_STAKE);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &s.registry_id), MIN_STAKE);
    assert_eq!(
        (s.exec().owner(), s.exec().vault(), s.exec().usdc()),
        (s.owner.clone(), s.vault_id.clone(), s.usdc.clone())
    );
}

#[test]
fn register_native() {
    register(Mode::Native);
}

#[test]
fn register_wasm() {
    register(Mode::Wasm);
}

#[test]
fn register_needs_the_owner() {
    let s = Setup::new(Mode::Native);
    let stranger = Address::generate(&s.env);
    StellarAssetClient::new(&s.env, &s.usdc).mint(&stranger, &MIN_STAKE);
    assert!(is_auth_error(s.register_as(&stranger, "exec-1")));
    assert_eq!(
        contract_code(flatten(s.registry().try_get_keeper(&s.exec_id))),
        REG_NOT_REGISTERED
    );
}

/// Full fill: repay 140,000 USDC, seize 80 WETH (~147,700 USDC on the pair), swap, return.
fn liquidate_happy_path(mode: Mode) {
    let s = Setup::registered(mode);
    let repay = 140_000 * U;
    let seized = 80 * U;
    let out = s.quote(seized);
    assert!(out > repay, "the fixture must be profitable: {out}");
    let before = s.vault().get_state();
    let pool_usdc_before = s.balance(&s.usdc, &s.pool);
    let requests = s.requests(repay, seized);
    let swaps = s.weth_swap(out * 99 / 100);

    let profit = s
        .liquidate_as(&s.owner.clone(), repay, &requests, &swaps, repay)
        .unwrap();
    let gross = out - repay;
    let fee = Setup::fee(gross);
    assert_eq!(
        profit,
        gross - fee,
        "proceeds = swap output; the draw paid the repay; the keeper's fee comes out of it"
    );
    let after = s.vault().get_state();
    assert_eq!(
        after,
        VaultState {
            total_usdc: before.total_usdc + profit,
            total_shares: before.total_shares,
            total_profit: before.total_profit + profit,
            active_liq: 0,
            locked_profit: profit,
            lock_start: NOW,
            lock_end: NOW + 3_600,
            pending_shares: 0,
        }
    );
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &s.vault_id), POOL_DEPOSIT + profit);
    assert_eq!(s.balance(&s.usdc, &s.pool), pool_usdc_before + repay);
    assert_eq!(MockPoolClient::new(&s.env, &s.pool).fills(), 1);
    // nothing stays with the executor but the keeper's fee
    assert_eq!(s.balance(&s.usdc, &s.exec_id), fee);
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!(
        (
            info.total_executions,
            info.successful_fills,
            info.total_profit
        ),
        (1, 1, profit)
    );
    assert_eq!(info.avg_response_time_ms, 4_000);
    assert!(!info.has_active_draw);
}

#[test]
fn a_native_executor_is_not_approved_for_flash_draws() {
    let s = Setup::registered(Mode::Native);
    let repay = 140_000 * U;
    let r = s.liquidate_as(&s.owner.clone(), repay, &s.requests(repay, 80 * U), &s.weth_swap(0), 0);
    assert_eq!(contract_code(r), VAULT_NOT_APPROVED);
    assert!(!s.registry().get_keeper(&s.exec_id).approved);
}

#[test]
fn liquidate_happy_path_wasm() {
    liquidate_happy_path(Mode::Wasm);
}

#[test]
fn liquidate_keeps_usdc_the_executor_already_held() {
    let s = Setup::registered(Mode::Wasm);
    // e.g. a refunded stake: not part of the proceeds
    StellarAssetClient::new(&s.env, &s.usdc).mint(&s.exec_id, &(500 * U));
    let repay = 140_000 * U;
    let out = s.quote(80 * U);
    let profit = s
        .liquidate_as(
            &s.owner.clone(),
            repay,
            &s.requests(repay, 80 * U),
            &s.weth_swap(0),
            0,
        )
        .unwrap();
    let fee = Setup::fee(out - repay);
    assert_eq!(profit, out - repay - fee);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 500 * U + fee);
}

/// Every outcome that must revert: the vault's books, the registry's record, the pool's and
/// the executor's balances are exactly as before.
fn assert_reverts(
    s: &Setup,
    draw: i128,
    requests: &Vec<Request>,
    swaps: &Vec<Swap>,
    min_proceeds: i128,
    code: u32,
) {
    let state = s.vault().get_state();
    let info = s.registry().get_keeper(&s.exec_id);
    let balances = |s: &Setup| {
        [&s.vault_id, &s.pool, &s.exec_id, &s.owner]
            .map(|a| (s.balance(&s.usdc, a), s.balance(&s.weth, a)))
    };
    let held = balances(s);
    assert_eq!(
        contract_code(s.liquidate_as(&s.owner.clone(), draw, requests, swaps, min_proceeds)),
        code
    );
    assert_eq!(s.vault().get_state(), state);
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), 0);
    assert_eq!(s.registry().get_keeper(&s.exec_id), info);
    assert_eq!(balances(s), held);
    assert_eq!(MockPoolClient::new(&s.env, &s.pool).fills(), 0);
}

#[test]
fn liquidate_reverts_when_proceeds_do_not_cover_the_draw() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    // 70 WETH sell for ~130,000 USDC: less than the draw
    let seized = 70 * U;
    assert!(s.quote(seized) < repay);
    assert_reverts(
        &s,
        repay,
        &s.requests(repay, seized),
        &s.weth_swap(0),
        0,
        PROCEEDS_BELOW_DRAW,
    );
}

#[test]
fn liquidate_reverts_below_min_proceeds() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let out = s.quote(80 * U);
    assert_reverts(
        &s,
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(0),
        out + 1,
        PROCEEDS_BELOW_MINIMUM,
    );
}

#[test]
fn liquidate_reverts_on_the_swap_floor() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let out = s.quote(80 * U);
    assert_reverts(
        &s,
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(out + 1),
        0,
        ROUTER_INSUFFICIENT_OUTPUT,
    );
}

#[test]
fn liquidate_refuses_bad_arguments() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let r = s.requests(repay, 80 * U);
    assert_reverts(&s, 0, &r, &s.weth_swap(0), 0, 103); // the vault's InvalidAmount
    assert_reverts(&s, repay, &r, &s.weth_swap(0), -1, INVALID_AMOUNT);
    let router = || SwapVenue::Router(s.router_id.clone());
    let short = vec![&s.env, swap(router(), &[&s.weth], 0, 0)];
    assert_reverts(&s, repay, &r, &short, 0, INVALID_SWAP);
    let empty = vec![&s.env, swap(router(), &[], 0, 0)];
    assert_reverts(&s, repay, &r, &empty, 0, INVALID_SWAP);
    let sells_usdc = vec![&s.env, swap(router(), &[&s.usdc, &s.weth], 0, 0)];
    assert_reverts(&s, repay, &r, &sells_usdc, 0, INVALID_SWAP);
}

#[test]
fn liquidate_by_an_unregistered_executor_fails_in_the_vault() {
    let s = Setup::new(Mode::Wasm);
    let repay = 140_000 * U;
    let r = s.liquidate_as(
        &s.owner.clone(),
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(0),
        0,
    );
    assert_eq!(contract_code(r), REG_NOT_REGISTERED);
}

#[test]
fn only_the_owner_may_liquidate() {
    let s = Setup::registered(Mode::Wasm);
    let stranger = Address::generate(&s.env);
    let repay = 140_000 * U;
    let state = s.vault().get_state();
    assert!(is_auth_error(s.liquidate_as(
        &stranger,
        repay,
        &s.requests(repay, 80 * U),
        &s.weth_swap(0),
        0
    )));
    assert_eq!(s.vault().get_state(), state);
}

#[test]
fn two_step_draw_and_return() {
    let s = Setup::registered(Mode::Native);
    let owner = s.owner.clone();
    let owner_before = s.balance(&s.usdc, &owner);
    let amount = 20_000 * U;
    // a draw that large needs bond: stake 23,000 USDC, limit 20,700
    StellarAssetClient::new(&s.env, &s.usdc).mint(&owner, &(22_000 * U));
    s.exec().add_bond(&s.registry_id, &(22_000 * U));

    s.auth(&owner, "draw", (amount,).into_val(&s.env), &[]);
    s.exec().draw(&amount);
    assert_eq!(
        s.balance(&s.usdc, &owner),
        owner_before + amount,
        "the draw goes on to the owner"
    );
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 0);
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), amount);
    assert_eq!(s.vault().get_state().active_liq, amount);
    assert!(s.registry().get_keeper(&s.exec_id).has_active_draw);

    // the owner's return pulls the USDC from the owner: the owner authorises that transfer
    let back = amount + 300 * U;
    let rt: u64 = 9_000;
    let pull = MockAuthInvoke {
        contract: &s.usdc,
        fn_name: "transfer",
        args: (owner.clone(), s.exec_id.clone(), back).into_val(&s.env),
        sub_invokes: &[],
    };
    let sub = [pull];
    s.auth(&owner, "return_proceeds", (back, rt).into_val(&s.env), &sub);
    let profit = s.exec().return_proceeds(&back, &rt);
    s.env.mock_all_auths();
    // 10 % of the 300 USDC profit is the keeper's fee, paid to the executor
    assert_eq!(profit, 270 * U);
    assert_eq!(s.balance(&s.usdc, &owner), owner_before - 300 * U);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 30 * U);
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), 0);
    let st = s.vault().get_state();
    assert_eq!(
        (st.active_liq, st.total_usdc, st.total_profit),
        (0, POOL_DEPOSIT + 270 * U, 270 * U)
    );
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!(
        (
            info.total_executions,
            info.successful_fills,
            info.avg_response_time_ms
        ),
        (1, 1, rt)
    );

    // nothing outstanding any more
    assert_eq!(
        contract_code(flatten(s.exec().try_return_proceeds(&(100 * U), &0))),
        VAULT_NO_ACTIVE_DRAW
    );
}

#[test]
fn two_step_refuses_strangers_and_bad_amounts() {
    let s = Setup::registered(Mode::Native);
    let stranger = Address::generate(&s.env);
    s.auth(&stranger, "draw", (100 * U,).into_val(&s.env), &[]);
    assert!(is_auth_error(flatten(s.exec().try_draw(&(100 * U)))));
    s.auth(
        &stranger,
        "return_proceeds",
        (100 * U, 0u64).into_val(&s.env),
        &[],
    );
    assert!(is_auth_error(flatten(
        s.exec().try_return_proceeds(&(100 * U), &0)
    )));
    s.env.mock_all_auths();
    assert_eq!(s.vault().get_state().active_liq, 0);
    assert_eq!(
        contract_code(flatten(s.exec().try_draw(&0))),
        INVALID_AMOUNT
    );
    assert_eq!(
        contract_code(flatten(s.exec().try_return_proceeds(&-1, &0))),
        INVALID_AMOUNT
    );
}

#[test]
fn deregister_then_sweep_the_stake() {
    let s = Setup::registered(Mode::Native);
    let owner = s.owner.clone();
    let before = s.balance(&s.usdc, &owner);
    let stranger = Address::generate(&s.env);
    s.auth(
        &stranger,
        "deregister",
        (s.registry_id.clone(),).into_val(&s.env),
        &[],
    );
    assert!(is_auth_error(flatten(
        s.exec().try_deregister(&s.registry_id)
    )));

    s.auth(
        &owner,
        "deregister",
        (s.registry_id.clone(),).into_val(&s.env),
        &[],
    );
    s.exec().deregister(&s.registry_id);
    assert_eq!(
        contract_code(flatten(s.registry().try_get_keeper(&s.exec_id))),
        REG_NOT_REGISTERED
    );
    assert_eq!(
        s.balance(&s.usdc, &s.exec_id),
        MIN_STAKE,
        "the stake comes back to the executor"
    );

    s.auth(
        &stranger,
        "sweep",
        (s.usdc.clone(), stranger.clone(), MIN_STAKE).into_val(&s.env),
        &[],
    );
    assert!(is_auth_error(flatten(
        s.exec().try_sweep(&s.usdc, &stranger, &MIN_STAKE)
    )));
    s.auth(
        &owner,
        "sweep",
        (s.usdc.clone(), owner.clone(), MIN_STAKE).into_val(&s.env),
        &[],
    );
    s.exec().sweep(&s.usdc, &owner, &MIN_STAKE);
    s.env.mock_all_auths();
    assert_eq!(s.balance(&s.usdc, &s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &owner), before + MIN_STAKE);
    assert_eq!(
        contract_code(flatten(s.exec().try_sweep(&s.usdc, &owner, &0))),
        INVALID_AMOUNT
    );
}

/// A keeper that routes the sale through a router of its own (which could pay the vault only
/// the principal and keep the rest) or fills on a pool the registry does not list.
#[test]
fn flash_fills_only_through_the_registry_venues() {
    let s = Setup::registered(Mode::Wasm);
    let repay = 140_000 * U;
    let r = s.requests(repay, 80 * U);
    let own_router = vec![
        &s.env,
        swap(
            SwapVenue::Router(Address::generate(&s.env)),
            &[&s.weth, &s.usdc],
            0,
            0,
        ),
    ];
    assert_reverts(&s, repay, &r, &own_router, 0, VENUE_NOT_ALLOWED);
    let other_pool = s.env.register(MockPool, ());
    let code = contract_code(s.flash_as(&s.owner.clone(), &other_pool, repay, &r, &s.weth_swap(0), 0));
    assert_eq!(code, VENUE_NOT_ALLOWED);
}

/// A keeper that leaves the seized collateral unsold (to sweep it later) instead of selling it
/// for the vault: the flash fill reverts.
#[test]
fn flash_fills_sell_everything_the_fill_paid() {
    let s = Setup::registered(Mode::Wasm);
    // proceeds would cover the draw even without the sale: the vault lends 140,000, the pool
    // takes 100,000 and pays 80 WETH
    let r = s.requests(100_000 * U, 80 * U);
    let no_sale: Vec<Swap> = Vec::new(&s.env);
    assert_reverts(&s, 140_000 * U, &r, &no_sale, 0, COLLATERAL_KEPT);
}

/// The two-step proxy is held to the executor's bond: the draw limit is 90 % of its stake.
#[test]
fn two_step_draws_are_bonded() {
    let s = Setup::registered(Mode::Native);
    let limit = s.registry().get_keeper(&s.exec_id).draw_limit;
    assert_eq!(limit, MIN_STAKE * 9 / 10);
    assert_eq!(contract_code(flatten(s.exec().try_draw(&(limit + 1)))), 216);
    s.exec().add_bond(&s.registry_id, &(2_000 * U));
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!((info.stake, info.draw_limit), (3_000 * U, 2_700 * U));
    s.exec().draw(&(2_700 * U));
    s.exec().return_proceeds(&(2_700 * U), &0);
    let before = s.balance(&s.usdc, &s.owner);
    s.exec().withdraw_bond(&s.registry_id, &(2_000 * U));
    assert_eq!(s.balance(&s.usdc, &s.owner), before + 2_000 * U);
    assert_eq!(s.registry().get_keeper(&s.exec_id).stake, MIN_STAKE);
}

#[test]
fn error_codes_are_stable() {
    assert_eq!(ExecutorError::InvalidAmount as u32, INVALID_AMOUNT);
    assert_eq!(ExecutorError::ProceedsBelowDraw as u32, PROCEEDS_BELOW_DRAW);
    assert_eq!(
        ExecutorError::ProceedsBelowMinimum as u32,
        PROCEEDS_BELOW_MINIMUM
    );
    assert_eq!(ExecutorError::InvalidSwap as u32, INVALID_SWAP);
    assert_eq!(ExecutorError::Overflow as u32, 454);
    assert_eq!(ExecutorError::BadRegistryConfig as u32, 455);
    assert_eq!(ExecutorError::VenueNotAllowed as u32, VENUE_NOT_ALLOWED);
    assert_eq!(ExecutorError::CollateralKept as u32, COLLATERAL_KEPT);
}

// ---- Split sales, routes through an intermediate asset, Comet pools ----------------------

const SEIZED: i128 = 80 * U;
const DRAW: i128 = 140_000 * U;

fn router(a: &Address) -> SwapVenue {
    SwapVenue::Router(a.clone())
}

fn comet(a: &Address) -> SwapVenue {
    SwapVenue::Comet(a.clone())
}

/// Comet's output for a 50/50 pool with a 0.3 % fee (Balancer's out-given-in with a weight
/// ratio of 1), in floating point: the reference the pool's fixed-point result must be near.
fn comet_out(balance_in: i128, balance_out: i128, amount_in: i128) -> f64 {
    let adjusted = amount_in as f64 * (1.0 - 0.003);
    balance_out as f64 * (1.0 - balance_in as f64 / (balance_in as f64 + adjusted))
}

fn reserves(s: &Setup, router: &Address) -> (i128, i128) {
    DexRouterClient::new(&s.env, router).get_reserves(&s.weth, &s.usdc)
}

/// The lot split between the primary router (2M USDC a side) and a second one (1M): exactly
/// two thirds on the primary, then whatever is left (`amount_in` 0) on the second. The vault
/// gets more than from the whole lot on the primary alone, on an identical fixture.
#[test]
fn a_split_sale_across_two_routers_pays_more_than_one_venue() {
    let whole = {
        let s = Setup::registered(Mode::Wasm);
        s.add_router(1_000_000 * U, true);
        let out = s.quote(SEIZED);
        let swaps = s.weth_swap(out);
        let profit = s
            .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
            .unwrap();
        assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
        profit
    };

    let s = Setup::registered(Mode::Wasm);
    let second = s.add_router(1_000_000 * U, true);
    let first_part = SEIZED * 2 / 3;
    let rest = SEIZED - first_part;
    let out1 = s.quote(first_part);
    let out2 = s.quote_on(&second, rest, &[&s.weth, &s.usdc]);
    let (primary_before, second_before) = (reserves(&s, &s.router_id), reserves(&s, &second));
    let swaps = vec![
        &s.env,
        swap(router(&s.router_id), &[&s.weth, &s.usdc], first_part, out1),
        swap(router(&second), &[&s.weth, &s.usdc], 0, out2),
    ];
    let vault_before = s.balance(&s.usdc, &s.vault_id);
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let out = out1 + out2;
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert!(
        profit > whole,
        "split {profit} must beat the whole lot on one venue {whole}"
    );
    assert_eq!(s.balance(&s.usdc, &s.vault_id), vault_before + profit);
    // each pair took its part, the remainder leg took exactly what was left
    let (primary_after, second_after) = (reserves(&s, &s.router_id), reserves(&s, &second));
    assert_eq!(primary_after.0 - primary_before.0, first_part);
    assert_eq!(second_after.0 - second_before.0, rest);
    assert_eq!(
        (primary_before.1 - primary_after.1, second_before.1 - second_after.1),
        (out1, out2)
    );
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    assert_eq!(s.balance(&s.usdc, &s.exec_id), Setup::fee(out - DRAW));
}

/// WETH -> MID -> USDC on the primary router: the router moves the intermediate asset pair to
/// pair, and the executor is left with none of it.
#[test]
fn a_sale_routed_through_an_intermediate_asset() {
    let s = Setup::registered(Mode::Wasm);
    let mid = s.add_intermediate();
    let path = [&s.weth, &mid, &s.usdc];
    let out = s.quote_on(&s.router_id, SEIZED, &path);
    assert!(out > DRAW, "the route must be profitable: {out}");
    let swaps = vec![&s.env, swap(router(&s.router_id), &path, 0, out)];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    assert_eq!(s.balance(&mid, &s.exec_id), 0);

    // the same route for part of a lot, the direct pair for the rest
    let s = Setup::registered(Mode::Wasm);
    let mid = s.add_intermediate();
    let path = [&s.weth, &mid, &s.usdc];
    let via = s.quote_on(&s.router_id, 30 * U, &path);
    let direct = s.quote(SEIZED - 30 * U);
    let swaps = vec![
        &s.env,
        swap(router(&s.router_id), &path, 30 * U, via),
        swap(router(&s.router_id), &[&s.weth, &s.usdc], 0, direct),
    ];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let out = via + direct;
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert_eq!((s.balance(&s.weth, &s.exec_id), s.balance(&mid, &s.exec_id)), (0, 0));
}

/// The lot sold into the published Comet pool: the executor pre-authorises exactly the approve
/// Comet makes on its behalf (every call here mocks only the owner's signature), Comet pulls the
/// WETH and pays the USDC, and the allowance is used up.
#[test]
fn a_sale_into_a_comet_pool() {
    let s = Setup::registered(Mode::Wasm);
    let pool = s.add_comet(1_000 * U, true);
    let (weth_in_pool, usdc_in_pool) = (s.balance(&s.weth, &pool), s.balance(&s.usdc, &pool));
    let expected = comet_out(weth_in_pool, usdc_in_pool, SEIZED);
    let swaps = vec![&s.env, swap(comet(&pool), &[&s.weth, &s.usdc], 0, DRAW)];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let paid = usdc_in_pool - s.balance(&s.usdc, &pool);
    assert!(
        ((paid as f64) - expected).abs() / expected < 1e-6,
        "Comet paid {paid}, the weighted-pool formula gives {expected}"
    );
    assert_eq!(profit, paid - DRAW - Setup::fee(paid - DRAW));
    assert_eq!(s.balance(&s.weth, &pool), weth_in_pool + SEIZED);
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
    assert_eq!(
        TokenClient::new(&s.env, &s.weth).allowance(&s.exec_id, &pool),
        0
    );
    let info = s.registry().get_keeper(&s.exec_id);
    assert_eq!((info.successful_fills, info.total_profit), (1, profit));
}

/// Half the lot on the primary router, the rest in a Comet pool of the same depth.
#[test]
fn a_split_between_a_router_and_a_comet_pool() {
    let s = Setup::registered(Mode::Wasm);
    let pool = s.add_comet(1_000 * U, true);
    let half = SEIZED / 2;
    let out1 = s.quote(half);
    let usdc_in_pool = s.balance(&s.usdc, &pool);
    let swaps = vec![
        &s.env,
        swap(router(&s.router_id), &[&s.weth, &s.usdc], half, out1),
        swap(comet(&pool), &[&s.weth, &s.usdc], 0, 0),
    ];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &s.requests(DRAW, SEIZED), &swaps, 0)
        .unwrap();
    let out2 = usdc_in_pool - s.balance(&s.usdc, &pool);
    let out = out1 + out2;
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    // two venues of the same depth: the even split beats the whole lot on one (a fresh fixture)
    let whole = Setup::new(Mode::Native).quote(SEIZED);
    assert!(out > whole, "{out} vs {whole}");
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
}

/// A router or a Comet pool the registry does not list is refused, also as the second part of a
/// split whose first part is on a listed venue. Both are real, working venues.
#[test]
fn swaps_only_through_registry_venues_router_and_comet() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let unlisted_router = s.add_router(1_000_000 * U, false);
    let unlisted_comet = s.add_comet(1_000 * U, false);
    let path = [&s.weth, &s.usdc];
    for venue in [router(&unlisted_router), comet(&unlisted_comet)] {
        let alone = vec![&s.env, swap(venue.clone(), &path, 0, 0)];
        assert_reverts(&s, DRAW, &r, &alone, 0, VENUE_NOT_ALLOWED);
        let second = vec![
            &s.env,
            swap(router(&s.router_id), &path, SEIZED / 2, 0),
            swap(venue, &path, 0, 0),
        ];
        assert_reverts(&s, DRAW, &r, &second, 0, VENUE_NOT_ALLOWED);
    }
    // a listed router named as a Comet pool (or the reverse) fails in the venue's call
    let listed_comet = s.add_comet(1_000 * U, true);
    let swapped = vec![&s.env, swap(comet(&s.router_id), &path, 0, 0)];
    assert!(s
        .liquidate_as(&s.owner.clone(), DRAW, &r, &swapped, 0)
        .is_err());
    let swapped = vec![&s.env, swap(router(&listed_comet), &path, 0, 0)];
    assert!(s
        .liquidate_as(&s.owner.clone(), DRAW, &r, &swapped, 0)
        .is_err());
    assert_eq!(s.vault().get_state().total_profit, 0);
}

/// Negative amounts, Comet paths of other than two tokens and sales of USDC are refused.
#[test]
fn malformed_swaps_are_refused() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let pool = s.add_comet(1_000 * U, true);
    let mid = s.add_intermediate();
    let cases = [
        swap(router(&s.router_id), &[&s.weth, &s.usdc], -1, 0),
        swap(comet(&pool), &[&s.weth, &s.usdc], -SEIZED, 0),
        swap(comet(&pool), &[&s.weth, &mid, &s.usdc], 0, 0),
        swap(comet(&pool), &[&s.weth], 0, 0),
        swap(comet(&pool), &[&s.usdc, &s.weth], 0, 0),
        swap(router(&s.router_id), &[&s.usdc, &s.weth], 1_000 * U, 0),
        swap(router(&s.router_id), &[&s.usdc, &s.weth, &s.usdc], 0, 0),
    ];
    for bad in cases {
        // after a good first part, so the refusal is not an accident of the first swap
        let swaps = vec![
            &s.env,
            swap(router(&s.router_id), &[&s.weth, &s.usdc], SEIZED / 2, 0),
            bad,
        ];
        assert_reverts(&s, DRAW, &r, &swaps, 0, INVALID_SWAP);
    }
}

/// Skimming: enough of the lot sold for USDC to cover the draw, the rest sold into a token the
/// pool does not list (the unsold-collateral check does not see it) for the owner to sweep
/// later. Every sale must end in USDC, so the vault gets all of the lot's value.
#[test]
fn every_sale_ends_in_usdc() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let mid = s.add_intermediate();
    let cover = 76 * U;
    assert!(s.quote(cover) > DRAW, "the first part alone covers the draw");
    for skim in [
        swap(router(&s.router_id), &[&s.weth, &mid], 0, 0),
        swap(router(&s.router_id), &[&s.weth, &s.usdc, &mid], 0, 0),
    ] {
        let swaps = vec![
            &s.env,
            swap(router(&s.router_id), &[&s.weth, &s.usdc], cover, 0),
            skim,
        ];
        assert_reverts(&s, DRAW, &r, &swaps, 0, INVALID_SWAP);
    }
    assert_eq!(s.balance(&mid, &s.exec_id), 0);
}

/// Exact amounts that leave part of the lot with the executor: CollateralKept.
#[test]
fn amounts_that_leave_collateral_unsold_revert() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let second = s.add_router(1_000_000 * U, true);
    let path = [&s.weth, &s.usdc];
    let one_short = vec![&s.env, swap(router(&s.router_id), &path, SEIZED - 1, 0)];
    assert_reverts(&s, DRAW, &r, &one_short, 0, COLLATERAL_KEPT);
    let split_short = vec![
        &s.env,
        swap(router(&s.router_id), &path, 40 * U, 0),
        swap(router(&second), &path, 39 * U, 0),
    ];
    assert_reverts(&s, DRAW, &r, &split_short, 0, COLLATERAL_KEPT);
}

/// SAC error: the balance is too low for the transfer.
const TOKEN_BALANCE_ERROR: u32 = 10;

/// An exact amount above what the fill paid: with nothing else held, the token refuses the
/// router's pull and the whole transaction reverts (the remainder leg put first leaves nothing
/// for an exact leg after it, same outcome). WETH the executor already held (the owner's) is
/// sold along with the lot and all of its USDC goes to the vault: an owner can give the vault
/// more, never take any of it (the vault's USDC is never sold: a USDC path[0] is refused).
#[test]
fn selling_more_than_the_fill_paid() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let path = [&s.weth, &s.usdc];
    let too_much = vec![&s.env, swap(router(&s.router_id), &path, SEIZED + 1, 0)];
    assert_reverts(&s, DRAW, &r, &too_much, 0, TOKEN_BALANCE_ERROR);
    let pool = s.add_comet(1_000 * U, true);
    let too_much = vec![&s.env, swap(comet(&pool), &path, SEIZED + 1, 0)];
    assert_reverts(&s, DRAW, &r, &too_much, 0, TOKEN_BALANCE_ERROR);
    let remainder_first = vec![
        &s.env,
        swap(router(&s.router_id), &path, 0, 0),
        swap(router(&s.router_id), &path, 10 * U, 0),
    ];
    assert_reverts(&s, DRAW, &r, &remainder_first, 0, TOKEN_BALANCE_ERROR);

    let extra = 5 * U;
    s.mint(&s.weth, &s.exec_id, extra);
    let out = s.quote(SEIZED + extra);
    let vault_before = s.balance(&s.usdc, &s.vault_id);
    let all = vec![&s.env, swap(router(&s.router_id), &path, SEIZED + extra, out)];
    let profit = s
        .liquidate_as(&s.owner.clone(), DRAW, &r, &all, 0)
        .unwrap();
    assert_eq!(profit, out - DRAW - Setup::fee(out - DRAW));
    assert_eq!(s.balance(&s.usdc, &s.vault_id), vault_before + profit);
    assert_eq!(s.balance(&s.weth, &s.exec_id), 0);
}

/// A floor above what a venue pays reverts the whole transaction: the router's
/// InsufficientOutputAmount on the second leg of a split, Comet's ErrLimitOut. The vault, the
/// registry, the pool, the venues and the executor are all as before.
#[test]
fn a_floor_above_what_the_venue_pays_reverts_everything() {
    let s = Setup::registered(Mode::Wasm);
    let r = s.requests(DRAW, SEIZED);
    let second = s.add_router(1_000_000 * U, true);
    let pool = s.add_comet(1_000 * U, true);
    let path = [&s.weth, &s.usdc];
    let first_part = SEIZED * 2 / 3;
    let out2 = s.quote_on(&second, SEIZED - first_part, &path);
    let venues_before = (
        reserves(&s, &s.router_id),
        reserves(&s, &second),
        s.balance(&s.weth, &pool),
        s.balance(&s.usdc, &pool),
    );
    let second_leg_short = vec![
        &s.env,
        swap(router(&s.router_id), &path, first_part, 0),
        swap(router(&second), &path, 0, out2 + 1),
    ];
    assert_reverts(&s, DRAW, &r, &second_leg_short, 0, ROUTER_INSUFFICIENT_OUTPUT);
    // Comet pays about comet_out(...): ask 0.1 % more
    let expected = comet_out(venues_before.2, venues_before.3, SEIZED);
    let floor = (expected * 1.001) as i128;
    let comet_short = vec![&s.env, swap(comet(&pool), &path, 0, floor)];
    assert_reverts(&s, DRAW, &r, &comet_short, 0, COMET_LIMIT_OUT);
    assert_eq!(
        (
            reserves(&s, &s.router_id),
            reserves(&s, &second),
            s.balance(&s.weth, &pool),
            s.balance(&s.usdc, &pool),
        ),
        venues_before
    );
}

/// Comet's ErrLimitOut: the output is below `min_amount_out`.
const COMET_LIMIT_OUT: u32 = 20;
