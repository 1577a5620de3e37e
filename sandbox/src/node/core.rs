//! The node: ledger state, history within the retention window, the pending transaction
//! queue, and ledger close.

use crate::apply::execute::{self, ApplyContext, Applied};
use crate::apply::parse::ParsedTx;
use crate::apply::refusal::Refusal;
use crate::apply::{tx, txset};
use crate::base::clock::Clock;
use crate::base::codec::{account_id, b64, sha256};
use crate::base::protocol::{BASE_FEE, BASE_RESERVE, PROTOCOL_VERSION};
use crate::base::records::{Closed, LedgerRecord};
use crate::base::records::{EventRecord, TxRecord};
use crate::history::event_log::{self, TxContext};
use crate::ledger::entry::Stored;
use crate::ledger::network::{self, Settings};
use crate::ledger::overlay::Overlay;
use crate::ledger::store::Store;
use crate::node::config::{ApplyOrder, Config, QueueRules};
use ed25519_dalek::SigningKey;
use soroban_env_host::xdr::*;
use soroban_env_host::LedgerInfo;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

pub const TOTAL_COINS: i64 = 1_000_000_000_000_000_000;
pub const FRIENDBOT_AMOUNT: i64 = 10_000 * 10_000_000;

/// Everything snapshot / revert restores.
#[derive(Clone)]
pub struct Chain {
    pub store: Arc<Store>,
    pub ledgers: VecDeque<LedgerRecord>,
    pub txs: HashMap<[u8; 32], TxRecord>,
    pub events: VecDeque<EventRecord>,
    pub fee_pool: i64,
    pub clock: Clock,
    /// max_tx_set_size set by `sandbox_setLedgerLimits`, recorded in the next headers.
    pub max_tx_set_size: Option<u32>,
}

impl Chain {
    /// The retained history as state files hold it.
    pub fn history_json(&self) -> serde_json::Value {
        crate::history::records::dump(&self.ledgers, self.txs.values(), &self.events)
    }
}

pub struct Node {
    pub cfg: Config,
    pub network_id: [u8; 32],
    pub root: SigningKey,
    pub chain: Chain,
    pub settings: Arc<Settings>,
    /// Accepted transactions waiting for a ledger, in arrival order (queue.rs).
    pub pending: Vec<ParsedTx>,
    /// Queue age of each source account with pending transactions (queue.rs).
    pub queue_ages: HashMap<AccountId, u32>,
    pub snapshots: Vec<Chain>,
    pub base_seed: [u8; 32],
    pub modules: soroban_env_host::ModuleCache,
    /// Contract code written in the ledger being closed, cached once it closes.
    pub new_code: Vec<Vec<u8>>,
    /// Answers of the simulations run against the current state (sim_memo.rs).
    pub sim_memo: crate::apply::sim_memo::SimMemo,
}

impl Node {
    pub fn new(cfg: Config) -> Result<Node, String> {
        let network_id = sha256(cfg.passphrase.as_bytes());
        // stellar-core's convention: the root account's secret seed is the network id.
        let root = SigningKey::from_bytes(&network_id);
        let mut store = Store::default();
        for s in network::genesis_settings(cfg.min_persistent_ttl, cfg.target_close_ms())? {
            let (k, v) = network::setting_entry(s);
            store.put(k, v);
        }
        let root_entry = AccountEntry {
            account_id: account_id(&root),
            balance: TOTAL_COINS,
            seq_num: SequenceNumber(0),
            num_sub_entries: 0,
            inflation_dest: None,
            flags: 0,
            home_domain: Default::default(),
            thresholds: Thresholds([1, 0, 0, 0]),
            signers: Default::default(),
            ext: AccountEntryExt::V0,
        };
        store.put(
            crate::ledger::entry::account_key(&root_entry.account_id),
            Stored { entry: LedgerEntry { last_modified_ledger_seq: 1, data: LedgerEntryData::Account(root_entry), ext: LedgerEntryExt::V0 }, live_until: None },
        );
        let store = Arc::new(store);
        let settings = Arc::new(Settings::load(&store)?);
        let virtual_start = cfg.seed.map(|_| cfg.start_time.unwrap_or(crate::base::clock::DEFAULT_VIRTUAL_START));
        let mut clock = Clock::new(virtual_start, cfg.ledger_interval);
        let base_seed = match cfg.seed {
            Some(s) => sha256(&[b"sandbox-seed".as_slice(), &s.to_be_bytes()].concat()),
            None => rand::random(),
        };
        let genesis_time = clock.next_close(0);
        let mut node = Node {
            cfg,
            network_id,
            root,
            chain: Chain { store, ledgers: VecDeque::new(), txs: HashMap::new(), events: VecDeque::new(), fee_pool: 0, clock, max_tx_set_size: None },
            settings,
            pending: vec![],
            queue_ages: HashMap::new(),
            snapshots: vec![],
            base_seed,
            modules: crate::ledger::modules::new_cache(),
            new_code: vec![],
            sim_memo: Default::default(),
        };
        let header = node.make_header(1, genesis_time, [0; 32], [0; 32], [0; 32]);
        let (tx_set, _) = txset::tx_set([0; 32], txset::phases(&[], &vec![], [BASE_FEE as i64; 2]));
        node.push_ledger(header, tx_set, vec![], vec![], Default::default());
        Ok(node)
    }

