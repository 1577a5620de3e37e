//! A transaction's pending writes over the ledger state, with the before/after record the
//! transaction meta needs.

use crate::ledger::store::Store;

use crate::ledger::entry::{entry_key, ttl_entry, Stored};
use soroban_env_host::xdr::{LedgerEntryChange, LedgerEntryChanges, LedgerKey};
use std::collections::BTreeMap;

pub type Changes = BTreeMap<LedgerKey, Option<Stored>>;

pub struct Overlay<'a> {
    base: &'a Store,
    changes: Changes,
    /// State of each key touched in the current scope, as it was when the scope began.
    scope: BTreeMap<LedgerKey, Option<Stored>>,
    /// Ledger sequence written into `last_modified_ledger_seq`.
    pub ledger_seq: u32,
}

impl<'a> Overlay<'a> {
    pub fn new(base: &'a Store, ledger_seq: u32) -> Self {
        Overlay { base, changes: BTreeMap::new(), scope: BTreeMap::new(), ledger_seq }
    }

    pub fn get(&self, key: &LedgerKey) -> Option<Stored> {
        match self.changes.get(key) {
            Some(v) => v.clone(),
            None => self.base.read(key),
        }
    }

    fn remember(&mut self, key: &LedgerKey) {
        if !self.scope.contains_key(key) {
            let before = self.get(key);
            self.scope.insert(key.clone(), before);
        }
    }

    pub fn put(&mut self, key: LedgerKey, mut stored: Stored) {
        self.remember(&key);
        stored.entry.last_modified_ledger_seq = self.ledger_seq;
        self.changes.insert(key, Some(stored));
    }

    /// Writes a TTL change only: the entry itself keeps its last-modified ledger.
    pub fn put_ttl(&mut self, key: LedgerKey, live_until: u32) {
        if let Some(mut s) = self.get(&key) {
            self.remember(&key);
            s.live_until = Some(live_until);
            self.changes.insert(key, Some(s));
        }
    }

    pub fn delete(&mut self, key: &LedgerKey) {
        self.remember(key);
        self.changes.insert(key.clone(), None);
    }

    /// Starts recording a new group of changes (one operation, the fee, the refund).
    pub fn begin_scope(&mut self) {
        self.scope.clear();
    }

    /// Forgets everything written since `begin_scope` (a failed operation).
    pub fn rollback_scope(&mut self) {
        let scope = std::mem::take(&mut self.scope);
        for (k, before) in scope {
            match (before, self.base.read(&k)) {
                (b, base) if b == base => {
                    self.changes.remove(&k);
                }
                (b, _) => {
                    self.changes.insert(k, b);
                }
            }
        }
    }

    /// The meta record of the current scope: state before and after of every touched entry,
    /// with the TTL entry beside each contract entry as stellar-core records it.
    pub fn end_scope(&mut self) -> LedgerEntryChanges {
        use LedgerEntryChange as C;
        let scope = std::mem::take(&mut self.scope);
        let mut out: Vec<LedgerEntryChange> = Vec::new();
        let ttl = |k: &LedgerKey, s: &Stored, seq: u32| s.live_until.map(|l| ttl_entry(k, l, seq));
        for (k, before, after) in scope.into_iter().map(|(k, b)| {
            let a = self.get(&k);
            (k, b, a)
        }) {
            match (before, after) {
                (None, Some(a)) => {
                    let t = ttl(&k, &a, a.entry.last_modified_ledger_seq);
                    out.push(C::Created(a.entry));
                    out.extend(t.map(C::Created));
                }
                (Some(b), None) => {
                    let t = ttl(&k, &b, b.entry.last_modified_ledger_seq);
                    out.push(C::State(b.entry));
                    out.push(C::Removed(k.clone()));
                    if let Some(t) = t {
                        let tk = entry_key(&t);
                        out.push(C::State(t));
                        out.push(C::Removed(tk));
                    }
                }
                (Some(b), Some(a)) => {
                    if b.live_until != a.live_until {
                        if let (Some(tb), Some(ta)) = (ttl(&k, &b, b.entry.last_modified_ledger_seq), ttl(&k, &a, self.ledger_seq)) {
                            out.push(C::State(tb));
                            out.push(C::Updated(ta));
                        }
                    }
                    if b.entry != a.entry {
                        out.push(C::State(b.entry));
                        out.push(C::Updated(a.entry));
                    }
                }
                (None, None) => {}
            }
        }
        LedgerEntryChanges(out.try_into().expect("changes fit"))
    }

    pub fn into_changes(self) -> Changes {
        self.changes
    }
}

impl Store {
    pub fn apply(&mut self, changes: Changes) {
        for (k, v) in changes {
            match v {
                Some(s) => self.put(k, s),
                None => self.remove(&k),
            }
        }
    }
}
