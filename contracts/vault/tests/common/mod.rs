//! Test fixture: a USDC token (Stellar Asset Contract), the registry and the vault, wired
//! together, either as native Rust contracts or as the built wasm (target/wasm/*.wasm, made by
//! `bash scripts/build-wasm.sh vault registry`). The same test body runs on both.
#![allow(dead_code)]

use registry::{RegistryClient, RegistryConfig};
use soroban_sdk::testutils::{Address as _, EnvTestConfig, Ledger};
use soroban_sdk::token::{StellarAssetClient, TokenClient};
use soroban_sdk::{Address, Env, String};
use vault::{VaultClient, VaultConfig};

// Vault error codes (errors.rs), stable interface.
pub const INVALID_CONFIG: u32 = 100;
pub const NOT_INIT: u32 = 101;
pub const ALREADY_INIT: u32 = 102;
pub const INVALID_AMOUNT: u32 = 103;
pub const ZERO_SHARES: u32 = 104;
pub const POOL_INSOLVENT: u32 = 105;
pub const DEPOSIT_CAP_EXCEEDED: u32 = 107;
pub const COOLDOWN_ACTIVE: u32 = 108;
pub const INSUFFICIENT_SHARES: u32 = 109;
pub const INSUFFICIENT_LIQUIDITY: u32 = 110;
pub const DEPOSITS_PAUSED: u32 = 111;
pub const DRAWS_PAUSED: u32 = 112;
pub const DRAW_CAP_EXCEEDED: u32 = 113;
pub const DRAW_OUTSTANDING: u32 = 114;
pub const NO_ACTIVE_DRAW: u32 = 115;
pub const KEEPER_SLASHED: u32 = 116;
pub const UNAUTHORIZED: u32 = 117;
pub const ZERO_ASSETS: u32 = 118;
pub const INVALID_COOLDOWN: u32 = 119;
pub const INVALID_KEEPER_FEE: u32 = 120;
pub const INVALID_UNLOCK_PERIOD: u32 = 121;
pub const NOT_APPROVED_EXECUTOR: u32 = 122;
pub const FLASH_NOT_REPAID: u32 = 123;
pub const WITHDRAWAL_PENDING: u32 = 124;
// Registry codes propagated through the vault.
pub const REG_NOT_REGISTERED: u32 = 202;
pub const REG_BOND_TOO_SMALL: u32 = 216;

pub const U: i128 = 10_000_000; // 1 USDC
pub const MIN_STAKE: i128 = 1_000 * U;
pub const SLASH_TIMEOUT: u64 = 600;
pub const SLASH_RATE_BPS: u32 = 5_000;
pub const COOLDOWN: u64 = 3_600;
pub const DEPOSIT_CAP: i128 = 10_000_000 * U;
pub const MAX_DRAW: i128 = 100_000 * U;
pub const START_TIME: u64 = 1_700_000_000;
/// The seed's tables (vault.rs) run without a keeper fee; economics.rs sets one.
pub const KEEPER_FEE_BPS: u32 = 0;
pub const UNLOCK_SECS: u64 = 3_600;
/// A keeper's stake from `Setup::keeper`: min_stake plus bond. Its two-step draw limit is
/// stake * (10000 - rate) / 10000 (5,000 USDC at the fixture's 50 % slash rate).
pub const KEEPER_STAKE: i128 = 10_000 * U;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Native,
    Wasm,
}

pub fn wasm_bytes(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/wasm")
        .join(format!("{name}.wasm"));
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build the contracts first with `bash scripts/build-wasm.sh vault registry` \
             (scripts/test.sh does this before cargo test)",
            path.display()
        )
    })
}

pub struct Setup {
    pub env: Env,
    pub mode: Mode,
    pub admin: Address,
    pub usdc: Address,
    pub vault_id: Address,
    pub registry_id: Address,
    pub slash_rate_bps: u32,
}

pub fn vault_config() -> VaultConfig {
    VaultConfig {
        deposit_cap: DEPOSIT_CAP,
        withdraw_cooldown: COOLDOWN,
        max_draw_per_keeper: MAX_DRAW,
        keeper_fee_bps: KEEPER_FEE_BPS,
        profit_unlock_secs: UNLOCK_SECS,
    }
}

impl Setup {
    /// Fully wired: registry set on the vault and vault set on the registry.
    pub fn new(mode: Mode) -> Self {
        let s = Self::unwired(mode, vault_config());
        s.vault().set_registry(&s.registry_id);
        s.registry().set_vault(&s.vault_id);
        s
    }

    /// Contracts deployed, neither pointing at the other yet.
    pub fn unwired(mode: Mode, config: VaultConfig) -> Self {
        Self::unwired_with(mode, config, SLASH_RATE_BPS)
    }

    /// Fully wired, with a chosen slash rate.
    pub fn with_slash_rate(mode: Mode, slash_rate_bps: u32) -> Self {
        let s = Self::unwired_with(mode, vault_config(), slash_rate_bps);
        s.vault().set_registry(&s.registry_id);
        s.registry().set_vault(&s.vault_id);
        s
    }

