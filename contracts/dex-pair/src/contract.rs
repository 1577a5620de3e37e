use soroban_sdk::{contract, contractimpl, panic_with_error, token, Address, Env, I256};

use crate::{errors::PairError, events, math, storage};

/// Constant-product pair.
///
/// Flow (as in Uniswap v2): the caller transfers tokens to the pair, then calls `deposit`
/// or `swap`; the pair compares its token balances with the stored reserves to see what came
/// in. `swap` is permissionless: the k check makes underpaying impossible.
#[contract]
pub struct DexPair;

#[contractimpl]
impl DexPair {
    /// `factory` is the router that created the pair; `token_0 < token_1` is not required,
    /// but the order given here is the order of `get_reserves` and `swap` amounts.
    pub fn __constructor(e: Env, factory: Address, token_0: Address, token_1: Address) {
        if token_0 == token_1 {
            panic_with_error!(&e, PairError::IdenticalTokens);
        }
        storage::set_factory(&e, &factory);
        storage::set_tokens(&e, &token_0, &token_1);
        storage::set_reserves(&e, 0, 0);
        storage::extend_instance(&e);
    }

    pub fn token_0(e: Env) -> Address {
        storage::get_token_0(&e)
    }

    pub fn token_1(e: Env) -> Address {
        storage::get_token_1(&e)
    }

    pub fn factory(e: Env) -> Address {
        storage::get_factory(&e)
    }

    /// `(reserve_0, reserve_1)` as of the last deposit / withdraw / swap / sync.
    pub fn get_reserves(e: Env) -> (i128, i128) {
        storage::get_reserves(&e)
    }

    pub fn total_shares(e: Env) -> i128 {
        storage::get_total_shares(&e)
    }

    /// LP shares held by `id`.
    pub fn balance(e: Env, id: Address) -> i128 {
        storage::get_shares(&e, &id)
    }

    /// Mints LP shares to `to` for the tokens sent to the pair since the last update.
    /// First deposit: `sqrt(a0 * a1) - MINIMUM_LIQUIDITY` (the minimum is locked to the pair
    /// itself); afterwards `min(a0 * S / r0, a1 * S / r1)` (floor: the depositor gets less).
    pub fn deposit(e: Env, to: Address) -> i128 {
        storage::extend_instance(&e);
        let (r0, r1) = storage::get_reserves(&e);
        let (b0, b1) = balances(&e);
        let a0 = b0 - r0;
        let a1 = b1 - r1;
        if a0 <= 0 || a1 <= 0 {
            panic_with_error!(&e, PairError::InsufficientInput);
        }
        let total = storage::get_total_shares(&e);
        let shares = if total == 0 {
            let product = a0.checked_mul(a1).unwrap_or_else(|| panic_with_error!(&e, PairError::Overflow));
            let root = math::sqrt(product);
            if root <= math::MINIMUM_LIQUIDITY {
                panic_with_error!(&e, PairError::InsufficientLiquidityMinted);
            }
            let locked = e.current_contract_address();
            storage::set_shares(&e, &locked, math::MINIMUM_LIQUIDITY);
            storage::set_total_shares(&e, math::MINIMUM_LIQUIDITY);
            root - math::MINIMUM_LIQUIDITY
        } else {
            let s0 = math::mul_div_floor(a0, total, r0).unwrap_or_else(|| panic_with_error!(&e, PairError::Overflow));
            let s1 = math::mul_div_floor(a1, total, r1).unwrap_or_else(|| panic_with_error!(&e, PairError::Overflow));
            s0.min(s1)
        };
        if shares <= 0 {
            panic_with_error!(&e, PairError::InsufficientLiquidityMinted);
        }
        storage::set_shares(&e, &to, storage::get_shares(&e, &to) + shares);
        storage::set_total_shares(&e, storage::get_total_shares(&e) + shares);
        storage::set_reserves(&e, b0, b1);
        events::deposit(&e, &to, a0, a1, shares);
        events::sync(&e, b0, b1);
        shares
    }

