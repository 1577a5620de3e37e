//! A test fixture for the auditor: the vault's read functions over the vault's own storage
//! layout (contracts/vault/src/storage.rs, types.rs), except that `balance` rounds up where the
//! vault rounds down. Swapped in as the code of a deployed vault (the sandbox's
//! `sandbox_setLedgerEntry` on its instance), it makes the contract and src/core's share math
//! disagree, which is what audit invariant 6 exists to catch. Never deployed for real.
#![no_std]

use soroban_sdk::{contract, contractimpl, contracttype, symbol_short, Address, Env, Symbol};

// Field for field the vault's `VaultState` and `DepositorInfo`: a contracttype struct is stored
// as a map keyed by field name, so these read the vault's entries as they are.
#[contracttype]
#[derive(Clone, Default)]
pub struct VaultState {
    pub total_usdc: i128,
    pub total_shares: i128,
    pub total_profit: i128,
    pub active_liq: i128,
    pub locked_profit: i128,
    pub lock_start: u64,
    pub lock_end: u64,
    pub pending_shares: i128,
}

#[contracttype]
#[derive(Clone, Default)]
pub struct VaultConfig {
    pub deposit_cap: i128,
    pub withdraw_cooldown: u64,
    pub max_draw_per_keeper: i128,
    pub keeper_fee_bps: u32,
    pub profit_unlock_secs: u64,
}

#[contracttype]
#[derive(Clone, Default)]
pub struct DepositorInfo {
    pub shares: i128,
    pub cost_basis: i128,
    pub total_deposited: i128,
    pub total_withdrawn: i128,
    pub last_deposit_time: u64,
    pub withdraw_request: i128,
}

const USDC: Symbol = symbol_short!("usdc");
const REGISTRY: Symbol = symbol_short!("registry");
const STATE: Symbol = symbol_short!("state");
const CONFIG: Symbol = symbol_short!("config");
const DEPOSITOR: Symbol = symbol_short!("dep");
const DRAW: Symbol = symbol_short!("draw");

#[contract]
pub struct VaultMisquote;

#[contractimpl]
impl VaultMisquote {
    pub fn get_state(env: Env) -> VaultState {
        env.storage().instance().get(&STATE).unwrap_or_default()
    }

    pub fn get_config(env: Env) -> VaultConfig {
        env.storage().instance().get(&CONFIG).unwrap_or_default()
    }

    /// As the vault: ceil(locked_profit * (lock_end - now) / (lock_end - lock_start)), 0 at or
    /// after lock_end.
    pub fn get_locked_profit(env: Env) -> i128 {
        let s = Self::get_state(env.clone());
        let now = env.ledger().timestamp();
        if s.locked_profit <= 0 || now >= s.lock_end {
            return 0;
        }
        let left = (s.lock_end - now) as i128;
        let span = (s.lock_end - s.lock_start.min(now)) as i128;
        (s.locked_profit * left + span - 1) / span
    }

    pub fn get_usdc(env: Env) -> Address {
        env.storage().instance().get(&USDC).unwrap()
    }

    pub fn get_registry(env: Env) -> Address {
        env.storage().instance().get(&REGISTRY).unwrap()
    }

    pub fn get_depositor(env: Env, depositor: Address) -> DepositorInfo {
        env.storage()
            .persistent()
            .get(&(DEPOSITOR, depositor))
            .unwrap_or_default()
    }

    pub fn get_keeper_draw(env: Env, keeper: Address) -> i128 {
        let draw: Option<i128> = env.storage().persistent().get(&(DRAW, keeper));
        draw.unwrap_or(0).max(0)
    }

    /// ceil(shares * free assets / total_shares): the vault floors (toward the pool).
    pub fn balance(env: Env, depositor: Address) -> i128 {
        let shares = Self::get_depositor(env.clone(), depositor).shares;
        if shares == 0 {
            return 0;
        }
        let free = {
            let s = Self::get_state(env.clone());
            (s.total_usdc - Self::get_locked_profit(env.clone())).max(0)
        };
        let s = Self::get_state(env);
        (shares * free + s.total_shares - 1) / s.total_shares
    }
}
