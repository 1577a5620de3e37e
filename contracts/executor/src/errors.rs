use soroban_sdk::contracterror;

// Executor errors. Codes 450-499 (vault 100-199, registry 200-299, dex-pair 300-349,
// dex-router 350-399, rebalance-vault 400-449); the numbers are part of the public interface.
#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
#[repr(u32)]
pub enum ExecutorError {
    // An amount <= 0 (draw, return, sweep), or a negative min_proceeds.
    InvalidAmount = 450,
    // The USDC the executor gained in a flash fill does not cover the draw: the vault would not
    // get its capital back, so the whole transaction reverts.
    ProceedsBelowDraw = 451,
    // The USDC gained is below the caller's `min_proceeds`.
    ProceedsBelowMinimum = 452,
    // A swap path with fewer than two tokens, one that sells USDC or does not end in USDC, a
    // Comet path of other than two tokens, or a negative `amount_in`.
    InvalidSwap = 453,
    // Checked arithmetic overflowed.
    Overflow = 454,
    // The registry's configuration has no positive `min_stake` / no `usdc_token`.
    BadRegistryConfig = 455,
    // A flash fill through a pool, router or Comet pool that is not among the registry's venues.
    VenueNotAllowed = 456,
    // A flash fill that left the executor holding more of a pool reserve token than before:
    // everything the fill paid must be sold in the same transaction.
    CollateralKept = 457,
}
