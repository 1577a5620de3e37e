//! CAP-67 unified events, built as stellar-core builds them with `EMIT_CLASSIC_EVENTS` on:
//! `transfer` / `mint` / `burn` for classic value movements and `set_authorized` for trustline
//! authorization (operation events), and the transaction-level `fee` events. Every event is
//! published under the asset's Stellar Asset Contract id, deployed or not.

use crate::base::codec::sha256;
use soroban_env_host::xdr::*;

/// The Stellar Asset Contract id of `asset` on the network `network_id`.
pub fn asset_contract_id(network_id: &[u8; 32], asset: &Asset) -> [u8; 32] {
    let pre = HashIdPreimage::ContractId(HashIdPreimageContractId {
        network_id: Hash(*network_id),
        contract_id_preimage: ContractIdPreimage::Asset(asset.clone()),
    });
    sha256(&pre.to_xdr(Limits::none()).unwrap())
}

fn code_str(code: &[u8]) -> String {
    code.iter().take_while(|b| **b != 0).map(|b| *b as char).collect()
}

/// SEP-11 asset string: `native`, or `CODE:ISSUER` (the code up to its first NUL).
pub fn sep0011(asset: &Asset) -> String {
    match asset {
        Asset::Native => "native".into(),
        Asset::CreditAlphanum4(a) => format!("{}:{}", code_str(&a.asset_code.0), a.issuer),
        Asset::CreditAlphanum12(a) => format!("{}:{}", code_str(&a.asset_code.0), a.issuer),
    }
}

fn sym(s: &str) -> ScVal {
    ScVal::Symbol(ScSymbol(s.try_into().unwrap()))
}

fn string(b: &[u8]) -> ScVal {
    ScVal::String(ScString(b.to_vec().try_into().unwrap()))
}

fn account(id: &AccountId) -> ScVal {
    ScVal::Address(ScAddress::Account(id.clone()))
}

pub fn i128_val(v: i64) -> ScVal {
    ScVal::I128(Int128Parts { hi: if v < 0 { -1 } else { 0 }, lo: v as u64 })
}

fn contract_event(network_id: &[u8; 32], asset: &Asset, topics: Vec<ScVal>, data: ScVal) -> ContractEvent {
    ContractEvent {
        ext: ExtensionPoint::V0,
        contract_id: Some(ContractId(Hash(asset_contract_id(network_id, asset)))),
        type_: ContractEventType::Contract,
        body: ContractEventBody::V0(ContractEventV0 { topics: topics.try_into().unwrap(), data }),
    }
}

/// The "fee" event of the native asset contract (positive: charged, negative: refunded);
/// none for a zero amount, as stellar-core.
pub fn fee_event(network_id: &[u8; 32], payer: &AccountId, amount: i64, stage: TransactionEventStage) -> Option<TransactionEvent> {
    (amount != 0).then(|| TransactionEvent {
        stage,
        event: contract_event(network_id, &Asset::Native, vec![sym("fee"), account(payer)], i128_val(amount)),
    })
}

fn plain(m: &MuxedAccount) -> AccountId {
    crate::base::codec::muxed_to_account(m)
}

fn is_issuer(id: &AccountId, asset: &Asset) -> bool {
    match asset {
        Asset::Native => false,
        Asset::CreditAlphanum4(a) => &a.issuer == id,
        Asset::CreditAlphanum12(a) => &a.issuer == id,
    }
}

/// The operation events of one classic operation, in the order the operation emits them.
pub struct OpEvents<'a> {
    network_id: &'a [u8; 32],
    memo: &'a Memo,
    events: Vec<ContractEvent>,
}

impl<'a> OpEvents<'a> {
    pub fn new(network_id: &'a [u8; 32], memo: &'a Memo) -> Self {
        OpEvents { network_id, memo, events: vec![] }
    }

    pub fn take(self) -> Vec<ContractEvent> {
        self.events
    }