    pub fn latest(&self) -> &LedgerRecord {
        self.chain.ledgers.back().expect("genesis ledger exists")
    }

    pub fn oldest(&self) -> &LedgerRecord {
        self.chain.ledgers.front().expect("genesis ledger exists")
    }

    pub fn ledger_info(&self, seq: u32, close_time: u64) -> LedgerInfo {
        let mut li = LedgerInfo {
            protocol_version: PROTOCOL_VERSION,
            sequence_number: seq,
            timestamp: close_time,
            network_id: self.network_id,
            base_reserve: BASE_RESERVE,
            ..Default::default()
        };
        self.settings.config.fill_config_fields_in_ledger_info(&mut li);
        li
    }

    /// Ledger info a simulation runs with: the next ledger, at "now".
    pub fn next_ledger_info(&self) -> LedgerInfo {
        let last = self.latest();
        self.ledger_info(last.seq + 1, self.chain.clock.now(last.close_time))
    }

    pub fn prng_seed(&self, seq: u32, index: u32) -> [u8; 32] {
        sha256(&[self.base_seed.as_slice(), &seq.to_be_bytes(), &index.to_be_bytes()].concat())
    }

    /// Re-reads the network settings (after a cheat wrote a ConfigSetting entry).
    pub fn reload_settings(&mut self) -> Result<(), String> {
        self.settings = Arc::new(Settings::load(&self.chain.store)?);
        Ok(())
    }

    fn make_header(&self, seq: u32, close_time: u64, prev: [u8; 32], tx_set: [u8; 32], results: [u8; 32]) -> LedgerHeader {
        let prev_bucket = self.chain.ledgers.back().map(|l| l.header.bucket_list_hash.0).unwrap_or([0; 32]);
        LedgerHeader {
            ledger_version: PROTOCOL_VERSION,
            previous_ledger_hash: Hash(prev),
            scp_value: StellarValue {
                tx_set_hash: Hash(tx_set),
                close_time: TimePoint(close_time),
                upgrades: Default::default(),
                ext: StellarValueExt::Basic,
            },
            tx_set_result_hash: Hash(results),
            bucket_list_hash: Hash(sha256(&[prev_bucket.as_slice(), &results, &seq.to_be_bytes()].concat())),
            ledger_seq: seq,
            total_coins: TOTAL_COINS,
            fee_pool: self.chain.fee_pool,
            inflation_seq: 0,
            id_pool: 0,
            base_fee: BASE_FEE,
            base_reserve: BASE_RESERVE,
            max_tx_set_size: self
                .chain
                .max_tx_set_size
                .or(self.chain.ledgers.back().map(|l| l.header.max_tx_set_size))
                .unwrap_or(crate::base::protocol::MAX_TX_SET_SIZE),
            skip_list: [Hash([0; 32]), Hash([0; 32]), Hash([0; 32]), Hash([0; 32])],
            ext: LedgerHeaderExt::V0,
        }
    }

