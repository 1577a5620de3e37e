//! The ledger keys a transaction will read: what a fork fetches from its upstream in one batch
//! before the transaction is checked.

use crate::apply::parse::ParsedTx;
use crate::base::codec::muxed_to_account;
use crate::ledger::entry::{account_key, trustline_key};
use soroban_env_host::xdr::*;

/// The entries applying `ptx` reads, to fetch in one batch before it is accepted: its accounts,
/// the trustlines its payments touch and its Soroban footprint.
pub fn tx_keys(ptx: &ParsedTx) -> Vec<LedgerKey> {
    let source = ptx.source();
    let mut keys = vec![account_key(&ptx.fee_source()), account_key(&source)];
    let tl = |id: &AccountId, asset: &Asset| match asset {
        Asset::Native => None,
        Asset::CreditAlphanum4(a) => Some(trustline_key(id, TrustLineAsset::CreditAlphanum4(a.clone()))),
        Asset::CreditAlphanum12(a) => Some(trustline_key(id, TrustLineAsset::CreditAlphanum12(a.clone()))),
    };
    for op in ptx.tx.operations.iter() {
        let from = op.source_account.as_ref().map(muxed_to_account).unwrap_or_else(|| source.clone());
        keys.push(account_key(&from));
        match &op.body {
            OperationBody::CreateAccount(o) => keys.push(account_key(&o.destination)),
            OperationBody::Payment(o) => {
                let to = muxed_to_account(&o.destination);
                keys.push(account_key(&to));
                keys.extend(tl(&from, &o.asset));
                keys.extend(tl(&to, &o.asset));
            }
            OperationBody::ChangeTrust(o) => {
                if let ChangeTrustAsset::CreditAlphanum4(a) = &o.line {
                    keys.push(account_key(&a.issuer));
                    keys.push(trustline_key(&from, TrustLineAsset::CreditAlphanum4(a.clone())));
                }
                if let ChangeTrustAsset::CreditAlphanum12(a) = &o.line {
                    keys.push(account_key(&a.issuer));
                    keys.push(trustline_key(&from, TrustLineAsset::CreditAlphanum12(a.clone())));
                }
            }
            OperationBody::SetTrustLineFlags(o) => {
                keys.push(account_key(&o.trustor));
                keys.extend(tl(&o.trustor, &o.asset));
            }
            _ => {}
        }
    }
    if let Some(d) = ptx.soroban_data() {
        keys.extend(d.resources.footprint.read_only.iter().cloned());
        keys.extend(d.resources.footprint.read_write.iter().cloned());
    }
    keys
}
