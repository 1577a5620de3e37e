//! Soroban network settings: testnet's ConfigUpgradeSet (protocol 28) turned into
//! ConfigSetting ledger entries, and the fee / limit view the node applies with.

use crate::ledger::store::{Store, StoreSnapshot};

use crate::ledger::entry::Stored;
use soroban_env_host::xdr::{
    ConfigSettingContractBandwidthV0, ConfigSettingContractComputeV0, ConfigSettingContractEventsV0,
    ConfigSettingContractExecutionLanesV0, ConfigSettingContractLedgerCostExtV0, ConfigSettingContractLedgerCostV0,
    ConfigSettingContractParallelComputeV0, ConfigSettingEntry,
    ConfigUpgradeSet, LedgerEntry, LedgerEntryData, LedgerEntryExt, LedgerKey, LedgerKeyConfigSetting,
    StateArchivalSettings,
};
use soroban_simulation::NetworkConfig;
use std::sync::Arc;

const TESTNET_JSON: &str = include_str!("testnet-network-config.p28.json");

/// Live Soroban state size samples; rent write fees are priced from their average. A small
/// local state keeps the write fee at its floor.
const STATE_SIZE_WINDOW_SAMPLES: usize = 30;

/// The settings the ledger starts with, as ConfigSetting entries. `target_close_ms`, when
/// given, replaces scp_timing's `ledger_target_close_time_milliseconds` (testnet's 5000): the
/// node's own ledger interval, which clients read as a real network's target close time.
pub fn genesis_settings(min_persistent_ttl: u32, target_close_ms: Option<u32>) -> Result<Vec<ConfigSettingEntry>, String> {
    let set: ConfigUpgradeSet =
        serde_json::from_str(TESTNET_JSON).map_err(|e| format!("network settings JSON: {e}"))?;
    let mut out: Vec<ConfigSettingEntry> = set.updated_entry.to_vec();
    for e in out.iter_mut() {
        if let ConfigSettingEntry::StateArchival(s) = e {
            s.min_persistent_ttl = min_persistent_ttl.min(s.max_entry_ttl - 1);
        }
        if let (ConfigSettingEntry::ScpTiming(t), Some(ms)) = (&mut *e, target_close_ms) {
            t.ledger_target_close_time_milliseconds = ms;
        }
    }
    let window: Vec<u64> = vec![0; STATE_SIZE_WINDOW_SAMPLES];
    out.push(ConfigSettingEntry::LiveSorobanStateSizeWindow(window.try_into().unwrap()));
    Ok(out)
}

pub fn setting_entry(s: ConfigSettingEntry) -> (LedgerKey, Stored) {
    let key = LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: s.discriminant() });
    let entry = LedgerEntry { last_modified_ledger_seq: 1, data: LedgerEntryData::ConfigSetting(s), ext: LedgerEntryExt::V0 };
    (key, Stored { entry, live_until: None })
}

/// Everything apply and simulation need from the settings, loaded from the ledger state.
pub struct Settings {
    pub config: NetworkConfig,
    pub compute: ConfigSettingContractComputeV0,
    pub ledger_cost: ConfigSettingContractLedgerCostV0,
    pub ledger_cost_ext: ConfigSettingContractLedgerCostExtV0,
    pub events: ConfigSettingContractEventsV0,
    pub bandwidth: ConfigSettingContractBandwidthV0,
    pub archival: StateArchivalSettings,
    pub lanes: ConfigSettingContractExecutionLanesV0,
    pub parallel: ConfigSettingContractParallelComputeV0,
}

fn get(store: &Store, id: soroban_env_host::xdr::ConfigSettingId) -> Result<ConfigSettingEntry, String> {
    let key = LedgerKey::ConfigSetting(LedgerKeyConfigSetting { config_setting_id: id });
    match store.get(&key).map(|s| &s.entry.data) {
        Some(LedgerEntryData::ConfigSetting(c)) => Ok(c.clone()),
        _ => Err(format!("network setting {id:?} missing from the ledger")),
    }
}

impl Settings {
    pub fn load(store: &Arc<Store>) -> Result<Settings, String> {
        use soroban_env_host::xdr::ConfigSettingId as Id;
        let config = NetworkConfig::load_from_snapshot(&StoreSnapshot(store.clone())).map_err(|e| e.to_string())?;
        macro_rules! pick {
            ($id:ident) => {
                match get(store, Id::$id)? {
                    ConfigSettingEntry::$id(v) => v,
                    _ => unreachable!(),
                }
            };
        }
        Ok(Settings {
            config,
            compute: pick!(ContractComputeV0),
            ledger_cost: pick!(ContractLedgerCostV0),
            ledger_cost_ext: pick!(ContractLedgerCostExtV0),
            events: pick!(ContractEventsV0),
            bandwidth: pick!(ContractBandwidthV0),
            archival: pick!(StateArchival),
            lanes: pick!(ContractExecutionLanes),
            parallel: pick!(ContractParallelComputeV0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn testnet_settings_load_into_a_network_config() {
        let mut store = Store::default();
        for s in genesis_settings(4096, None).unwrap() {
            let (k, v) = setting_entry(s);
            store.put(k, v);
        }
        let s = Settings::load(&Arc::new(store)).unwrap();
        assert_eq!(s.config.tx_max_instructions, 100_000_000);
        assert_eq!(s.config.min_persistent_entry_ttl, 4096);
        assert_eq!(s.ledger_cost_ext.tx_max_footprint_entries, 100);
        assert_eq!(s.lanes.ledger_max_tx_count, 100);
        assert_eq!(s.compute.ledger_max_instructions, 500_000_000);
        assert_eq!(s.parallel.ledger_max_dependent_tx_clusters, 1);
    }

    fn target_close(settings: &[ConfigSettingEntry]) -> Option<u32> {
        settings.iter().find_map(|e| match e {
            ConfigSettingEntry::ScpTiming(t) => Some(t.ledger_target_close_time_milliseconds),
            _ => None,
        })
    }

    #[test]
    fn scp_timing_carries_the_node_interval() {
        assert_eq!(target_close(&genesis_settings(4096, None).unwrap()), Some(5000), "testnet's file");
        assert_eq!(target_close(&genesis_settings(4096, Some(2500)).unwrap()), Some(2500));
    }
}
