//! Transaction envelopes: parsing, hashing, signature and validity checks (what stellar-core
//! calls checkValid), shared by sendTransaction and ledger close.

use crate::apply::parse::ParsedTx;
use crate::base::codec::muxed_to_account;
use crate::ledger::entry::account_key;
use crate::ledger::network::Settings;

use crate::base::protocol::{BASE_FEE, BASE_RESERVE};
use crate::ledger::overlay::Overlay;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use soroban_env_host::xdr::{
    AccountEntry, AccountId, DecoratedSignature, LedgerEntryData, Operation, OperationBody, Preconditions,
    PublicKey, SignerKey, SorobanTransactionData, Transaction, TransactionResultResult, Uint256,
};

pub fn load_account(ov: &Overlay, id: &AccountId) -> Option<AccountEntry> {
    match ov.get(&account_key(id)).map(|s| s.entry.data) {
        Some(LedgerEntryData::Account(a)) => Some(a),
        _ => None,
    }
}

pub fn num_sponsoring_adjusted_subentries(a: &AccountEntry) -> i64 {
    a.num_sub_entries as i64
}

pub fn min_balance(a: &AccountEntry) -> i64 {
    (2 + num_sponsoring_adjusted_subentries(a)) * BASE_RESERVE as i64
}

fn ed25519_of(id: &AccountId) -> [u8; 32] {
    let PublicKey::PublicKeyTypeEd25519(Uint256(k)) = &id.0;
    *k
}

/// Signature checks already done (key, payload hash, signature → valid), as stellar-core
/// caches them: the queue re-checks pending transactions after every close.
static VERIFIED: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<[u8; 128], bool>>> =
    std::sync::LazyLock::new(Default::default);
const VERIFIED_MAX: usize = 1 << 16;

fn verify_cached(vk: &VerifyingKey, key: &[u8; 32], hash: &[u8; 32], sig: &[u8; 64]) -> bool {
    let mut id = [0u8; 128];
    id[..32].copy_from_slice(key);
    id[32..64].copy_from_slice(hash);
    id[64..].copy_from_slice(sig);
    if let Some(&ok) = VERIFIED.lock().unwrap_or_else(|p| p.into_inner()).get(&id) {
        return ok;
    }
    let ok = vk.verify(hash, &Signature::from_bytes(sig)).is_ok();
    let mut cache = VERIFIED.lock().unwrap_or_else(|p| p.into_inner());
    if cache.len() >= VERIFIED_MAX {
        cache.clear();
    }
    cache.insert(id, ok);
    ok
}

/// Weight of the signatures that belong to `account` (master key and ed25519 signers).
pub fn signature_weight(account: &AccountEntry, hash: &[u8; 32], sigs: &[DecoratedSignature]) -> u32 {
    let mut keys: Vec<([u8; 32], u32)> = vec![(ed25519_of(&account.account_id), account.thresholds.0[0] as u32)];
    for s in account.signers.iter() {
        if let SignerKey::Ed25519(Uint256(k)) = &s.key {
            keys.push((*k, s.weight));
        }
    }
    let mut total = 0u32;
    for (k, w) in keys {
        if w == 0 {
            continue;
        }
        let hint = &k[28..32];
        let signed = sigs.iter().any(|s| {
            s.hint.0 == hint && {
                let Ok(vk) = VerifyingKey::from_bytes(&k) else { return false };
                let Ok(bytes) = <[u8; 64]>::try_from(s.signature.0.as_slice()) else { return false };
                verify_cached(&vk, &k, hash, &bytes)
            }
        });
        if signed {
            total = total.saturating_add(w);
        }
    }
    total
}

/// Threshold an operation needs from its source account.
fn op_threshold(account: &AccountEntry, op: &Operation) -> u32 {
    let t = &account.thresholds.0;
    match &op.body {
        OperationBody::SetOptions(o)
            if o.master_weight.is_some() || o.signer.is_some() || o.low_threshold.is_some()
                || o.med_threshold.is_some() || o.high_threshold.is_some() =>
        {
            t[3] as u32
        }
        OperationBody::AllowTrust(_) | OperationBody::SetTrustLineFlags(_) | OperationBody::BumpSequence(_) => t[1] as u32,
        OperationBody::ExtendFootprintTtl(_) | OperationBody::RestoreFootprint(_) => t[1] as u32,
        _ => t[2] as u32,
    }
}

