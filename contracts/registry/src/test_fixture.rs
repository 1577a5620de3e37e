//! The registry unit tests' fixture: a USDC token (Stellar Asset Contract), a stub vault that
//! records the write-off call, a stand-in executor wasm, and the registry, native or built
//! wasm. contracts/vault/tests run the registry against the real vault.
extern crate std;

use soroban_sdk::testutils::{Address as _, EnvTestConfig, Ledger};
use soroban_sdk::token::{StellarAssetClient, TokenClient};
use soroban_sdk::xdr::{Limits, ScEnvMetaEntry, ScEnvMetaEntryInterfaceVersion, WriteXdr};
use soroban_sdk::{contract, contractimpl, symbol_short, Address, BytesN, Env, String};

use crate::{RegistryClient, RegistryConfig, RegistryError};

pub const U: i128 = 10_000_000;
pub const STAKE: i128 = 1_000 * U;
pub const TIMEOUT: u64 = 600;
pub const T0: u64 = 1_700_000_000;
pub const RATE: u32 = 2_500;
// What the stub vault answers write_off with (the real vault returns the draw it wrote down).
pub const WRITTEN_DOWN: i128 = 4_242;

#[contract]
pub struct StubVault;

#[contractimpl]
impl StubVault {
    pub fn write_off(env: Env, registry: Address, keeper: Address, recovered: i128) -> i128 {
        registry.require_auth();
        env.storage()
            .instance()
            .set(&symbol_short!("last"), &(keeper, recovered));
        WRITTEN_DOWN
    }
}

/// A stand-in executor wasm, written out by hand: one export, `__constructor(owner, vault,
/// usdc, registry)`, which takes four values and returns void, and the environment meta
/// section the host requires. deploy_v2 with any other number of arguments fails, so it checks
/// that deploy_executor passes four; it does not depend on contracts/executor being built.
pub fn standin_executor_wasm(env: &Env) -> std::vec::Vec<u8> {
    fn section(id: u8, body: &[u8]) -> std::vec::Vec<u8> {
        assert!(body.len() < 128);
        let mut s = std::vec![id, body.len() as u8];
        s.extend_from_slice(body);
        s
    }
    let meta = ScEnvMetaEntry::ScEnvMetaKindInterfaceVersion(ScEnvMetaEntryInterfaceVersion {
        protocol: env.ledger().get().protocol_version,
        pre_release: 0,
    })
    .to_xdr(Limits::none())
    .unwrap();
    let mut custom = std::vec![17u8];
    custom.extend_from_slice(b"contractenvmetav0");
    custom.extend_from_slice(&meta);

    let mut wasm = std::vec![0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
    // type 0: (i64, i64, i64, i64) -> i64
    wasm.extend(section(1, &[1, 0x60, 4, 0x7e, 0x7e, 0x7e, 0x7e, 1, 0x7e]));
    wasm.extend(section(3, &[1, 0]));
    let mut export = std::vec![1u8, 13];
    export.extend_from_slice(b"__constructor");
    export.extend_from_slice(&[0, 0]);
    wasm.extend(section(7, &export));
    // body: no locals; i64.const 2 (Val void); end
    wasm.extend(section(10, &[1, 4, 0, 0x42, 2, 0x0b]));
    wasm.extend(section(0, &custom));
    wasm
}

pub fn config(usdc: &Address, executor_wasm: &BytesN<32>) -> RegistryConfig {
    RegistryConfig {
        min_stake: STAKE,
        slash_timeout: TIMEOUT,
        slash_rate_bps: RATE,
        usdc_token: usdc.clone(),
        executor_wasm: executor_wasm.clone(),
    }
}

pub fn new_env() -> Env {
    let env = Env::new_with_config(EnvTestConfig {
        capture_snapshot_at_drop: false,
    });
    env.mock_all_auths();
    env.ledger().with_mut(|l| {
        l.timestamp = T0;
        l.sequence_number = 1_000;
    });
    env
}

/// The built registry wasm (target/wasm/registry.wasm), checked to be the current interface.
pub fn registry_wasm() -> std::vec::Vec<u8> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm/registry.wasm");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build it first with `bash scripts/build-wasm.sh registry`",
            path.display()
        )
    });
    assert!(
        bytes.windows(12).any(|w| w == b"keeper_count"),
        "{} predates keeper_count: rebuild it with `bash scripts/build-wasm.sh registry`",
        path.display()
    );
    bytes
}