    fn push_ledger(
        &mut self,
        header: LedgerHeader,
        tx_set: GeneralizedTransactionSet,
        processing: Vec<TransactionResultMetaV1>,
        evicted: Vec<LedgerKey>,
        fees: crate::base::records::LedgerFees,
    ) {
        let hash = sha256(&header.to_xdr(Limits::none()).expect("header encodes"));
        let txs: Vec<[u8; 32]> = processing.iter().map(|p| p.result.transaction_hash.0).collect();
        let meta = LedgerCloseMeta::V2(LedgerCloseMetaV2 {
            ext: LedgerCloseMetaExt::V0,
            ledger_header: LedgerHeaderHistoryEntry { hash: Hash(hash), header: header.clone(), ext: LedgerHeaderHistoryEntryExt::V0 },
            tx_set,
            tx_processing: processing.try_into().unwrap_or_default(),
            upgrades_processing: VecM::default(),
            scp_info: VecM::default(),
            total_byte_size_of_live_soroban_state: 0,
            evicted_keys: evicted.try_into().unwrap_or_default(),
        });
        let rec = LedgerRecord { seq: header.ledger_seq, close_time: header.scp_value.close_time.0, hash, header, meta_b64: b64(&meta), txs, fees };
        self.chain.ledgers.push_back(rec);
        self.prune();
    }

    /// Drops history older than the retention window.
    pub fn prune(&mut self) {
        let window = self.cfg.retention_window.max(1) as usize;
        while self.chain.ledgers.len() > window {
            let old = self.chain.ledgers.pop_front().unwrap();
            for h in &old.txs {
                self.chain.txs.remove(h);
            }
            while self.chain.events.front().is_some_and(|e| e.ledger <= old.seq) {
                self.chain.events.pop_front();
            }
        }
    }

    /// Transactions of `source` already waiting for the next ledger.
    pub fn pending_from(&self, source: &AccountId) -> i64 {
        self.pending.iter().filter(|p| &p.source() == source).count() as i64
    }

    /// Accepts a transaction into the queue (stellar-core's checkValid), or says why not: the
    /// result code it was rejected with, or, under `--queue-rules strict`, TRY_AGAIN_LATER
    /// while its source account has a transaction pending (admission.rs). A fee bump of a
    /// pending transaction (same source account and sequence number) replaces it when it bids
    /// ten times its inclusion fee per operation (replace_by_fee.rs), taking its place in the
    /// queue; the account's queue age is kept, as stellar-core keeps it.
    pub fn submit(&mut self, ptx: ParsedTx) -> Result<(), Refusal> {
        let now = self.chain.clock.now(self.latest().close_time);
        let ov = Overlay::new(&self.chain.store, self.latest().seq + 1);
        let source = ptx.source();
        let strict = self.cfg.queue_rules == QueueRules::Strict;
        let replaces = if strict {
            self.strict_admission(&ptx)?
        } else {
            let replaces = self.replaced_by(&ptx);
            if let Some(i) = replaces {
                crate::apply::replace_by_fee::can_replace_by_fee(&ptx, &self.pending[i]).map_err(|min_fee| Refusal::code(TransactionResultResult::TxInsufficientFee, min_fee))?;
            }
            replaces
        };
        let offset = match replaces {
            Some(i) => self.pending[..i].iter().filter(|p| p.source() == source).count() as i64,
            None => self.pending_from(&source),
        };
        tx::check_valid(&ov, &ptx, &self.settings, now, offset).map_err(|code| Refusal::code(code, 0))?;
        if strict {
            self.fee_source_covers_queue(&ov, &ptx, replaces)?;
        }
        match replaces {
            Some(i) => self.pending[i] = ptx,
            None => self.pending.push(ptx),
        }
        Ok(())
    }

