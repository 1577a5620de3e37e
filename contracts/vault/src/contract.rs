use soroban_sdk::{contract, contractimpl, panic_with_error, Address, Env, Val};

use crate::errors::VaultError;
use crate::events::{
    Deposited, DrawWrittenOff, Drawn, FlashDrawn, PauseChanged, ProceedsReturned, RegistrySet,
    WithdrawRequested, Withdrawn,
};
use crate::types::{DepositorInfo, PauseFlags, VaultConfig, VaultState};
use crate::unlock::{MAX_KEEPER_FEE_BPS, MAX_PERIOD_SECS};
use crate::{deposit, draw, flash, share_math, storage, unlock};

#[contract]
pub struct Vault;

/// Public interface of the pooled liquidation vault. Amounts are USDC with 7 decimals; shares
/// have 7 decimals too.
pub trait VaultTrait {
    /// Stores the admin, the USDC token and the configuration. Errors: InvalidConfig when
    /// deposit_cap <= 0 or max_draw_per_keeper <= 0; InvalidCooldown (withdraw_cooldown above
    /// 30 days), InvalidKeeperFee (above 5000 bps), InvalidUnlockPeriod (0 or above 30 days).
    fn __constructor(env: Env, admin: Address, usdc: Address, config: VaultConfig);

    /// Admin, once. Until it is called every pool operation fails with NotInit.
    /// Errors: AlreadyInit.
    fn set_registry(env: Env, registry: Address);

    /// Admin. Stops or resumes deposits and draws; withdraw and return_proceeds cannot be
    /// stopped.
    fn set_pause(env: Env, deposits: bool, draws: bool);

    /// Depositor auth. Returns the shares minted to the depositor. Errors: NotInit,
    /// DepositsPaused, InvalidAmount, ZeroShares, PoolInsolvent, Overflow, DepositCapExceeded.
    fn deposit(env: Env, depositor: Address, amount: i128) -> i128;

    /// Depositor auth. Returns the USDC paid out. Errors: NotInit, InvalidAmount,
    /// InsufficientShares, CooldownActive, ZeroAssets, InsufficientLiquidity, Overflow.
    fn withdraw(env: Env, depositor: Address, shares: i128) -> i128;

    /// Depositor auth. Sets the depositor's withdrawal request to `shares` (0 clears it).
    /// Errors: NotInit, InvalidAmount (negative), InsufficientShares, Overflow.
    fn request_withdraw(env: Env, depositor: Address, shares: i128);

    /// No auth of its own: the approved executor's callback requires its owner's. Lends
    /// `amount` to `keeper`, calls `keeper.on_flash(amount, call)` and requires the principal
    /// back before returning. Returns the profit booked for the depositors. Errors: NotInit,
    /// DrawsPaused, registry NotRegistered (202), KeeperSlashed, NotApprovedExecutor,
    /// InvalidAmount, DrawCapExceeded, InsufficientLiquidity, FlashNotRepaid, Overflow.
    fn flash_draw(env: Env, keeper: Address, amount: i128, call: Val, response_time_ms: u64)
        -> i128;

    /// Keeper auth. Errors: NotInit, DrawsPaused, registry NotRegistered (202), KeeperSlashed,
    /// InvalidAmount, DrawOutstanding, DrawCapExceeded, InsufficientLiquidity,
    /// WithdrawalPending, registry BondTooSmall (216).
    fn draw(env: Env, keeper: Address, amount: i128);

    /// Keeper auth (the keeper that drew). Returns the profit booked (0 on a partial return).
    /// Errors: NotInit, InvalidAmount, NoActiveDraw, Overflow.
    fn return_proceeds(env: Env, keeper: Address, amount: i128, response_time_ms: u64) -> i128;

    /// Registry only (called from registry `slash`). Writes the keeper's outstanding draw off
    /// and books the slashed stake already sent. Returns the amount written down.
    /// Errors: NotInit, Unauthorized, InvalidAmount, NoActiveDraw.
    fn write_off(env: Env, registry: Address, keeper: Address, recovered: i128) -> i128;

    fn get_state(env: Env) -> VaultState;
    fn get_config(env: Env) -> VaultConfig;
    fn get_pause(env: Env) -> PauseFlags;
    /// Errors: NotInit.
    fn get_registry(env: Env) -> Address;
    fn get_usdc(env: Env) -> Address;
    /// The depositor's record (all zero when unknown).
    fn get_depositor(env: Env, depositor: Address) -> DepositorInfo;
    /// USDC value of the depositor's shares: floor(shares * free assets / total_shares).
    fn balance(env: Env, depositor: Address) -> i128;
    /// Share price with 7 decimals: floor(free assets * 1e7 / total_shares), 1e7 when empty.
    /// Free assets = total_usdc less the profit still locked.
    fn share_price(env: Env) -> i128;
    /// Booked profit not yet released to the share price.
    fn get_locked_profit(env: Env) -> i128;
    /// Outstanding draw of the keeper, 0 when none.
    fn get_keeper_draw(env: Env, keeper: Address) -> i128;
}

fn ok<T>(env: &Env, r: Result<T, VaultError>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic_with_error!(env, e),
    }
}

#[contractimpl]
impl VaultTrait for Vault {
    fn __constructor(env: Env, admin: Address, usdc: Address, config: VaultConfig) {
        if config.deposit_cap <= 0 || config.max_draw_per_keeper <= 0 {
            panic_with_error!(&env, VaultError::InvalidConfig);
        }
        if config.withdraw_cooldown > MAX_PERIOD_SECS {
            panic_with_error!(&env, VaultError::InvalidCooldown);
        }
        if config.keeper_fee_bps > MAX_KEEPER_FEE_BPS {
            panic_with_error!(&env, VaultError::InvalidKeeperFee);
        }
        if config.profit_unlock_secs == 0 || config.profit_unlock_secs > MAX_PERIOD_SECS {
            panic_with_error!(&env, VaultError::InvalidUnlockPeriod);
        }
        storage::set_admin(&env, &admin);
        storage::set_usdc(&env, &usdc);
        storage::set_config(&env, &config);
        storage::set_state(&env, &VaultState::default());
        storage::extend_instance(&env);
    }

