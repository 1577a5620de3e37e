//! Valuation and trade sizing. Every division floors: the vault trades a little less than the
//! exact amount and asks for a little less out, so rounding can never make it overspend.

pub const SCALAR_7: i128 = 10_000_000;
pub const BPS: i128 = 10_000;

/// `floor(balance * price / 1e7)`: value in price units (7 decimals).
pub fn value_of(balance: i128, price: i128) -> Option<i128> {
    balance.checked_mul(price).map(|v| v / SCALAR_7)
}

/// `floor(value * 1e7 / price)`: token units worth `value`.
pub fn units_for(value: i128, price: i128) -> Option<i128> {
    if price <= 0 {
        return None;
    }
    value.checked_mul(SCALAR_7).map(|v| v / price)
}

/// `floor(value * weight_bps / 10_000)`: the target value of one asset.
pub fn target_value(total: i128, weight_bps: u32) -> Option<i128> {
    total.checked_mul(weight_bps as i128).map(|v| v / BPS)
}

/// `floor(value * 10_000 / total)`, 0 for an empty vault.
pub fn share_bps(value: i128, total: i128) -> Option<u32> {
    if total <= 0 {
        return Some(0);
    }
    value.checked_mul(BPS).map(|v| (v / total) as u32)
}

/// `floor(expected * (10_000 - slippage_bps) / 10_000)`: the minimum output accepted.
pub fn min_out(expected: i128, slippage_bps: u32) -> Option<i128> {
    expected.checked_mul(BPS - slippage_bps as i128).map(|v| v / BPS)
}

/// Converts a price with `decimals` decimals to 7 decimals (floor).
pub fn to_price_7(price: i128, decimals: u32) -> Option<i128> {
    if decimals >= 7 {
        Some(price / 10i128.checked_pow(decimals - 7)?)
    } else {
        price.checked_mul(10i128.checked_pow(7 - decimals)?)
    }
}