    /// Closes one ledger. `from_queue`: an ordinary close, which drops what expired, takes
    /// what fits the ledger (txset.rs) and applies it in the configured order (stellar-core's
    /// unless `--apply-order arrival`), then keeps the queue (queue.rs); friendbot's close
    /// (`pinned`) applies in arrival order. Otherwise everything pending is applied in the
    /// order it is in, at the base fee (`close_ordered`).
    pub(crate) fn close(&mut self, pinned: Option<[u8; 32]>, from_queue: bool) -> Closed {
        let last = self.latest().clone();
        let seq = last.seq + 1;
        let close_time = self.chain.clock.next_close(last.close_time);
        let li = self.ledger_info(seq, close_time);
        let mut dropped = vec![];
        let phase_of = |p: &ParsedTx| if p.is_soroban() { txset::SOROBAN } else { txset::CLASSIC };
        let (mut txs, base_fee, surged, stages) = if from_queue {
            dropped = self.drop_expired(close_time, seq);
            let (txs, sel) = self.take_tx_set(pinned);
            (txs, sel.base_fee, sel.surged, sel.stages_of_included())
        } else {
            // Applied in the order given: the Soroban phase as one stage of one cluster. What
            // can no longer be included (a passed time or ledger bound) is dropped, never applied.
            dropped = self.drop_expired(close_time, seq);
            let txs = std::mem::take(&mut self.pending);
            let soroban: Vec<usize> = (0..txs.len()).filter(|&i| phase_of(&txs[i]) == txset::SOROBAN).collect();
            let stages = if soroban.is_empty() { vec![] } else { vec![vec![soroban]] };
            (txs, [last.header.base_fee as i64; 2], [false; 2], stages)
        };
        let set: Vec<_> = txs.iter().map(|p| (&p.full_hash, &p.envelope, phase_of(p))).collect();
        let (tx_set, tx_set_hash) = txset::tx_set(last.hash, txset::phases(&set, &stages, base_fee));
        if from_queue && pinned.is_none() && self.cfg.apply_order == ApplyOrder::Core {
            let entries: Vec<_> = txs
                .iter()
                .map(|p| crate::apply::apply_order::Entry { full_hash: p.full_hash, source: p.source(), seq: p.tx.seq_num.0, phase: phase_of(p) })
                .collect();
            let order = crate::apply::apply_order::apply_order(&entries, &stages, &tx_set_hash);
            let mut slots: Vec<Option<ParsedTx>> = txs.into_iter().map(Some).collect();
            txs = order.into_iter().map(|i| slots[i].take().expect("each index once")).collect();
        }
        let mut processing = vec![];
        let mut envelopes = vec![];
        let mut result_pairs = vec![];
        let mut applied = vec![];
        let mut sources = HashSet::new();
        for (i, mut ptx) in txs.into_iter().enumerate() {
            ptx.base_fee = base_fee[phase_of(&ptx)];
            let seed = self.prng_seed(seq, i as u32);
            let order = i as u32 + 1;
            let cx = ApplyContext { store: &mut self.chain.store, settings: &self.settings, network_id: self.network_id, modules: &self.modules };
            let outcome = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| execute::apply_tx(cx, &ptx, &li, seed, order))) {
                Ok(a) => a,
                Err(_) => execute::internal_error(&ptx, &li, order),
            };
            let result = self.record_applied(outcome);
            envelopes.push(ptx.envelope.clone());
            result_pairs.push(result.result.clone());
            processing.push(result);
            applied.push(ptx.hash);
            sources.insert(ptx.source());
        }
        let codes = std::mem::take(&mut self.new_code);
        crate::ledger::modules::add(&self.modules, &codes);
        let evicted = Arc::make_mut(&mut self.chain.store).evict_expired_temporary(seq);
        let results_hash = sha256(&result_pairs.iter().flat_map(|r| r.to_xdr(Limits::none()).unwrap()).collect::<Vec<u8>>());
        let header = self.make_header(seq, close_time, last.hash, tx_set_hash, results_hash);
        let fees = crate::history::feestats::ledger_fees(envelopes.iter().zip(processing.iter()));
        self.push_ledger(header, tx_set, processing, evicted, fees);
        if from_queue {
            dropped.extend(self.queue_upkeep(&sources));
        }
        Closed { seq, applied, dropped, base_fee, surged }
    }

    /// Keeps what an applied transaction leaves besides its meta: the fee in the pool, its
    /// contract code for the module cache, its record and its events in the history.
    fn record_applied(&mut self, a: Applied) -> TransactionResultMetaV1 {
        self.chain.fee_pool += a.fee;
        self.new_code.extend(a.new_code);
        let r = &a.record;
        let cx = TxContext { ledger: r.ledger, close_time: r.close_time, tx_hash: r.hash, order: r.order, success: r.success };
        event_log::record(&mut self.chain.events, &cx, &a.tx_events, &a.contract_events);
        self.chain.txs.insert(a.record.hash, a.record);
        a.result_meta
    }

    pub fn snapshot(&mut self) -> usize {
        self.snapshots.push(self.chain.clone());
        self.snapshots.len() - 1
    }

    /// Restores snapshot `id`; it and every later snapshot are consumed (as in anvil).
    pub fn revert(&mut self, id: usize) -> bool {
        if id >= self.snapshots.len() {
            return false;
        }
        self.snapshots.truncate(id + 1);
        self.chain = self.snapshots.pop().unwrap();
        self.pending.clear();
        self.queue_ages.clear();
        let _ = self.reload_settings();
        crate::ledger::modules::add(&self.modules, &self.chain.store.contract_codes());
        true
    }
}