fn time_bounds(tx: &Transaction) -> Option<&soroban_env_host::xdr::TimeBounds> {
    match &tx.cond {
        Preconditions::Time(tb) | Preconditions::V2(soroban_env_host::xdr::PreconditionsV2 { time_bounds: Some(tb), .. }) => Some(tb),
        _ => None,
    }
}

/// The ledger bounds of a V2 precondition (CAP-21): `min_ledger` inclusive, `max_ledger`
/// exclusive, 0 for no upper bound.
fn ledger_bounds(tx: &Transaction) -> Option<&soroban_env_host::xdr::LedgerBounds> {
    match &tx.cond {
        Preconditions::V2(soroban_env_host::xdr::PreconditionsV2 { ledger_bounds: Some(lb), .. }) => Some(lb),
        _ => None,
    }
}

/// Whether the transaction can no longer be included in ledger `seq` closing at `close_time`:
/// its upper time bound has passed, or `seq` is at or past its upper ledger bound (stellar-core's
/// `isTooLate`). Upper time bounds are judged by the wall clock when the ledger clock runs ahead
/// of it (time travel), so transactions built with a client-side timeout stay valid.
pub fn too_late(ptx: &ParsedTx, close_time: u64, seq: u32) -> bool {
    let late_time = close_time.min(crate::base::clock::wall_secs().max(1));
    time_bounds(&ptx.tx).is_some_and(|tb| tb.max_time.0 != 0 && tb.max_time.0 < late_time)
        || ledger_bounds(&ptx.tx).is_some_and(|lb| lb.max_ledger != 0 && lb.max_ledger <= seq)
}

/// Whether ledger `seq` is before the transaction's lower ledger bound.
fn too_early_ledger(tx: &Transaction, seq: u32) -> bool {
    ledger_bounds(tx).is_some_and(|lb| lb.min_ledger > seq)
}

/// Checks what must hold for the transaction to be accepted and charged. `seq_offset` counts
/// transactions of the same source already waiting for this ledger. `close_time` is the
/// close time the transaction is judged against, and `ov.ledger_seq` the ledger.
pub fn check_valid(
    ov: &Overlay,
    ptx: &ParsedTx,
    settings: &Settings,
    close_time: u64,
    seq_offset: i64,
) -> Result<(), TransactionResultResult> {
    use TransactionResultResult as R;
    let tx = &ptx.tx;
    if tx.operations.is_empty() {
        return Err(R::TxMissingOperation);
    }
    if ptx.is_soroban() {
        if tx.operations.len() != 1 {
            return Err(R::TxMalformed);
        }
        let Some(data) = ptx.soroban_data() else { return Err(R::TxMalformed) };
        check_soroban_resources(ptx, data, settings)?;
    }
    if let Some(tb) = time_bounds(tx) {
        if tb.min_time.0 > close_time {
            return Err(R::TxTooEarly);
        }
    }
    if too_early_ledger(tx, ov.ledger_seq) {
        return Err(R::TxTooEarly);
    }
    if too_late(ptx, close_time, ov.ledger_seq) {
        return Err(R::TxTooLate);
    }
    let resource_fee = ptx.soroban_data().map(|d| d.resource_fee).unwrap_or(0);
    let min_inclusion = BASE_FEE as i64 * tx.operations.len() as i64;
    if (tx.fee as i64) < resource_fee + min_inclusion && ptx.fee_bump.is_none() {
        return Err(R::TxInsufficientFee);
    }
    let Some(source) = load_account(ov, &ptx.source()) else { return Err(R::TxNoAccount) };
    if tx.seq_num.0 != source.seq_num.0 + 1 + seq_offset {
        return Err(R::TxBadSeq);
    }
    // Every distinct operation source must have signed with enough weight.
    let mut needed: Vec<(AccountId, u32)> = vec![(ptx.source(), source.thresholds.0[1] as u32)];
    for op in tx.operations.iter() {
        let id = op.source_account.as_ref().map(muxed_to_account).unwrap_or_else(|| ptx.source());
        let acc = if id == ptx.source() { Some(source.clone()) } else { load_account(ov, &id) };
        if let Some(acc) = acc {
            needed.push((id, op_threshold(&acc, op)));
        }
    }
    for (id, threshold) in needed {
        let Some(acc) = load_account(ov, &id) else { continue };
        let w = signature_weight(&acc, &ptx.inner_hash, &ptx.signatures);
        if w == 0 || w < threshold {
            return Err(R::TxBadAuth);
        }
    }
    let fee_source = match &ptx.fee_bump {
        Some(b) => {
            let Some(fs) = load_account(ov, &b.fee_source) else { return Err(R::TxNoAccount) };
            let w = signature_weight(&fs, &ptx.hash, &b.signatures);
            if w == 0 || w < fs.thresholds.0[1] as u32 {
                return Err(R::TxBadAuth);
            }
            if b.fee < resource_fee + min_inclusion + BASE_FEE as i64 {
                return Err(R::TxInsufficientFee);
            }
            fs
        }
        None => source,
    };
    if fee_source.balance - min_balance(&fee_source) < ptx.charged_fee() {
        return Err(R::TxInsufficientBalance);
    }
    Ok(())
}

