//! The classic operations a USDC-style asset needs: CreateAccount, Payment (native and
//! credit), ChangeTrust, SetTrustLineFlags, AllowTrust, SetOptions, BumpSequence. A successful
//! operation emits the unified events stellar-core emits for it: CreateAccount and Payment a
//! `transfer` (`mint` / `burn` when the issuer pays / is paid), SetTrustLineFlags and
//! AllowTrust `set_authorized`; the others none.

use crate::apply::classic_events::OpEvents;
use crate::apply::tx::{load_account, min_balance};
use crate::base::protocol::BASE_RESERVE;
use crate::ledger::entry::Stored;
use crate::ledger::entry::account_key;
use crate::ledger::entry::trustline_key;
use crate::ledger::overlay::Overlay;
use soroban_env_host::xdr::*;

pub const AUTH_REQUIRED: u32 = 1;
pub const AUTH_REVOCABLE: u32 = 2;
pub const AUTH_CLAWBACK: u32 = 8;
pub const TL_AUTHORIZED: u32 = 1;
pub const TL_MAINTAIN: u32 = 2;
pub const TL_CLAWBACK: u32 = 4;

fn put_account(ov: &mut Overlay, a: AccountEntry) {
    let key = account_key(&a.account_id);
    let ext = ov.get(&key).map(|s| s.entry.ext).unwrap_or(LedgerEntryExt::V0);
    ov.put(key, Stored { entry: LedgerEntry { last_modified_ledger_seq: 0, data: LedgerEntryData::Account(a), ext }, live_until: None });
}

fn load_tl(ov: &Overlay, account: &AccountId, asset: &TrustLineAsset) -> Option<TrustLineEntry> {
    match ov.get(&trustline_key(account, asset.clone())).map(|s| s.entry.data) {
        Some(LedgerEntryData::Trustline(t)) => Some(t),
        _ => None,
    }
}

fn put_tl(ov: &mut Overlay, t: TrustLineEntry) {
    let key = trustline_key(&t.account_id, t.asset.clone());
    ov.put(key, Stored { entry: LedgerEntry { last_modified_ledger_seq: 0, data: LedgerEntryData::Trustline(t), ext: LedgerEntryExt::V0 }, live_until: None });
}

fn issuer_of(asset: &Asset) -> Option<AccountId> {
    match asset {
        Asset::Native => None,
        Asset::CreditAlphanum4(a) => Some(a.issuer.clone()),
        Asset::CreditAlphanum12(a) => Some(a.issuer.clone()),
    }
}

fn asset_of(tla: &TrustLineAsset) -> Option<Asset> {
    match tla {
        TrustLineAsset::CreditAlphanum4(a) => Some(Asset::CreditAlphanum4(a.clone())),
        TrustLineAsset::CreditAlphanum12(a) => Some(Asset::CreditAlphanum12(a.clone())),
        _ => None,
    }
}

fn tl_asset(asset: &Asset) -> TrustLineAsset {
    match asset {
        Asset::Native => TrustLineAsset::Native,
        Asset::CreditAlphanum4(a) => TrustLineAsset::CreditAlphanum4(a.clone()),
        Asset::CreditAlphanum12(a) => TrustLineAsset::CreditAlphanum12(a.clone()),
    }
}

fn inner(r: OperationResultTr) -> OperationResult {
    OperationResult::OpInner(r)
}

