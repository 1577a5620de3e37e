use soroban_sdk::{contract, contractimpl, panic_with_error, Address, BytesN, Env, String, Vec};

use crate::errors::RegistryError;
use crate::events::{
    BondAdded, BondWithdrawn, DrawCleared, DrawMarked, ExecutionRecorded, ExecutorDeployed,
    KeeperDeregistered, KeeperRegistered, KeeperSlashed, VaultSet, VenuesSet,
};
use crate::types::{KeeperInfo, RegistryConfig};
use crate::{bond, execution, executor, keeper, slash, storage};

/// The longest slash_timeout the constructor accepts: 7 days.
pub const MAX_SLASH_TIMEOUT: u64 = 7 * 24 * 3600;
/// The highest slash_rate_bps the constructor accepts.
pub const MAX_SLASH_RATE_BPS: u32 = 5_000;

#[contract]
pub struct Registry;

/// Public interface of the keeper registry.
pub trait RegistryTrait {
    /// Stores the admin (who may set the vault, once, and the venues) and the fixed
    /// configuration. Errors: InvalidConfig (min_stake <= 0), InvalidSlashRate
    /// (slash_rate_bps == 0 or > 5000), InvalidTimeout (slash_timeout == 0 or > 7 days).
    fn __constructor(env: Env, admin: Address, config: RegistryConfig);

    /// Admin, once. Errors: VaultAlreadySet.
    fn set_vault(env: Env, vault: Address);

    /// Operator auth. Pulls exactly min_stake USDC from the operator and creates its record in
    /// the next slot; `approved` when the operator is an executor deploy_executor deployed.
    /// Errors: AlreadyRegistered, KeeperBanned, InvalidName; the token's own error on a short
    /// balance.
    fn register(env: Env, operator: Address, name: String);

    /// Operator auth. Refunds the stake and deletes the record (the last slot moves into its
    /// place). Errors: NotRegistered, DrawOutstanding.
    fn deregister(env: Env, operator: Address);

    /// Operator auth. Pulls `amount` USDC into the operator's stake. Errors: InvalidAmount,
    /// NotRegistered, KeeperBanned (slashed); the token's own error on a short balance.
    fn add_bond(env: Env, operator: Address, amount: i128);

    /// Operator auth. Refunds `amount` of the stake. Errors: InvalidAmount, NotRegistered,
    /// DrawOutstanding, BondBelowMinimum (less than min_stake would be left).
    fn withdraw_bond(env: Env, operator: Address, amount: i128);

    /// Errors: NotRegistered.
    fn get_keeper(env: Env, operator: Address) -> KeeperInfo;

    /// The keepers in slots [start, min(start + limit, keeper_count)); empty when start ==
    /// keeper_count. Deregistering moves the last keeper into the freed slot. Errors:
    /// InvalidPageSize (limit 0 or above 200), PageOutOfRange (start > keeper_count).
    fn get_keepers(env: Env, start: u32, limit: u32) -> Vec<KeeperInfo>;

    fn keeper_count(env: Env) -> u32;

    fn get_config(env: Env) -> RegistryConfig;

    /// Errors: VaultNotSet.
    fn get_vault(env: Env) -> Address;

    /// Permissionless. Slashes a keeper whose draw is older than slash_timeout seconds (strictly
    /// more): the penalty (slash_rate_bps of the stake) and the cover of the outstanding draw
    /// (up to what the stake has left) go to the vault, the vault writes the draw down, the
    /// keeper is banned. Returns the recovered amount. Errors: NotRegistered, NoActiveDraw,
    /// SlashTooEarly, VaultNotSet.
    fn slash(env: Env, keeper: Address) -> i128;

    /// Owner auth. Deploys the executor wasm at the address derived from this registry and
    /// `salt`, constructed with (owner, vault, usdc, registry), and records it as an approved
    /// executor. Errors: VaultNotSet; the host's when the salt was used before.
    fn deploy_executor(env: Env, owner: Address, salt: BytesN<32>) -> Address;

    /// Whether deploy_executor deployed `address`.
    fn is_executor(env: Env, address: Address) -> bool;

    /// Admin. Replaces the pools and routers an approved executor may use.
    fn set_venues(env: Env, venues: Vec<Address>);

    /// Empty when never set.
    fn get_venues(env: Env) -> Vec<Address>;

    /// Vault only. Marks a new draw (at most the keeper's draw_limit), or lowers the amount of
    /// an active one (partial return, timestamp kept). Errors: Unauthorized, NotRegistered,
    /// KeeperBanned, InvalidAmount, BondTooSmall (a new draw above draw_limit),
    /// DrawOutstanding (raising an active draw).
    fn mark_draw(env: Env, vault: Address, keeper: Address, amount: i128);

    /// Vault only. Errors: Unauthorized, NotRegistered, NoActiveDraw.
    fn clear_draw(env: Env, vault: Address, keeper: Address);

    /// Vault only. Errors: Unauthorized, NotRegistered, InvalidAmount (profit < 0).
    fn record_execution(
        env: Env,
        vault: Address,
        keeper: Address,
        success: bool,
        profit: i128,
        response_time_ms: u64,
    );
}

fn ok<T>(env: &Env, r: Result<T, RegistryError>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic_with_error!(env, e),
    }
}