fn check_soroban_resources(ptx: &ParsedTx, data: &SorobanTransactionData, s: &Settings) -> Result<(), TransactionResultResult> {
    use TransactionResultResult as R;
    let r = &data.resources;
    let fp = &r.footprint;
    let entries = fp.read_only.len() + fp.read_write.len();
    if r.instructions as i64 > s.compute.tx_max_instructions
        || r.disk_read_bytes > s.ledger_cost.tx_max_disk_read_bytes
        || r.write_bytes > s.ledger_cost.tx_max_write_bytes
        || fp.read_write.len() as u32 > s.ledger_cost.tx_max_write_ledger_entries
        || entries as u32 > s.ledger_cost_ext.tx_max_footprint_entries
        || ptx.size > s.bandwidth.tx_max_size_bytes
    {
        return Err(R::TxSorobanInvalid);
    }
    let (non_refundable, _) = crate::apply::fees::resource_fees(ptx, data, s, 0);
    if data.resource_fee < non_refundable || data.resource_fee < 0 {
        return Err(R::TxInsufficientFee);
    }
    Ok(())
}

pub fn result_code_name(r: &TransactionResultResult) -> &'static str {
    use TransactionResultResult as R;
    match r {
        R::TxFeeBumpInnerSuccess(_) => "txFEE_BUMP_INNER_SUCCESS",
        R::TxFeeBumpInnerFailed(_) => "txFEE_BUMP_INNER_FAILED",
        R::TxSuccess(_) => "txSUCCESS",
        R::TxFailed(_) => "txFAILED",
        R::TxTooEarly => "txTOO_EARLY",
        R::TxTooLate => "txTOO_LATE",
        R::TxMissingOperation => "txMISSING_OPERATION",
        R::TxBadSeq => "txBAD_SEQ",
        R::TxBadAuth => "txBAD_AUTH",
        R::TxInsufficientBalance => "txINSUFFICIENT_BALANCE",
        R::TxNoAccount => "txNO_ACCOUNT",
        R::TxInsufficientFee => "txINSUFFICIENT_FEE",
        R::TxBadAuthExtra => "txBAD_AUTH_EXTRA",
        R::TxInternalError => "txINTERNAL_ERROR",
        R::TxNotSupported => "txNOT_SUPPORTED",
        R::TxBadSponsorship => "txBAD_SPONSORSHIP",
        R::TxBadMinSeqAgeOrGap => "txBAD_MIN_SEQ_AGE_OR_GAP",
        R::TxMalformed => "txMALFORMED",
        R::TxSorobanInvalid => "txSOROBAN_INVALID",
        R::TxFrozenKeyAccessed => "txFROZEN_KEY_ACCESSED",
    }
}