    /// Burns `shares` of `from` and pays the pro-rata token amounts to `to`
    /// (`amount_i = floor(shares * balance_i / S)`: the pool keeps the dust).
    pub fn withdraw(e: Env, from: Address, shares: i128, to: Address) -> (i128, i128) {
        storage::extend_instance(&e);
        from.require_auth();
        let held = storage::get_shares(&e, &from);
        if shares <= 0 || shares > held {
            panic_with_error!(&e, PairError::InsufficientLiquidityBurned);
        }
        let total = storage::get_total_shares(&e);
        let (b0, b1) = balances(&e);
        let a0 = math::mul_div_floor(shares, b0, total).unwrap_or_else(|| panic_with_error!(&e, PairError::Overflow));
        let a1 = math::mul_div_floor(shares, b1, total).unwrap_or_else(|| panic_with_error!(&e, PairError::Overflow));
        if a0 <= 0 || a1 <= 0 {
            panic_with_error!(&e, PairError::InsufficientLiquidityBurned);
        }
        storage::set_shares(&e, &from, held - shares);
        storage::set_total_shares(&e, total - shares);
        let pair = e.current_contract_address();
        token::Client::new(&e, &storage::get_token_0(&e)).transfer(&pair, &to, &a0);
        token::Client::new(&e, &storage::get_token_1(&e)).transfer(&pair, &to, &a1);
        let (n0, n1) = balances(&e);
        storage::set_reserves(&e, n0, n1);
        events::withdraw(&e, &to, shares, a0, a1);
        events::sync(&e, n0, n1);
        (a0, a1)
    }

    /// Sends `amount_0_out` / `amount_1_out` to `to`, then requires that the balances, net of
    /// the 0.3 % fee on what came in, keep the product:
    /// `(b0 * 1000 - in0 * 3) * (b1 * 1000 - in1 * 3) >= r0 * r1 * 1000^2`.
    pub fn swap(e: Env, amount_0_out: i128, amount_1_out: i128, to: Address) {
        storage::extend_instance(&e);
        if amount_0_out < 0 || amount_1_out < 0 || (amount_0_out == 0 && amount_1_out == 0) {
            panic_with_error!(&e, PairError::InvalidAmount);
        }
        let (r0, r1) = storage::get_reserves(&e);
        if amount_0_out >= r0 || amount_1_out >= r1 {
            panic_with_error!(&e, PairError::InsufficientLiquidity);
        }
        let t0 = storage::get_token_0(&e);
        let t1 = storage::get_token_1(&e);
        if to == t0 || to == t1 {
            panic_with_error!(&e, PairError::InvalidTo);
        }
        let pair = e.current_contract_address();
        if amount_0_out > 0 {
            token::Client::new(&e, &t0).transfer(&pair, &to, &amount_0_out);
        }
        if amount_1_out > 0 {
            token::Client::new(&e, &t1).transfer(&pair, &to, &amount_1_out);
        }
        let (b0, b1) = balances(&e);
        let in0 = if b0 > r0 - amount_0_out { b0 - (r0 - amount_0_out) } else { 0 };
        let in1 = if b1 > r1 - amount_1_out { b1 - (r1 - amount_1_out) } else { 0 };
        if in0 == 0 && in1 == 0 {
            panic_with_error!(&e, PairError::InsufficientInput);
        }
        if !k_holds(&e, b0, b1, in0, in1, r0, r1) {
            panic_with_error!(&e, PairError::KInvariant);
        }
        storage::set_reserves(&e, b0, b1);
        events::swap(&e, &to, in0, in1, amount_0_out, amount_1_out);
        events::sync(&e, b0, b1);
    }

    /// Sets the reserves to the current balances (tokens sent without a deposit or swap).
    pub fn sync(e: Env) {
        storage::extend_instance(&e);
        let (b0, b1) = balances(&e);
        storage::set_reserves(&e, b0, b1);
        events::sync(&e, b0, b1);
    }
}

fn balances(e: &Env) -> (i128, i128) {
    let pair = e.current_contract_address();
    let b0 = token::Client::new(e, &storage::get_token_0(e)).balance(&pair);
    let b1 = token::Client::new(e, &storage::get_token_1(e)).balance(&pair);
    (b0, b1)
}

/// The k check in 256-bit arithmetic so that no reserve size can overflow it.
pub(crate) fn k_holds(e: &Env, b0: i128, b1: i128, in0: i128, in1: i128, r0: i128, r1: i128) -> bool {
    let thousand = I256::from_i128(e, math::FEE_DENOM);
    let three = I256::from_i128(e, math::FEE_DENOM - math::FEE_KEEP);
    let adj0 = I256::from_i128(e, b0).mul(&thousand).sub(&I256::from_i128(e, in0).mul(&three));
    let adj1 = I256::from_i128(e, b1).mul(&thousand).sub(&I256::from_i128(e, in1).mul(&three));
    let lhs = adj0.mul(&adj1);
    let rhs = I256::from_i128(e, r0).mul(&I256::from_i128(e, r1)).mul(&thousand).mul(&thousand);
    lhs >= rhs
}
