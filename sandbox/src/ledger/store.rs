//! Ledger state: every live ledger entry with its TTL, keyed by LedgerKey.

use crate::ledger::entry::{is_temporary, Stored};
use crate::ledger::fork::Fork;
use soroban_env_host::storage::{EntryWithLiveUntil, SnapshotSource};
use soroban_env_host::xdr::{LedgerEntryData, LedgerKey};
use soroban_env_host::HostError;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Source of store generations, shared by every store in the process: no two versions of any
/// store ever get the same number.
static GENERATIONS: AtomicU64 = AtomicU64::new(1);

fn next_generation() -> u64 {
    GENERATIONS.fetch_add(1, Ordering::Relaxed)
}

#[derive(Clone)]
pub struct Store {
    entries: BTreeMap<LedgerKey, Stored>,
    /// Fork mode: the upstream network below this node's own entries.
    upstream: Option<Arc<Fork>>,
    /// Fork mode: keys deleted on this node that the upstream may still hold.
    deleted: BTreeSet<LedgerKey>,
    /// Names this version of the entries: a new store and every `put` / `remove` take a number
    /// never used before (by any store), and a clone keeps its original's, as it holds the same
    /// entries. So two stores with one generation hold the same entries (the simulation memo
    /// relies on it). Not so in fork mode, where reads fill the upstream's cache.
    generation: u64,
}

impl Default for Store {
    fn default() -> Self {
        Store { entries: BTreeMap::new(), upstream: None, deleted: BTreeSet::new(), generation: next_generation() }
    }
}

impl Store {
    /// The Wasm of every contract code entry this node holds, for the module cache.
    pub fn contract_codes(&self) -> Vec<Vec<u8>> {
        self.iter()
            .filter_map(|(_, s)| match &s.entry.data {
                LedgerEntryData::ContractCode(c) => Some(c.code.to_vec()),
                _ => None,
            })
            .collect()
    }

    /// An empty state, over `upstream` in fork mode.
    pub fn over(upstream: Option<Arc<Fork>>) -> Store {
        Store { upstream, ..Store::default() }
    }

    pub fn upstream(&self) -> Option<&Arc<Fork>> {
        self.upstream.as_ref()
    }

    /// This version of the entries (see `generation`).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// This node's own entry (in fork mode, not the upstream's: see `lookup`).
    pub fn get(&self, key: &LedgerKey) -> Option<&Stored> {
        self.entries.get(key)
    }

    /// The entry as the node sees it: its own, else (fork mode) the upstream's.
    pub fn lookup(&self, key: &LedgerKey) -> Result<Option<Stored>, String> {
        if let Some(s) = self.entries.get(key) {
            return Ok(Some(s.clone()));
        }
        match &self.upstream {
            Some(f) if !self.deleted.contains(key) => f.get(key),
            _ => Ok(None),
        }
    }

    /// `lookup` where an error cannot be returned (inside apply): an upstream failure reads as
    /// absent and is kept for the caller. Keys a transaction declares are fetched before it is
    /// accepted (`prefetch`), so apply meets this only when the upstream fails in between.
    pub fn read(&self, key: &LedgerKey) -> Option<Stored> {
        self.lookup(key).unwrap_or_else(|e| {
            if let Some(f) = &self.upstream {
                f.note_error(e);
            }
            None
        })
    }

    /// `lookup` of many keys, with the upstream's in batched requests.
    pub fn lookup_many(&self, keys: &[LedgerKey]) -> Result<Vec<Option<Stored>>, String> {
        self.prefetch(keys)?;
        Ok(keys
            .iter()
            .map(|k| match (self.entries.get(k), &self.upstream) {
                (Some(s), _) => Some(s.clone()),
                (None, Some(f)) if !self.deleted.contains(k) => f.peek(k),
                _ => None,
            })
            .collect())
    }

    /// Fork mode: reads from the upstream, in batches, every key among `keys` this node holds
    /// no entry (or deletion) of.
    pub fn prefetch(&self, keys: &[LedgerKey]) -> Result<(), String> {
        let Some(f) = &self.upstream else { return Ok(()) };
        let missing: Vec<LedgerKey> = keys.iter().filter(|k| !self.entries.contains_key(k) && !self.deleted.contains(k)).cloned().collect();
        f.fetch(&missing)
    }

    pub fn put(&mut self, key: LedgerKey, stored: Stored) {
        self.generation = next_generation();
        if self.upstream.is_some() {
            self.deleted.remove(&key);
        }
        self.entries.insert(key, stored);
    }

    pub fn remove(&mut self, key: &LedgerKey) {
        self.generation = next_generation();
        self.entries.remove(key);
        if self.upstream.is_some() {
            self.deleted.insert(key.clone());
        }
    }

    /// This node's own entries.
    pub fn iter(&self) -> impl Iterator<Item = (&LedgerKey, &Stored)> {
        self.entries.iter()
    }

    /// Every entry the node knows: its own and, in fork mode, those read from the upstream
    /// and not since written or deleted here; in key order.
    pub fn merged(&self) -> Vec<(LedgerKey, Stored)> {
        let mut all: BTreeMap<LedgerKey, Stored> = match &self.upstream {
            Some(f) => f.cached().into_iter().filter(|(k, _)| !self.deleted.contains(k)).collect(),
            None => BTreeMap::new(),
        };
        all.extend(self.entries.iter().map(|(k, s)| (k.clone(), s.clone())));
        all.into_iter().collect()
    }

    /// Fork mode: keys deleted here that the upstream may hold.
    pub fn deleted(&self) -> impl Iterator<Item = &LedgerKey> {
        self.deleted.iter()
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
        if let Some(s) = self.0.get(key) {
            return Ok(Some((Rc::new(s.entry.clone()), s.live_until)));
        }
        match self.0.lookup(key) {
            Ok(found) => Ok(found.map(|s| (Rc::new(s.entry), s.live_until))),
            Err(e) => {
                if let Some(f) = self.0.upstream() {
                    f.note_error(e);
                }
                Err(HostError::from(soroban_env_host::Error::from_type_and_code(
                    soroban_env_host::xdr::ScErrorType::Storage,
                    soroban_env_host::xdr::ScErrorCode::InternalError,
                )))
            }
        }
    }
}