/// Applies one classic operation; `Err` carries the failed operation's result. Its events go
/// to `events` (only a successful operation adds any).
#[allow(clippy::result_large_err)]
pub fn apply_op(ov: &mut Overlay, source: &AccountId, body: &OperationBody, ledger_seq: u32, events: &mut OpEvents) -> Result<OperationResult, OperationResult> {
    if load_account(ov, source).is_none() {
        return Err(OperationResult::OpNoAccount);
    }
    match body {
        OperationBody::CreateAccount(op) => create_account(ov, source, op, ledger_seq, events).map_err(|e| inner(OperationResultTr::CreateAccount(e))).map(|_| inner(OperationResultTr::CreateAccount(CreateAccountResult::Success))),
        OperationBody::Payment(op) => payment(ov, source, op, events).map_err(|e| inner(OperationResultTr::Payment(e))).map(|_| inner(OperationResultTr::Payment(PaymentResult::Success))),
        OperationBody::ChangeTrust(op) => change_trust(ov, source, op).map_err(|e| inner(OperationResultTr::ChangeTrust(e))).map(|_| inner(OperationResultTr::ChangeTrust(ChangeTrustResult::Success))),
        OperationBody::SetTrustLineFlags(op) => set_tl_flags(ov, source, &op.trustor, &tl_asset(&op.asset), op.clear_flags, op.set_flags, events)
            .map_err(|e| inner(OperationResultTr::SetTrustLineFlags(e)))
            .map(|_| inner(OperationResultTr::SetTrustLineFlags(SetTrustLineFlagsResult::Success))),
        OperationBody::AllowTrust(op) => {
            let asset = match &op.asset {
                AssetCode::CreditAlphanum4(c) => TrustLineAsset::CreditAlphanum4(AlphaNum4 { asset_code: c.clone(), issuer: source.clone() }),
                AssetCode::CreditAlphanum12(c) => TrustLineAsset::CreditAlphanum12(AlphaNum12 { asset_code: c.clone(), issuer: source.clone() }),
            };
            let auth_bits = TL_AUTHORIZED | TL_MAINTAIN;
            set_tl_flags(ov, source, &op.trustor, &asset, auth_bits & !op.authorize, op.authorize & auth_bits, events)
                .map_err(|e| {
                    inner(OperationResultTr::AllowTrust(match e {
                        SetTrustLineFlagsResult::NoTrustLine => AllowTrustResult::NoTrustLine,
                        SetTrustLineFlagsResult::CantRevoke => AllowTrustResult::CantRevoke,
                        _ => AllowTrustResult::Malformed,
                    }))
                })
                .map(|_| inner(OperationResultTr::AllowTrust(AllowTrustResult::Success)))
        }
        OperationBody::SetOptions(op) => set_options(ov, source, op).map_err(|e| inner(OperationResultTr::SetOptions(e))).map(|_| inner(OperationResultTr::SetOptions(SetOptionsResult::Success))),
        OperationBody::BumpSequence(op) => {
            let mut a = load_account(ov, source).unwrap();
            if op.bump_to.0 < 0 {
                return Err(inner(OperationResultTr::BumpSequence(BumpSequenceResult::BadSeq)));
            }
            if op.bump_to.0 > a.seq_num.0 {
                a.seq_num = op.bump_to.clone();
                put_account(ov, a);
            }
            Ok(inner(OperationResultTr::BumpSequence(BumpSequenceResult::Success)))
        }
        _ => Err(OperationResult::OpNotSupported),
    }
}

fn create_account(ov: &mut Overlay, source: &AccountId, op: &CreateAccountOp, ledger_seq: u32, events: &mut OpEvents) -> Result<(), CreateAccountResult> {
    if op.starting_balance <= 0 || &op.destination == source {
        return Err(CreateAccountResult::Malformed);
    }
    if load_account(ov, &op.destination).is_some() {
        return Err(CreateAccountResult::AlreadyExist);
    }
    if op.starting_balance < 2 * BASE_RESERVE as i64 {
        return Err(CreateAccountResult::LowReserve);
    }
    let mut src = load_account(ov, source).unwrap();
    if src.balance - min_balance(&src) < op.starting_balance {
        return Err(CreateAccountResult::Underfunded);
    }
    src.balance -= op.starting_balance;
    put_account(ov, src);
    put_account(ov, AccountEntry {
        account_id: op.destination.clone(),
        balance: op.starting_balance,
        seq_num: SequenceNumber((ledger_seq as i64) << 32),
        num_sub_entries: 0,
        inflation_dest: None,
        flags: 0,
        home_domain: String32::default(),
        thresholds: Thresholds([1, 0, 0, 0]),
        signers: VecM::default(),
        ext: AccountEntryExt::V0,
    });
    let AccountId(PublicKey::PublicKeyTypeEd25519(key)) = &op.destination;
    events.transfer(&Asset::Native, source, &MuxedAccount::Ed25519(key.clone()), op.starting_balance);
    Ok(())
}