    fn set_registry(env: Env, registry: Address) {
        storage::extend_instance(&env);
        storage::get_admin(&env).require_auth();
        if storage::has_registry(&env) {
            panic_with_error!(&env, VaultError::AlreadyInit);
        }
        storage::set_registry(&env, &registry);
        RegistrySet { registry }.emit(&env);
    }

    fn set_pause(env: Env, deposits: bool, draws: bool) {
        storage::extend_instance(&env);
        storage::get_admin(&env).require_auth();
        storage::set_pause(&env, &PauseFlags { deposits, draws });
        PauseChanged { deposits, draws }.emit(&env);
    }

    fn deposit(env: Env, depositor: Address, amount: i128) -> i128 {
        storage::extend_instance(&env);
        depositor.require_auth();
        let minted = ok(&env, deposit::execute_deposit(&env, &depositor, amount));
        Deposited {
            depositor,
            amount,
            shares: minted.shares,
            dead_shares: minted.dead_shares,
        }
        .emit(&env);
        minted.shares
    }

    fn withdraw(env: Env, depositor: Address, shares: i128) -> i128 {
        storage::extend_instance(&env);
        depositor.require_auth();
        let amount = ok(&env, deposit::execute_withdraw(&env, &depositor, shares));
        Withdrawn {
            depositor,
            shares,
            amount,
        }
        .emit(&env);
        amount
    }

    fn request_withdraw(env: Env, depositor: Address, shares: i128) {
        storage::extend_instance(&env);
        depositor.require_auth();
        ok(&env, deposit::execute_request(&env, &depositor, shares));
        WithdrawRequested { depositor, shares }.emit(&env);
    }

    fn flash_draw(
        env: Env,
        keeper: Address,
        amount: i128,
        call: Val,
        response_time_ms: u64,
    ) -> i128 {
        storage::extend_instance(&env);
        let settled = ok(
            &env,
            flash::execute_flash(&env, &keeper, amount, call, response_time_ms),
        );
        FlashDrawn {
            keeper,
            amount,
            profit: settled.profit,
            fee: settled.fee,
        }
        .emit(&env);
        settled.profit
    }

    fn draw(env: Env, keeper: Address, amount: i128) {
        storage::extend_instance(&env);
        keeper.require_auth();
        ok(&env, draw::execute_draw(&env, &keeper, amount));
        Drawn { keeper, amount }.emit(&env);
    }

    fn return_proceeds(env: Env, keeper: Address, amount: i128, response_time_ms: u64) -> i128 {
        storage::extend_instance(&env);
        keeper.require_auth();
        let (profit, remaining, fee) = ok(
            &env,
            draw::execute_return(&env, &keeper, amount, response_time_ms),
        );
        ProceedsReturned {
            keeper,
            amount,
            profit,
            remaining,
            response_time_ms,
            fee,
        }
        .emit(&env);
        profit
    }

    fn write_off(env: Env, registry: Address, keeper: Address, recovered: i128) -> i128 {
        storage::extend_instance(&env);
        let written_down = ok(
            &env,
            draw::execute_write_off(&env, &registry, &keeper, recovered),
        );
        DrawWrittenOff {
            keeper,
            written_down,
            recovered,
        }
        .emit(&env);
        written_down
    }

    fn get_state(env: Env) -> VaultState {
        storage::extend_instance(&env);
        storage::get_state(&env)
    }

    fn get_config(env: Env) -> VaultConfig {
        storage::extend_instance(&env);
        storage::get_config(&env)
    }

    fn get_pause(env: Env) -> PauseFlags {
        storage::extend_instance(&env);
        storage::get_pause(&env)
    }

    fn get_registry(env: Env) -> Address {
        storage::extend_instance(&env);
        ok(&env, storage::get_registry(&env))
    }

    fn get_usdc(env: Env) -> Address {
        storage::extend_instance(&env);
        storage::get_usdc(&env)
    }

    fn get_depositor(env: Env, depositor: Address) -> DepositorInfo {
        storage::extend_instance(&env);
        storage::get_depositor(&env, &depositor)
    }

    fn balance(env: Env, depositor: Address) -> i128 {
        storage::extend_instance(&env);
        let shares = storage::get_depositor(&env, &depositor).shares;
        if shares == 0 {
            return 0;
        }
        let state = storage::get_state(&env);
        let free = ok(&env, unlock::free_assets(&env, &state, env.ledger().timestamp()));
        ok(
            &env,
            share_math::usdc_for_shares(&env, shares, free, state.total_shares),
        )
    }

    fn share_price(env: Env) -> i128 {
        storage::extend_instance(&env);
        let state = storage::get_state(&env);
        let free = ok(&env, unlock::free_assets(&env, &state, env.ledger().timestamp()));
        ok(&env, share_math::share_price(&env, free, state.total_shares))
    }

    fn get_locked_profit(env: Env) -> i128 {
        storage::extend_instance(&env);
        let state = storage::get_state(&env);
        ok(&env, unlock::locked(&env, &state, env.ledger().timestamp()))
    }

    fn get_keeper_draw(env: Env, keeper: Address) -> i128 {
        storage::extend_instance(&env);
        storage::get_draw(&env, &keeper).unwrap_or(0)
    }
}