// add_bond and withdraw_bond share their code.
fn change_bond(env: &Env, operator: Address, amount: i128, add: bool) {
    storage::extend_instance(env);
    operator.require_auth();
    let stake = ok(env, bond::execute_change(env, &operator, amount, add));
    if add {
        BondAdded {
            operator,
            amount,
            stake,
        }
        .emit(env);
    } else {
        BondWithdrawn {
            operator,
            amount,
            stake,
        }
        .emit(env);
    }
}

#[contractimpl]
impl RegistryTrait for Registry {
    fn __constructor(env: Env, admin: Address, config: RegistryConfig) {
        if config.min_stake <= 0 {
            panic_with_error!(&env, RegistryError::InvalidConfig);
        }
        if config.slash_rate_bps == 0 || config.slash_rate_bps > MAX_SLASH_RATE_BPS {
            panic_with_error!(&env, RegistryError::InvalidSlashRate);
        }
        if config.slash_timeout == 0 || config.slash_timeout > MAX_SLASH_TIMEOUT {
            panic_with_error!(&env, RegistryError::InvalidTimeout);
        }
        storage::set_admin(&env, &admin);
        storage::set_config(&env, &config);
        storage::extend_instance(&env);
    }

    fn set_vault(env: Env, vault: Address) {
        storage::extend_instance(&env);
        storage::get_admin(&env).require_auth();
        if storage::has_vault(&env) {
            panic_with_error!(&env, RegistryError::VaultAlreadySet);
        }
        storage::set_vault(&env, &vault);
        VaultSet { vault }.emit(&env);
    }

    fn register(env: Env, operator: Address, name: String) {
        storage::extend_instance(&env);
        operator.require_auth();
        let info = ok(&env, keeper::execute_register(&env, &operator, name));
        KeeperRegistered {
            operator,
            name: info.name,
            stake: info.stake,
        }
        .emit(&env);
    }

    fn deregister(env: Env, operator: Address) {
        storage::extend_instance(&env);
        operator.require_auth();
        let refund = ok(&env, keeper::execute_deregister(&env, &operator));
        KeeperDeregistered { operator, refund }.emit(&env);
    }

    fn add_bond(env: Env, operator: Address, amount: i128) {
        change_bond(&env, operator, amount, true);
    }

    fn withdraw_bond(env: Env, operator: Address, amount: i128) {
        change_bond(&env, operator, amount, false);
    }

    fn get_keeper(env: Env, operator: Address) -> KeeperInfo {
        storage::extend_instance(&env);
        ok(&env, storage::get_keeper(&env, &operator))
    }

    fn get_keepers(env: Env, start: u32, limit: u32) -> Vec<KeeperInfo> {
        storage::extend_instance(&env);
        ok(&env, keeper::list_keepers(&env, start, limit))
    }

    fn keeper_count(env: Env) -> u32 {
        storage::extend_instance(&env);
        storage::get_count(&env)
    }

    fn get_config(env: Env) -> RegistryConfig {
        storage::extend_instance(&env);
        storage::get_config(&env)
    }

    fn get_vault(env: Env) -> Address {
        storage::extend_instance(&env);
        ok(&env, storage::get_vault(&env))
    }

    fn slash(env: Env, keeper: Address) -> i128 {
        storage::extend_instance(&env);
        // Permissionless: the timeout is the authorisation.
        let (slashed, written_down, info) = ok(&env, slash::execute_slash(&env, &keeper));
        KeeperSlashed {
            keeper,
            slashed,
            written_down,
            remaining_stake: info.stake,
        }
        .emit(&env);
        slashed
    }

    fn deploy_executor(env: Env, owner: Address, salt: BytesN<32>) -> Address {
        storage::extend_instance(&env);
        owner.require_auth();
        let executor = ok(&env, executor::execute_deploy(&env, &owner, salt));
        ExecutorDeployed {
            executor: executor.clone(),
            owner,
        }
        .emit(&env);
        executor
    }

    fn is_executor(env: Env, address: Address) -> bool {
        storage::extend_instance(&env);
        storage::is_executor(&env, &address)
    }

    fn set_venues(env: Env, venues: Vec<Address>) {
        storage::extend_instance(&env);
        storage::get_admin(&env).require_auth();
        storage::set_venues(&env, &venues);
        VenuesSet { venues }.emit(&env);
    }

    fn get_venues(env: Env) -> Vec<Address> {
        storage::extend_instance(&env);
        storage::get_venues(&env)
    }

    fn mark_draw(env: Env, vault: Address, keeper: Address, amount: i128) {
        storage::extend_instance(&env);
        ok(&env, execution::require_vault(&env, &vault));
        let info = ok(&env, execution::execute_mark_draw(&env, &keeper, amount));
        DrawMarked {
            keeper,
            amount,
            timestamp: info.draw_timestamp,
        }
        .emit(&env);
    }

    fn clear_draw(env: Env, vault: Address, keeper: Address) {
        storage::extend_instance(&env);
        ok(&env, execution::require_vault(&env, &vault));
        ok(&env, execution::execute_clear_draw(&env, &keeper));
        DrawCleared { keeper }.emit(&env);
    }

    fn record_execution(
        env: Env,
        vault: Address,
        keeper: Address,
        success: bool,
        profit: i128,
        response_time_ms: u64,
    ) {
        storage::extend_instance(&env);
        ok(&env, execution::require_vault(&env, &vault));
        ok(
            &env,
            execution::execute_record(&env, &keeper, success, profit, response_time_ms),
        );
        ExecutionRecorded {
            keeper,
            success,
            profit,
            response_time_ms,
        }
        .emit(&env);
    }
}
