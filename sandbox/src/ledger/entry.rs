//! Ledger entries as the store keeps them (with their TTL), and their keys.

use sha2::{Digest, Sha256};
use soroban_env_host::xdr::{
    AccountId, ContractDataDurability, Hash, LedgerEntry, LedgerEntryData, LedgerEntryExt, LedgerKey, LedgerKeyAccount,
    LedgerKeyTrustLine, Limits, TrustLineAsset, TtlEntry, WriteXdr,
};

#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    pub entry: LedgerEntry,
    /// Last ledger the entry is live in (contract data / code only).
    pub live_until: Option<u32>,
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

pub fn account_key(id: &AccountId) -> LedgerKey {
    LedgerKey::Account(LedgerKeyAccount { account_id: id.clone() })
}

pub fn trustline_key(account: &AccountId, asset: TrustLineAsset) -> LedgerKey {
    LedgerKey::Trustline(LedgerKeyTrustLine { account_id: account.clone(), asset })
}
