use soroban_sdk::{
    auth::{ContractContext, InvokerContractAuthEntry, SubContractInvocation},
    contract, contractimpl, panic_with_error, token, vec, Address, Env, IntoVal, Symbol, Vec,
};

use crate::{
    errors::RebalanceError,
    events,
    external::{Asset, OracleClient, RouterClient},
    plan,
    storage::{self, AssetDrift, DriftReport, VaultConfig},
};

#[contract]
pub struct RebalanceVault;

#[contractimpl]
impl RebalanceVault {
    /// `weights_bps[i]` is the target share of `assets[i]`; they sum to 10_000 and `base` is
    /// one of the assets. `oracle = None` means fixed prices (see `set_price`).
    #[allow(clippy::too_many_arguments)]
    pub fn __constructor(
        e: Env,
        admin: Address,
        rebalancer: Address,
        router: Address,
        base: Address,
        assets: Vec<Address>,
        weights_bps: Vec<u32>,
        oracle: Option<Address>,
    ) {
        check_weights(&e, &assets, &weights_bps);
        if !assets.contains(&base) {
            panic_with_error!(&e, RebalanceError::InvalidBase);
        }
        storage::set_config(&e, &VaultConfig { admin, rebalancer, router, base, assets, weights_bps, oracle });
        storage::extend_instance(&e);
    }

    pub fn get_config(e: Env) -> VaultConfig {
        storage::get_config(&e)
    }

    /// Admin: fixed price (7 decimals) of one asset, used when no oracle is configured.
    pub fn set_price(e: Env, asset: Address, price: i128) {
        storage::extend_instance(&e);
        let config = storage::get_config(&e);
        config.admin.require_auth();
        if !config.assets.contains(&asset) {
            panic_with_error!(&e, RebalanceError::UnknownAsset);
        }
        if price <= 0 {
            panic_with_error!(&e, RebalanceError::InvalidPrice);
        }
        storage::set_fixed_price(&e, &asset, price);
    }

    /// Admin: new target weights (same asset order).
    pub fn set_weights(e: Env, weights_bps: Vec<u32>) {
        storage::extend_instance(&e);
        let mut config = storage::get_config(&e);
        config.admin.require_auth();
        check_weights(&e, &config.assets, &weights_bps);
        config.weights_bps = weights_bps;
        storage::set_config(&e, &config);
    }

    /// Admin: who may call `rebalance`.
    pub fn set_rebalancer(e: Env, rebalancer: Address) {
        storage::extend_instance(&e);
        let mut config = storage::get_config(&e);
        config.admin.require_auth();
        config.rebalancer = rebalancer;
        storage::set_config(&e, &config);
    }

    /// Price of one asset, 7 decimals.
    pub fn get_price(e: Env, asset: Address) -> i128 {
        let config = storage::get_config(&e);
        if !config.assets.contains(&asset) {
            panic_with_error!(&e, RebalanceError::UnknownAsset);
        }
        price_of(&e, &config, &asset)
    }

    /// Every asset's value, actual share and drift from its target, and the largest drift.
    pub fn get_drift(e: Env) -> DriftReport {
        drift(&e, &storage::get_config(&e))
    }

    /// Rebalancer only. Sells every asset above its target value for `base`, then buys every
    /// asset below its target with `base`, through the router, paying and receiving with the
    /// vault's own balances. Each swap's `amount_out_min` is the oracle-implied output less
    /// `max_slippage_bps`. Returns the drift report after the trades.
    pub fn rebalance(e: Env, caller: Address, max_slippage_bps: u32, deadline: u64) -> DriftReport {
        storage::extend_instance(&e);
        caller.require_auth();
        let config = storage::get_config(&e);
        if caller != config.rebalancer {
            panic_with_error!(&e, RebalanceError::Unauthorized);
        }
        if max_slippage_bps > 10_000 {
            panic_with_error!(&e, RebalanceError::InvalidSlippage);
        }
        let before = drift(&e, &config);
        let base_price = price_of(&e, &config, &config.base);
        // sells first, so the buys can spend what they raised
        for entry in before.assets.iter() {
            if entry.asset == config.base {
                continue;
            }
            let target = ok(&e, plan::target_value(before.total_value, entry.weight_bps));
            if entry.value > target {
                let units = ok(&e, plan::units_for(entry.value - target, entry.price)).min(entry.balance);
                let expected = ok(&e, plan::units_for(ok(&e, plan::value_of(units, entry.price)), base_price));
                let min = ok(&e, plan::min_out(expected, max_slippage_bps));
                swap(&e, &config, &entry.asset, &config.base, units, min, deadline);
            }
        }
        for entry in before.assets.iter() {
            if entry.asset == config.base {
                continue;
            }
            let target = ok(&e, plan::target_value(before.total_value, entry.weight_bps));
            if entry.value < target {
                let held = token::Client::new(&e, &config.base).balance(&e.current_contract_address());
                let units = ok(&e, plan::units_for(target - entry.value, base_price)).min(held);
                let expected = ok(&e, plan::units_for(ok(&e, plan::value_of(units, base_price)), entry.price));
                let min = ok(&e, plan::min_out(expected, max_slippage_bps));
                swap(&e, &config, &config.base, &entry.asset, units, min, deadline);
            }
        }
        drift(&e, &config)
    }
}