fn payment(ov: &mut Overlay, source: &AccountId, op: &PaymentOp, events: &mut OpEvents) -> Result<(), PaymentResult> {
    let dest = crate::base::codec::muxed_to_account(&op.destination);
    if op.amount <= 0 {
        return Err(PaymentResult::Malformed);
    }
    if load_account(ov, &dest).is_none() {
        return Err(PaymentResult::NoDestination);
    }
    match &op.asset {
        Asset::Native => {
            let mut src = load_account(ov, source).unwrap();
            if src.balance - min_balance(&src) < op.amount {
                return Err(PaymentResult::Underfunded);
            }
            if &dest != source {
                src.balance -= op.amount;
                put_account(ov, src);
                let mut dest_acc = load_account(ov, &dest).unwrap();
                dest_acc.balance = dest_acc.balance.checked_add(op.amount).ok_or(PaymentResult::LineFull)?;
                put_account(ov, dest_acc);
            }
            events.transfer(&op.asset, source, &op.destination, op.amount);
            Ok(())
        }
        asset => {
            let issuer = issuer_of(asset).unwrap();
            if load_account(ov, &issuer).is_none() {
                return Err(PaymentResult::NoIssuer);
            }
            let tla = tl_asset(asset);
            if source != &issuer {
                let Some(mut t) = load_tl(ov, source, &tla) else { return Err(PaymentResult::SrcNoTrust) };
                if t.flags & TL_AUTHORIZED == 0 {
                    return Err(PaymentResult::SrcNotAuthorized);
                }
                if t.balance < op.amount {
                    return Err(PaymentResult::Underfunded);
                }
                t.balance -= op.amount;
                put_tl(ov, t);
            }
            if dest != issuer {
                let Some(mut t) = load_tl(ov, &dest, &tla) else { return Err(PaymentResult::NoTrust) };
                if t.flags & TL_AUTHORIZED == 0 {
                    return Err(PaymentResult::NotAuthorized);
                }
                let nb = t.balance.checked_add(op.amount).ok_or(PaymentResult::LineFull)?;
                if nb > t.limit {
                    return Err(PaymentResult::LineFull);
                }
                t.balance = nb;
                put_tl(ov, t);
            }
            events.transfer(asset, source, &op.destination, op.amount);
            Ok(())
        }
    }
}

fn change_trust(ov: &mut Overlay, source: &AccountId, op: &ChangeTrustOp) -> Result<(), ChangeTrustResult> {
    let (tla, issuer) = match &op.line {
        ChangeTrustAsset::CreditAlphanum4(a) => (TrustLineAsset::CreditAlphanum4(a.clone()), a.issuer.clone()),
        ChangeTrustAsset::CreditAlphanum12(a) => (TrustLineAsset::CreditAlphanum12(a.clone()), a.issuer.clone()),
        _ => return Err(ChangeTrustResult::Malformed),
    };
    if op.limit < 0 {
        return Err(ChangeTrustResult::Malformed);
    }
    if &issuer == source {
        return Err(ChangeTrustResult::SelfNotAllowed);
    }
    let mut src = load_account(ov, source).unwrap();
    match load_tl(ov, source, &tla) {
        Some(mut t) => {
            if op.limit == 0 {
                if t.balance != 0 {
                    return Err(ChangeTrustResult::InvalidLimit);
                }
                ov.delete(&trustline_key(source, tla.clone()));
                src.num_sub_entries -= 1;
                put_account(ov, src);
            } else {
                if op.limit < t.balance {
                    return Err(ChangeTrustResult::InvalidLimit);
                }
                t.limit = op.limit;
                put_tl(ov, t);
            }
            Ok(())
        }
        None => {
            if op.limit == 0 {
                return Err(ChangeTrustResult::TrustLineMissing);
            }
            let Some(iss) = load_account(ov, &issuer) else { return Err(ChangeTrustResult::NoIssuer) };
            if src.balance < (3 + src.num_sub_entries as i64) * BASE_RESERVE as i64 {
                return Err(ChangeTrustResult::LowReserve);
            }
            let mut flags = 0;
            if iss.flags & AUTH_REQUIRED == 0 {
                flags |= TL_AUTHORIZED;
            }
            if iss.flags & AUTH_CLAWBACK != 0 {
                flags |= TL_CLAWBACK;
            }
            src.num_sub_entries += 1;
            put_account(ov, src);
            put_tl(ov, TrustLineEntry { account_id: source.clone(), asset: tla, balance: 0, limit: op.limit, flags, ext: TrustLineEntryExt::V0 });
            Ok(())
        }
    }
}

