//! Share math, the same algorithm as src/core/shares (checked against vectors/share-math.json
//! by both test suites).
//!
//! Inflation defence: the first deposit mints 1:1 and locks DEAD_SHARES of it with the vault
//! itself, so the share supply never returns to a handful of units that a donation could
//! reprice. Every division floors, which is toward the pool and against the actor.
use soroban_sdk::{Env, I256};

use crate::errors::VaultError;

/// Shares (1e-7 units) locked with the vault at the first deposit.
pub const DEAD_SHARES: i128 = 1_000;
/// 1.0 with 7 decimals: the price of a share in an empty vault and the price scale.
pub const PRICE_SCALE: i128 = 10_000_000;

/// Shares minted by a deposit: `shares` to the depositor, `dead_shares` to the vault.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Minted {
    pub shares: i128,
    pub dead_shares: i128,
}

/// Shares minted for `amount` USDC.
///
/// - total_shares == 0: minted = amount, depositor gets amount - DEAD_SHARES (ZeroShares when
///   amount <= DEAD_SHARES); USDC already held by an empty vault is ignored.
/// - total_usdc == 0 < total_shares: PoolInsolvent (no price).
/// - else shares = floor(amount * total_shares / total_usdc); 0 is ZeroShares.
pub fn shares_for_deposit(
    env: &Env,
    amount: i128,
    total_usdc: i128,
    total_shares: i128,
) -> Result<Minted, VaultError> {
    if amount <= 0 {
        return Err(VaultError::InvalidAmount);
    }
    if total_shares == 0 {
        if amount <= DEAD_SHARES {
            return Err(VaultError::ZeroShares);
        }
        return Ok(Minted {
            shares: amount - DEAD_SHARES,
            dead_shares: DEAD_SHARES,
        });
    }
    if total_usdc == 0 {
        return Err(VaultError::PoolInsolvent);
    }
    // floor: toward the pool, against the depositor.
    let shares = mul_div_floor(env, amount, total_shares, total_usdc)?;
    if shares == 0 {
        return Err(VaultError::ZeroShares);
    }
    Ok(Minted {
        shares,
        dead_shares: 0,
    })
}

/// USDC paid for redeeming `shares`: floor(shares * total_usdc / total_shares).
/// InvalidAmount when shares <= 0 or shares > total_shares.
pub fn usdc_for_shares(
    env: &Env,
    shares: i128,
    total_usdc: i128,
    total_shares: i128,
) -> Result<i128, VaultError> {
    if shares <= 0 || shares > total_shares {
        return Err(VaultError::InvalidAmount);
    }
    // floor: toward the pool, against the redeemer.
    mul_div_floor(env, shares, total_usdc, total_shares)
}

/// Share price with 7 decimals: floor(total_usdc * 1e7 / total_shares); 1.0 when no shares.
pub fn share_price(env: &Env, total_usdc: i128, total_shares: i128) -> Result<i128, VaultError> {
    if total_shares == 0 {
        return Ok(PRICE_SCALE);
    }
    mul_div_floor(env, total_usdc, PRICE_SCALE, total_shares)
}

/// floor(a * b / d) for a, b >= 0 and d > 0, Overflow when a * b does not fit in i128 (the
/// shared vectors pin that: both implementations use checked i128 products).
///
/// The product and the quotient are computed by the host's 256-bit integers, which keeps
/// 128-bit multiply/divide routines out of the contract's wasm.
pub fn mul_div_floor(env: &Env, a: i128, b: i128, d: i128) -> Result<i128, VaultError> {
    let product = I256::from_i128(env, a).mul(&I256::from_i128(env, b));
    product.to_i128().ok_or(VaultError::Overflow)?;
    // Non-negative operands: truncating division is the floor.
    product
        .div(&I256::from_i128(env, d))
        .to_i128()
        .ok_or(VaultError::Overflow)
}