pub struct T {
    pub env: Env,
    pub admin: Address,
    pub reg: Address,
    pub vault: Address,
    pub usdc: Address,
    pub executor_wasm: BytesN<32>,
}

impl T {
    pub fn new() -> Self {
        Self::build(RATE, false)
    }

    pub fn with_rate(bps: u32) -> Self {
        Self::build(bps, false)
    }

    /// The registry from target/wasm/registry.wasm instead of the native contract.
    pub fn wasm() -> Self {
        Self::build(RATE, true)
    }

    fn build(bps: u32, wasm: bool) -> Self {
        let env = new_env();
        let usdc = env
            .register_stellar_asset_contract_v2(Address::generate(&env))
            .address();
        let executor_wasm = env
            .deployer()
            .upload_contract_wasm(standin_executor_wasm(&env).as_slice());
        let admin = Address::generate(&env);
        let mut cfg = config(&usdc, &executor_wasm);
        cfg.slash_rate_bps = bps;
        let reg = if wasm {
            env.register(registry_wasm().as_slice(), (admin.clone(), cfg))
        } else {
            env.register(crate::Registry, (admin.clone(), cfg))
        };
        let vault = env.register(StubVault, ());
        let t = T {
            env,
            admin,
            reg,
            vault,
            usdc,
            executor_wasm,
        };
        t.c().set_vault(&t.vault);
        t
    }

    pub fn c(&self) -> RegistryClient<'_> {
        RegistryClient::new(&self.env, &self.reg)
    }

    pub fn token(&self) -> TokenClient<'_> {
        TokenClient::new(&self.env, &self.usdc)
    }

    pub fn mint(&self, to: &Address, amount: i128) {
        StellarAssetClient::new(&self.env, &self.usdc).mint(to, &amount);
    }

    pub fn funded(&self, amount: i128) -> Address {
        let a = Address::generate(&self.env);
        self.mint(&a, amount);
        a
    }

    pub fn keeper(&self) -> Address {
        let k = self.funded(STAKE);
        self.c().register(&k, &self.name("k"));
        k
    }

    pub fn name(&self, s: &str) -> String {
        String::from_str(&self.env, s)
    }

    pub fn advance(&self, s: u64) {
        self.env.ledger().with_mut(|l| l.timestamp += s);
    }

    /// The (keeper, recovered) of the stub vault's last write_off.
    pub fn last_write_off(&self) -> Option<(Address, i128)> {
        self.env.as_contract(&self.vault, || {
            self.env.storage().instance().get(&symbol_short!("last"))
        })
    }

    /// The operators of every slot, in slot order.
    pub fn operators(&self) -> std::vec::Vec<Address> {
        let c = self.c();
        let mut out = std::vec::Vec::new();
        let mut start = 0;
        loop {
            let page = c.get_keepers(&start, &200);
            if page.is_empty() {
                return out;
            }
            start += page.len();
            out.extend(page.iter().map(|i| i.operator));
        }
    }
}

pub fn err<T: core::fmt::Debug>(
    r: Result<T, Result<soroban_sdk::Error, soroban_sdk::InvokeError>>,
) -> soroban_sdk::Error {
    match r {
        Err(Ok(e)) => e,
        other => panic!("expected a contract error, got {other:?}"),
    }
}

pub fn is(e: RegistryError) -> soroban_sdk::Error {
    e.into()
}