fn set_tl_flags(ov: &mut Overlay, source: &AccountId, trustor: &AccountId, asset: &TrustLineAsset, clear: u32, set: u32, events: &mut OpEvents) -> Result<(), SetTrustLineFlagsResult> {
    let issuer = match asset {
        TrustLineAsset::CreditAlphanum4(a) => a.issuer.clone(),
        TrustLineAsset::CreditAlphanum12(a) => a.issuer.clone(),
        _ => return Err(SetTrustLineFlagsResult::Malformed),
    };
    if &issuer != source || trustor == source || clear & set != 0 {
        return Err(SetTrustLineFlagsResult::Malformed);
    }
    let iss = load_account(ov, source).unwrap();
    let Some(mut t) = load_tl(ov, trustor, asset) else { return Err(SetTrustLineFlagsResult::NoTrustLine) };
    if clear & (TL_AUTHORIZED | TL_MAINTAIN) != 0 && t.flags & (TL_AUTHORIZED | TL_MAINTAIN) != 0 && iss.flags & AUTH_REVOCABLE == 0 {
        return Err(SetTrustLineFlagsResult::CantRevoke);
    }
    let flags = (t.flags & !clear) | set;
    if flags & TL_AUTHORIZED != 0 && flags & TL_MAINTAIN != 0 {
        return Err(SetTrustLineFlagsResult::InvalidState);
    }
    t.flags = flags;
    put_tl(ov, t);
    // Emitted on every success, whether or not the authorized flag changed.
    if let Some(a) = asset_of(asset) {
        events.set_authorized(&a, trustor, flags & TL_AUTHORIZED != 0);
    }
    Ok(())
}

fn set_options(ov: &mut Overlay, source: &AccountId, op: &SetOptionsOp) -> Result<(), SetOptionsResult> {
    let mut a = load_account(ov, source).unwrap();
    if let Some(c) = op.clear_flags {
        if c & !0xF != 0 {
            return Err(SetOptionsResult::UnknownFlag);
        }
        a.flags &= !c;
    }
    if let Some(s) = op.set_flags {
        if s & !0xF != 0 {
            return Err(SetOptionsResult::UnknownFlag);
        }
        a.flags |= s;
    }
    if a.flags & AUTH_CLAWBACK != 0 && a.flags & AUTH_REVOCABLE == 0 {
        return Err(SetOptionsResult::AuthRevocableRequired);
    }
    for (i, v) in [(0usize, op.master_weight), (1, op.low_threshold), (2, op.med_threshold), (3, op.high_threshold)] {
        if let Some(v) = v {
            if v > 255 {
                return Err(SetOptionsResult::ThresholdOutOfRange);
            }
            a.thresholds.0[i] = v as u8;
        }
    }
    if let Some(d) = &op.home_domain {
        a.home_domain = d.clone();
    }
    if let Some(id) = &op.inflation_dest {
        a.inflation_dest = Some(id.clone());
    }
    if let Some(signer) = &op.signer {
        let mut signers = a.signers.to_vec();
        let pos = signers.iter().position(|s| s.key == signer.key);
        match (pos, signer.weight) {
            (Some(i), 0) => {
                signers.remove(i);
                a.num_sub_entries -= 1;
            }
            (Some(i), w) => signers[i].weight = w,
            (None, 0) => {}
            (None, _) => {
                if signers.len() >= 20 {
                    return Err(SetOptionsResult::TooManySigners);
                }
                if a.balance < (3 + a.num_sub_entries as i64) * BASE_RESERVE as i64 {
                    return Err(SetOptionsResult::LowReserve);
                }
                signers.push(signer.clone());
                a.num_sub_entries += 1;
            }
        }
        signers.sort_by(|x, y| x.key.cmp(&y.key));
        a.signers = signers.try_into().map_err(|_| SetOptionsResult::TooManySigners)?;
    }
    put_account(ov, a);
    Ok(())
}
