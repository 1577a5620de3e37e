use soroban_sdk::{contracttype, Address, Env, Vec};

pub(crate) const DAY_IN_LEDGERS: u32 = 17_280;
pub(crate) const INSTANCE_EXTEND_AMOUNT: u32 = 30 * DAY_IN_LEDGERS;
pub(crate) const INSTANCE_TTL_THRESHOLD: u32 = INSTANCE_EXTEND_AMOUNT - DAY_IN_LEDGERS;

/// The vault's configuration.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct VaultConfig {
    pub admin: Address,
    /// The only address allowed to call `rebalance`.
    pub rebalancer: Address,
    pub router: Address,
    /// The routing hub: every trade is asset -> base or base -> asset.
    pub base: Address,
    pub assets: Vec<Address>,
    /// Target weight per asset, same order as `assets`, summing to 10_000.
    pub weights_bps: Vec<u32>,
    /// SEP-40 oracle for prices; `None` = fixed prices set by the admin.
    pub oracle: Option<Address>,
}

/// One asset's position against its target.
#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AssetDrift {
    pub asset: Address,
    pub balance: i128,
    /// 7 decimals.
    pub price: i128,
    /// `floor(balance * price / 1e7)`.
    pub value: i128,
    pub weight_bps: u32,
    /// Current share of the total value in bps (floor).
    pub actual_bps: u32,
    /// `actual_bps - weight_bps`.
    pub drift_bps: i32,
}

#[contracttype]
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct DriftReport {
    pub total_value: i128,
    /// The largest |drift_bps| over the assets.
    pub max_drift_bps: u32,
    pub assets: Vec<AssetDrift>,
}

#[contracttype]
#[derive(Clone)]
pub(crate) enum DataKey {
    Config,
    /// Fixed price of an asset (7 decimals), used without an oracle.
    Price(Address),
}

pub(crate) fn extend_instance(e: &Env) {
    e.storage().instance().extend_ttl(INSTANCE_TTL_THRESHOLD, INSTANCE_EXTEND_AMOUNT);
}
pub(crate) fn get_config(e: &Env) -> VaultConfig {
    e.storage().instance().get(&DataKey::Config).unwrap()
}
pub(crate) fn set_config(e: &Env, config: &VaultConfig) {
    e.storage().instance().set(&DataKey::Config, config);
}
pub(crate) fn get_fixed_price(e: &Env, asset: &Address) -> Option<i128> {
    e.storage().instance().get(&DataKey::Price(asset.clone()))
}
pub(crate) fn set_fixed_price(e: &Env, asset: &Address, price: i128) {
    e.storage().instance().set(&DataKey::Price(asset.clone()), &price);
}