    pub fn unwired_with(mode: Mode, config: VaultConfig, slash_rate_bps: u32) -> Self {
        // No snapshot files: the property tests create thousands of environments.
        let env = Env::new_with_config(EnvTestConfig {
            capture_snapshot_at_drop: false,
        });
        env.mock_all_auths();
        env.cost_estimate().budget().reset_unlimited();
        env.ledger().with_mut(|l| {
            l.timestamp = START_TIME;
            l.sequence_number = 1_000;
        });
        let admin = Address::generate(&env);
        let usdc = env
            .register_stellar_asset_contract_v2(Address::generate(&env))
            .address();
        let executor_wasm = env
            .deployer()
            .upload_contract_wasm(wasm_bytes("executor").as_slice());
        let rconfig = RegistryConfig {
            min_stake: MIN_STAKE,
            slash_timeout: SLASH_TIMEOUT,
            slash_rate_bps,
            usdc_token: usdc.clone(),
            executor_wasm,
        };
        let (vault_id, registry_id) = match mode {
            Mode::Native => (
                env.register(vault::Vault, (admin.clone(), usdc.clone(), config)),
                env.register(registry::Registry, (admin.clone(), rconfig)),
            ),
            Mode::Wasm => {
                let v = wasm_bytes("vault");
                let r = wasm_bytes("registry");
                (
                    env.register(v.as_slice(), (admin.clone(), usdc.clone(), config)),
                    env.register(r.as_slice(), (admin.clone(), rconfig)),
                )
            }
        };
        Setup {
            env,
            mode,
            admin,
            usdc,
            vault_id,
            registry_id,
            slash_rate_bps,
        }
    }

    pub fn vault(&self) -> VaultClient<'_> {
        VaultClient::new(&self.env, &self.vault_id)
    }

    pub fn registry(&self) -> RegistryClient<'_> {
        RegistryClient::new(&self.env, &self.registry_id)
    }

    pub fn token(&self) -> TokenClient<'_> {
        TokenClient::new(&self.env, &self.usdc)
    }

    pub fn mint(&self, to: &Address, amount: i128) {
        StellarAssetClient::new(&self.env, &self.usdc).mint(to, &amount);
    }

    /// A fresh account holding `amount` USDC.
    pub fn funded(&self, amount: i128) -> Address {
        let a = Address::generate(&self.env);
        if amount > 0 {
            self.mint(&a, amount);
        }
        a
    }

    /// A registered keeper holding `extra` USDC beyond its stake of KEEPER_STAKE (min_stake
    /// plus an added bond).
    pub fn keeper(&self, extra: i128) -> Address {
        self.keeper_staked(KEEPER_STAKE, extra)
    }

    /// A registered keeper with a stake of `stake` (>= MIN_STAKE) holding `extra` USDC.
    pub fn keeper_staked(&self, stake: i128, extra: i128) -> Address {
        let k = self.funded(stake + extra);
        self.registry()
            .register(&k, &String::from_str(&self.env, "keeper"));
        if stake > MIN_STAKE {
            self.registry().add_bond(&k, &(stake - MIN_STAKE));
        }
        k
    }

    /// The most a keeper with `stake` may hold two-step.
    pub fn draw_limit(&self, stake: i128) -> i128 {
        stake * (10_000 - self.slash_rate_bps as i128) / 10_000
    }

    /// Moves time past the profit unlock period.
    pub fn unlock_all(&self) {
        self.advance(UNLOCK_SECS);
    }

    /// A registered keeper with only min_stake and `extra` USDC: its draw limit is
    /// MIN_STAKE * (10000 - rate) / 10000.
    pub fn keeper_unbonded(&self, extra: i128) -> Address {
        let k = self.funded(MIN_STAKE + extra);
        self.registry()
            .register(&k, &String::from_str(&self.env, "keeper"));
        k
    }

    pub fn now(&self) -> u64 {
        self.env.ledger().timestamp()
    }

    pub fn advance(&self, seconds: u64) {
        self.env.ledger().with_mut(|l| {
            l.timestamp += seconds;
            l.sequence_number += (seconds / 5).max(1) as u32;
        });
    }

    pub fn vault_balance(&self) -> i128 {
        self.token().balance(&self.vault_id)
    }
}

/// The contract error code of a failed `try_` call (any contract: the vault's own or one
/// propagated from the registry or the token).
pub fn code<T, E>(r: Result<T, Result<E, soroban_sdk::InvokeError>>) -> u32
where
    T: std::fmt::Debug,
    E: std::fmt::Debug + Into<soroban_sdk::Error> + Copy,
{
    match r {
        Ok(v) => panic!("expected an error, got Ok({v:?})"),
        Err(Ok(e)) => {
            let err: soroban_sdk::Error = e.into();
            assert!(
                err.is_type(soroban_sdk::xdr::ScErrorType::Contract),
                "expected a contract error, got {err:?}"
            );
            err.get_code()
        }
        Err(Err(soroban_sdk::InvokeError::Contract(c))) => c,
        Err(Err(e)) => panic!("expected a contract error, got {e:?}"),
    }
}

/// Runs a test body once on native contracts and once on the built wasm.
#[macro_export]
macro_rules! both_modes {
    ($($name:ident),* $(,)?) => {
        mod native {
            $( #[test] fn $name() { super::$name($crate::common::Mode::Native) } )*
        }
        mod wasm {
            $( #[test] fn $name() { super::$name($crate::common::Mode::Wasm) } )*
        }
    };
}
