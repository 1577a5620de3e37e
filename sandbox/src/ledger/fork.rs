//! Fork mode: the upstream network as the bottom layer of the ledger state. An entry the node
//! does not hold is read from the upstream RPC once (getLedgerEntries, batched) and cached;
//! writes stay in the node's own layer (store.rs).

use crate::ledger::entry::Stored;
use crate::ledger::upstream::{Upstream, MAX_KEYS_PER_REQUEST};
use serde_json::{json, Value};
use soroban_env_host::xdr::*;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

#[derive(Default)]
struct Cache {
    /// Every key asked of the upstream: its entry, or None when the upstream has none.
    entries: HashMap<LedgerKey, Option<Stored>>,
}

pub struct Fork {
    pub upstream: Upstream,
    /// The upstream's latest ledger when the fork started: the node's first ledger.
    pub fork_ledger: u32,
    /// Where the network settings came from: "upstream", or testnet's and why.
    pub settings: std::sync::OnceLock<String>,
    cache: Mutex<Cache>,
    /// Contract code read from the upstream is parsed into the node's module cache.
    modules: soroban_env_host::ModuleCache,
    hits: AtomicU64,
    errors: AtomicU64,
    /// The last upstream failure during a host call (simulation reads one key at a time).
    last_error: Mutex<Option<String>>,
    quiet: bool,
}

/// A ledger key in words, for error messages: its kind and owner, then its XDR.
pub fn describe_key(key: &LedgerKey) -> String {
    let what = match key {
        LedgerKey::Account(a) => format!("account {}", strkey_account(&a.account_id)),
        LedgerKey::Trustline(t) => format!("trustline of {}", strkey_account(&t.account_id)),
        LedgerKey::ContractData(d) => {
            let k = serde_json::to_string(&d.key).unwrap_or_default();
            let k: String = k.chars().take(160).collect();
            format!("{:?} contract data of {} with key {k}", d.durability, d.contract)
        }
        LedgerKey::ContractCode(c) => format!("contract code {}", hex::encode(c.hash.0)),
        LedgerKey::ConfigSetting(c) => format!("config setting {:?}", c.config_setting_id),
        LedgerKey::Ttl(t) => format!("TTL of {}", hex::encode(t.key_hash.0)),
        other => format!("{:?} entry", other.discriminant()),
    };
    format!("{what} (key {})", key.to_xdr_base64(Limits::none()).unwrap_or_default())
}

fn strkey_account(id: &AccountId) -> String {
    id.to_string()
}

impl Fork {
    pub fn new(upstream: Upstream, fork_ledger: u32, modules: soroban_env_host::ModuleCache, quiet: bool) -> Fork {
        Fork {
            upstream,
            fork_ledger,
            settings: std::sync::OnceLock::new(),
            cache: Mutex::new(Cache::default()),
            modules,
            hits: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            last_error: Mutex::new(None),
            quiet,
        }
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads every key not asked of the upstream yet, in batches of at most 200 keys. An error
    /// names the first key of the failed batch and the upstream URL.
    pub fn fetch(&self, keys: &[LedgerKey]) -> Result<(), String> {
        let wanted: BTreeSet<&LedgerKey> = {
            let cache = self.cache();
            keys.iter().filter(|k| !matches!(k, LedgerKey::Ttl(_)) && !cache.entries.contains_key(k)).collect()
        };
        self.hits.fetch_add((keys.len() - wanted.len()) as u64, Ordering::Relaxed);
        let wanted: Vec<LedgerKey> = wanted.into_iter().cloned().collect();
        for batch in wanted.chunks(MAX_KEYS_PER_REQUEST) {
            let found = self.upstream.ledger_entries(batch).map_err(|e| self.failure(batch, &e))?;
            let mut codes = vec![];
            let mut cache = self.cache();
            for k in batch {
                cache.entries.entry(k.clone()).or_insert(None);
            }
            for (k, entry, live_until) in found {
                let s = Stored { entry, live_until };
                if let LedgerEntryData::ContractCode(c) = &s.entry.data {
                    codes.push(c.code.to_vec());
                }
                cache.entries.insert(k, Some(s));
            }
            drop(cache);
            crate::ledger::modules::add(&self.modules, &codes);
            if !self.quiet {
                let (requests, asked) = self.upstream.counts();
                eprintln!("sandbox: fork: read {} keys from {} (upstream requests {requests}, keys asked {asked})", batch.len(), self.upstream.url);
            }
        }
        Ok(())
    }

    fn failure(&self, batch: &[LedgerKey], why: &str) -> String {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let more = if batch.len() > 1 { format!(" and {} more keys", batch.len() - 1) } else { String::new() };
        format!("fork: cannot read {}{more} from upstream {}: {why}", describe_key(&batch[0]), self.upstream.url)
    }

    /// One entry from the upstream (read once, then from the cache).
    pub fn get(&self, key: &LedgerKey) -> Result<Option<Stored>, String> {
        self.fetch(std::slice::from_ref(key))?;
        Ok(self.peek(key))
    }

    /// The cached entry of a key already fetched (no request, not counted).
    pub fn peek(&self, key: &LedgerKey) -> Option<Stored> {
        self.cache().entries.get(key).cloned().flatten()
    }

    /// Every cached upstream entry.
    pub fn cached(&self) -> Vec<(LedgerKey, Stored)> {
        self.cache().entries.iter().filter_map(|(k, v)| Some((k.clone(), v.clone()?))).collect()
    }

    /// Records a failure met inside a host call, where only a bare HostError can be returned.
    pub fn note_error(&self, e: String) {
        *self.last_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    }

    pub fn take_error(&self) -> Option<String> {
        self.last_error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// The `sandbox_forkStatus` answer.
    pub fn status(&self) -> Value {
        let (requests, keys) = self.upstream.counts();
        json!({
            "url": self.upstream.url,
            "forkLedger": self.fork_ledger,
            "settings": self.settings.get(),
            "requests": requests,
            "keysFetched": keys,
            "cacheHits": self.hits.load(Ordering::Relaxed),
            "cachedEntries": self.cache().entries.values().filter(|v| v.is_some()).count(),
            "errors": self.errors.load(Ordering::Relaxed),
        })
    }
}