    /// `amount`, or `{amount, to_muxed_id}` when the destination is muxed (its id) or is a plain
    /// account of a transaction with a memo (the memo: id as u64, text as string, hash and
    /// return as bytes). The muxed id wins over the memo.
    fn data_to(&self, to: &MuxedAccount, amount: i64) -> ScVal {
        let muxed_id = match (to, self.memo) {
            (MuxedAccount::MuxedEd25519(m), _) => ScVal::U64(m.id),
            (_, Memo::None) => return i128_val(amount),
            (_, Memo::Id(id)) => ScVal::U64(*id),
            (_, Memo::Text(t)) => string(t.as_slice()),
            (_, Memo::Hash(h) | Memo::Return(h)) => ScVal::Bytes(ScBytes(h.0.to_vec().try_into().unwrap())),
        };
        let entries = vec![
            ScMapEntry { key: sym("amount"), val: i128_val(amount) },
            ScMapEntry { key: sym("to_muxed_id"), val: muxed_id },
        ];
        ScVal::Map(Some(ScMap(entries.try_into().unwrap())))
    }

    /// A movement of `amount` of `asset` from `from` to `to`: `mint` when only the sender is
    /// the issuer, `burn` when only the receiver is, `transfer` otherwise (stellar-core's
    /// eventForTransferWithIssuerCheck, muxed id / memo allowed).
    pub fn transfer(&mut self, asset: &Asset, from: &AccountId, to: &MuxedAccount, amount: i64) {
        let to_id = plain(to);
        let (from_issuer, to_issuer) = (is_issuer(from, asset), is_issuer(&to_id, asset));
        let asset_str = string(sep0011(asset).as_bytes());
        let (topics, data) = if from_issuer && !to_issuer {
            (vec![sym("mint"), account(&to_id), asset_str], self.data_to(to, amount))
        } else if to_issuer && !from_issuer {
            (vec![sym("burn"), account(from), asset_str], i128_val(amount))
        } else {
            (vec![sym("transfer"), account(from), account(&to_id), asset_str], self.data_to(to, amount))
        };
        self.events.push(contract_event(self.network_id, asset, topics, data));
    }

    /// `set_authorized` for `trustor`'s trustline: whether it is now fully authorized.
    pub fn set_authorized(&mut self, asset: &Asset, trustor: &AccountId, authorized: bool) {
        let topics = vec![sym("set_authorized"), account(trustor), string(sep0011(asset).as_bytes())];
        self.events.push(contract_event(self.network_id, asset, topics, ScVal::Bool(authorized)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acct(n: u8) -> AccountId {
        AccountId(PublicKey::PublicKeyTypeEd25519(Uint256([n; 32])))
    }

    fn usdc(issuer: &AccountId) -> Asset {
        Asset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"USDC"), issuer: issuer.clone() })
    }

    fn topics(e: &ContractEvent) -> Vec<ScVal> {
        let ContractEventBody::V0(b) = &e.body;
        b.topics.to_vec()
    }

    fn data(e: &ContractEvent) -> ScVal {
        let ContractEventBody::V0(b) = &e.body;
        b.data.clone()
    }

    fn plain_to(a: &AccountId) -> MuxedAccount {
        let AccountId(PublicKey::PublicKeyTypeEd25519(k)) = a;
        MuxedAccount::Ed25519(k.clone())
    }

