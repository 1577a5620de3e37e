//! Ledger state: every live ledger entry with its TTL, keyed by LedgerKey.

use sha2::{Digest, Sha256};
use soroban_env_host::storage::{EntryWithLiveUntil, SnapshotSource};
use soroban_env_host::xdr::{
    ContractDataDurability, Hash, LedgerEntry, LedgerEntryData, LedgerEntryExt, LedgerKey,
    LedgerKeyTtl, Limits, TtlEntry, WriteXdr,
};
use soroban_env_host::HostError;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    pub entry: LedgerEntry,
    /// Last ledger the entry is live in (contract data / code only).
    pub live_until: Option<u32>,
}

#[derive(Clone, Default)]
pub struct Store {
    entries: BTreeMap<LedgerKey, Stored>,
    /// TTL key hash -> entry key, so TTL keys can be read like other keys.
    ttl_index: HashMap<[u8; 32], LedgerKey>,
}

pub fn key_hash(key: &LedgerKey) -> [u8; 32] {
    Sha256::digest(key.to_xdr(Limits::none()).expect("ledger key encodes")).into()
}

pub fn has_ttl(key: &LedgerKey) -> bool {
    matches!(key, LedgerKey::ContractData(_) | LedgerKey::ContractCode(_))
}

pub fn is_temporary(key: &LedgerKey) -> bool {
    matches!(key, LedgerKey::ContractData(d) if d.durability == ContractDataDurability::Temporary)
}

/// The key of a ledger entry.
pub fn entry_key(entry: &LedgerEntry) -> LedgerKey {
    use soroban_env_host::xdr::*;
    match &entry.data {
        LedgerEntryData::Account(a) => LedgerKey::Account(LedgerKeyAccount { account_id: a.account_id.clone() }),
        LedgerEntryData::Trustline(t) => LedgerKey::Trustline(LedgerKeyTrustLine {
            account_id: t.account_id.clone(),
            asset: t.asset.clone(),
        }),
        LedgerEntryData::ContractData(d) => LedgerKey::ContractData(LedgerKeyContractData {
            contract: d.contract.clone(),
            key: d.key.clone(),
            durability: d.durability,
        }),
        LedgerEntryData::ContractCode(c) => LedgerKey::ContractCode(LedgerKeyContractCode { hash: c.hash.clone() }),
        LedgerEntryData::ConfigSetting(c) => LedgerKey::ConfigSetting(LedgerKeyConfigSetting {
            config_setting_id: c.discriminant(),
        }),
        LedgerEntryData::Ttl(t) => LedgerKey::Ttl(LedgerKeyTtl { key_hash: t.key_hash.clone() }),
        LedgerEntryData::Offer(o) => LedgerKey::Offer(LedgerKeyOffer { seller_id: o.seller_id.clone(), offer_id: o.offer_id }),
        LedgerEntryData::Data(d) => LedgerKey::Data(LedgerKeyData { account_id: d.account_id.clone(), data_name: d.data_name.clone() }),
        LedgerEntryData::ClaimableBalance(c) => LedgerKey::ClaimableBalance(LedgerKeyClaimableBalance { balance_id: c.balance_id.clone() }),
        LedgerEntryData::LiquidityPool(p) => LedgerKey::LiquidityPool(LedgerKeyLiquidityPool { liquidity_pool_id: p.liquidity_pool_id.clone() }),
    }
}

/// The TTL ledger entry that stellar-core keeps beside a contract entry.
pub fn ttl_entry(key: &LedgerKey, live_until: u32, last_modified: u32) -> LedgerEntry {
    LedgerEntry {
        last_modified_ledger_seq: last_modified,
        data: LedgerEntryData::Ttl(TtlEntry { key_hash: Hash(key_hash(key)), live_until_ledger_seq: live_until }),
        ext: LedgerEntryExt::V0,
    }
}

impl Store {
    pub fn get(&self, key: &LedgerKey) -> Option<&Stored> {
        self.entries.get(key)
    }

    /// Reads a TTL key as the TTL entry of the contract entry it points at.
    pub fn get_ttl_entry(&self, key: &LedgerKeyTtl) -> Option<LedgerEntry> {
        let target = self.ttl_index.get(&key.key_hash.0)?;
        let s = self.entries.get(target)?;
        Some(ttl_entry(target, s.live_until?, s.entry.last_modified_ledger_seq))
    }

    pub fn put(&mut self, key: LedgerKey, stored: Stored) {
        if has_ttl(&key) && !self.entries.contains_key(&key) {
            self.ttl_index.insert(key_hash(&key), key.clone());
        }
        self.entries.insert(key, stored);
    }

    pub fn remove(&mut self, key: &LedgerKey) {
        if self.entries.remove(key).is_some() && has_ttl(key) {
            self.ttl_index.remove(&key_hash(key));
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&LedgerKey, &Stored)> {
        self.entries.iter()
    }

    /// Drops temporary entries whose TTL ran out (they can never be restored).
    pub fn evict_expired_temporary(&mut self, ledger_seq: u32) -> Vec<LedgerKey> {
        let dead: Vec<LedgerKey> = self
            .entries
            .iter()
            .filter(|(k, s)| is_temporary(k) && s.live_until.is_some_and(|l| l < ledger_seq))
            .map(|(k, _)| k.clone())
            .collect();
        for k in &dead {
            self.remove(k);
        }
        dead
    }
}

/// A read-only view of the state for the host, shared cheaply while a simulation runs.
pub struct StoreSnapshot(pub Arc<Store>);

impl SnapshotSource for StoreSnapshot {
    fn get(&self, key: &Rc<LedgerKey>) -> Result<Option<EntryWithLiveUntil>, HostError> {
        Ok(self.0.get(key).map(|s| (Rc::new(s.entry.clone()), s.live_until)))
    }
}
