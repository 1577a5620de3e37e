//! Constant-product arithmetic shared by the pair and the router. Every rounding favours the
//! pool: outputs round down, required inputs round up.

/// Fee numerator: a swap keeps 997/1000 of the input (0.3 % fee).
pub const FEE_KEEP: i128 = 997;
pub const FEE_DENOM: i128 = 1000;
/// LP shares locked forever at the first deposit so the share price cannot be inflated.
pub const MINIMUM_LIQUIDITY: i128 = 1000;

/// Output for an exact input:
/// `out = floor(in * 997 * r_out / (r_in * 1000 + in * 997))` (floor: the trader gets less).
/// `None` on overflow, non-positive input or empty reserves.
pub fn amount_out(amount_in: i128, reserve_in: i128, reserve_out: i128) -> Option<i128> {
    if amount_in <= 0 || reserve_in <= 0 || reserve_out <= 0 {
        return None;
    }
    let in_with_fee = amount_in.checked_mul(FEE_KEEP)?;
    let num = in_with_fee.checked_mul(reserve_out)?;
    let den = reserve_in.checked_mul(FEE_DENOM)?.checked_add(in_with_fee)?;
    Some(num / den)
}

/// Input needed for an exact output:
/// `in = floor(r_in * out * 1000 / ((r_out - out) * 997)) + 1` (rounded up: the trader pays
/// more). `None` on overflow, non-positive output or an output not below the reserve.
pub fn amount_in(amount_out: i128, reserve_in: i128, reserve_out: i128) -> Option<i128> {
    if amount_out <= 0 || reserve_in <= 0 || reserve_out <= 0 || amount_out >= reserve_out {
        return None;
    }
    let num = reserve_in.checked_mul(amount_out)?.checked_mul(FEE_DENOM)?;
    let den = (reserve_out - amount_out).checked_mul(FEE_KEEP)?;
    (num / den).checked_add(1)
}

/// Integer square root (floor), for the first deposit's LP shares.
pub fn sqrt(y: i128) -> i128 {
    if y <= 0 {
        return 0;
    }
    if y < 4 {
        return 1;
    }
    let mut z = y;
    let mut x = y / 2 + 1;
    while x < z {
        z = x;
        x = (y / x + x) / 2;
    }
    z
}

/// `floor(a * b / c)` without intermediate overflow for the sizes used here (checked).
pub fn mul_div_floor(a: i128, b: i128, c: i128) -> Option<i128> {
    if c == 0 {
        return None;
    }
    a.checked_mul(b).map(|p| p / c)
}