    #[test]
    fn sep0011_strings() {
        assert_eq!(sep0011(&Asset::Native), "native");
        let issuer = acct(7);
        assert_eq!(sep0011(&usdc(&issuer)), format!("USDC:{issuer}"));
        let short = Asset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(*b"AB\0\0"), issuer: issuer.clone() });
        assert_eq!(sep0011(&short), format!("AB:{issuer}"));
        let long = Asset::CreditAlphanum12(AlphaNum12 { asset_code: AssetCode12(*b"LONGCODE\0\0\0\0"), issuer: issuer.clone() });
        assert_eq!(sep0011(&long), format!("LONGCODE:{issuer}"));
        assert!(format!("{issuer}").starts_with('G'));
    }

    #[test]
    fn transfer_mint_burn_by_issuer() {
        let (nid, memo) = ([1u8; 32], Memo::None);
        let (a, b, iss) = (acct(1), acct(2), acct(9));
        let asset = usdc(&iss);
        let mut ev = OpEvents::new(&nid, &memo);
        ev.transfer(&asset, &a, &plain_to(&b), 5);
        ev.transfer(&asset, &iss, &plain_to(&b), 6);
        ev.transfer(&asset, &a, &plain_to(&iss), 7);
        ev.transfer(&asset, &iss, &plain_to(&iss), 8);
        let evs = ev.take();
        let s = string(sep0011(&asset).as_bytes());
        assert_eq!(topics(&evs[0]), vec![sym("transfer"), account(&a), account(&b), s.clone()]);
        assert_eq!(topics(&evs[1]), vec![sym("mint"), account(&b), s.clone()]);
        assert_eq!(topics(&evs[2]), vec![sym("burn"), account(&a), s.clone()]);
        assert_eq!(topics(&evs[3]), vec![sym("transfer"), account(&iss), account(&iss), s]);
        assert_eq!(evs.iter().map(data).collect::<Vec<_>>(), vec![i128_val(5), i128_val(6), i128_val(7), i128_val(8)]);
        let sac = asset_contract_id(&nid, &asset);
        assert!(evs.iter().all(|e| e.contract_id == Some(ContractId(Hash(sac))) && e.type_ == ContractEventType::Contract));
        assert_ne!(sac, asset_contract_id(&nid, &Asset::Native));
    }

    #[test]
    fn muxed_destination_and_memo_go_into_a_map() {
        let nid = [1u8; 32];
        let (a, b) = (acct(1), acct(2));
        let muxed_b = MuxedAccount::MuxedEd25519(MuxedAccountMed25519 { id: 42, ed25519: Uint256([2; 32]) });
        let map = |v: ScVal| ScVal::Map(Some(ScMap(vec![ScMapEntry { key: sym("amount"), val: i128_val(3) }, ScMapEntry { key: sym("to_muxed_id"), val: v }].try_into().unwrap())));
        let none = Memo::None;
        let mut ev = OpEvents::new(&nid, &none);
        ev.transfer(&Asset::Native, &a, &muxed_b, 3);
        assert_eq!(topics(&ev.events[0])[2], account(&b), "the topic drops the muxed id");
        assert_eq!(data(&ev.events[0]), map(ScVal::U64(42)));
        let text = Memo::Text("hello".try_into().unwrap());
        let mut ev = OpEvents::new(&nid, &text);
        ev.transfer(&Asset::Native, &a, &plain_to(&b), 3);
        ev.transfer(&Asset::Native, &a, &muxed_b, 3);
        assert_eq!(data(&ev.events[0]), map(string(b"hello")));
        assert_eq!(data(&ev.events[1]), map(ScVal::U64(42)), "the muxed id wins over the memo");
        let id = Memo::Id(9);
        let mut ev = OpEvents::new(&nid, &id);
        ev.transfer(&Asset::Native, &a, &plain_to(&b), 3);
        assert_eq!(data(&ev.events[0]), map(ScVal::U64(9)));
        let hash = Memo::Return(Hash([5; 32]));
        let mut ev = OpEvents::new(&nid, &hash);
        ev.transfer(&Asset::Native, &a, &plain_to(&b), 3);
        assert_eq!(data(&ev.events[0]), map(ScVal::Bytes(ScBytes(vec![5u8; 32].try_into().unwrap()))));
        // A burn carries the bare amount, memo or not.
        let iss = acct(9);
        ev.transfer(&usdc(&iss), &a, &plain_to(&iss), 3);
        assert_eq!(data(&ev.events[1]), i128_val(3));
    }

    #[test]
    fn fee_events_skip_zero() {
        let nid = [1u8; 32];
        assert!(fee_event(&nid, &acct(1), 0, TransactionEventStage::BeforeAllTxs).is_none());
        let e = fee_event(&nid, &acct(1), -5, TransactionEventStage::AfterAllTxs).unwrap();
        assert_eq!(topics(&e.event), vec![sym("fee"), account(&acct(1))]);
        assert_eq!(data(&e.event), ScVal::I128(Int128Parts { hi: -1, lo: (-5i64) as u64 }));
    }
}