fn ok<T>(e: &Env, v: Option<T>) -> T {
    v.unwrap_or_else(|| panic_with_error!(e, RebalanceError::Overflow))
}

fn check_weights(e: &Env, assets: &Vec<Address>, weights: &Vec<u32>) {
    if assets.len() != weights.len() || assets.is_empty() {
        panic_with_error!(e, RebalanceError::InvalidWeights);
    }
    let mut sum: u32 = 0;
    for w in weights.iter() {
        if w == 0 {
            panic_with_error!(e, RebalanceError::InvalidWeights);
        }
        sum = sum.saturating_add(w);
    }
    if sum != 10_000 {
        panic_with_error!(e, RebalanceError::InvalidWeights);
    }
}

fn price_of(e: &Env, config: &VaultConfig, asset: &Address) -> i128 {
    let price = match &config.oracle {
        Some(oracle) => {
            let client = OracleClient::new(e, oracle);
            let data = client
                .lastprice(&Asset::Stellar(asset.clone()))
                .unwrap_or_else(|| panic_with_error!(e, RebalanceError::InvalidPrice));
            ok(e, plan::to_price_7(data.price, client.decimals()))
        }
        None => storage::get_fixed_price(e, asset).unwrap_or_else(|| panic_with_error!(e, RebalanceError::InvalidPrice)),
    };
    if price <= 0 {
        panic_with_error!(e, RebalanceError::InvalidPrice);
    }
    price
}

fn drift(e: &Env, config: &VaultConfig) -> DriftReport {
    let me = e.current_contract_address();
    let mut entries = Vec::new(e);
    let mut total: i128 = 0;
    let mut values = Vec::<(i128, i128, i128)>::new(e);
    for asset in config.assets.iter() {
        let balance = token::Client::new(e, &asset).balance(&me);
        let price = price_of(e, config, &asset);
        let value = ok(e, plan::value_of(balance, price));
        total = ok(e, total.checked_add(value));
        values.push_back((balance, price, value));
    }
    let mut max_drift: u32 = 0;
    for (i, asset) in config.assets.iter().enumerate() {
        let (balance, price, value) = values.get_unchecked(i as u32);
        let weight_bps = config.weights_bps.get_unchecked(i as u32);
        let actual_bps = ok(e, plan::share_bps(value, total));
        let drift_bps = actual_bps as i32 - weight_bps as i32;
        max_drift = max_drift.max(drift_bps.unsigned_abs());
        entries.push_back(AssetDrift { asset, balance, price, value, weight_bps, actual_bps, drift_bps });
    }
    DriftReport { total_value: total, max_drift_bps: max_drift, assets: entries }
}

/// Exact-input swap of the vault's own `amount_in` of `sell` for `buy`. The router pulls the
/// input from the vault with a token transfer one call deeper, which the vault pre-authorizes.
fn swap(e: &Env, config: &VaultConfig, sell: &Address, buy: &Address, amount_in: i128, min_out: i128, deadline: u64) {
    if amount_in <= 0 {
        return;
    }
    let router = RouterClient::new(e, &config.router);
    let pair = router.router_pair_for(sell, buy);
    let me = e.current_contract_address();
    e.authorize_as_current_contract(vec![
        e,
        InvokerContractAuthEntry::Contract(SubContractInvocation {
            context: ContractContext {
                contract: sell.clone(),
                fn_name: Symbol::new(e, "transfer"),
                args: (me.clone(), pair, amount_in).into_val(e),
            },
            sub_invocations: Vec::new(e),
        }),
    ]);
    let amounts = router.swap_exact_tokens_for_tokens(&amount_in, &min_out, &vec![e, sell.clone(), buy.clone()], &me, &deadline);
    events::trade(e, sell, buy, amount_in, amounts.last().unwrap());
}
