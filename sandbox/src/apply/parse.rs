//! Transaction envelopes as the node handles them: decoded once, hashed (the hash clients know
//! and the full hash tx sets sort by), fee-bump aware.

use crate::base::codec::{is_soroban_op, muxed_to_account};
use crate::base::protocol::BASE_FEE;
use sha2::{Digest, Sha256};
use soroban_env_host::xdr::{
    AccountId, DecoratedSignature, FeeBumpTransactionInnerTx, Hash, Limits, MuxedAccount, Preconditions, ReadXdr, SorobanTransactionData, Transaction,
    TransactionEnvelope, TransactionExt, TransactionSignaturePayload, TransactionSignaturePayloadTaggedTransaction,
    TransactionV1Envelope, WriteXdr,
};

pub struct ParsedTx {
    /// Hash clients know the transaction by (the outer one for a fee bump).
    pub hash: [u8; 32],
    /// SHA-256 of the envelope XDR, signatures included (stellar-core's getFullHash): what a
    /// transaction set is sorted by and its apply order is drawn from (apply_order.rs).
    pub full_hash: [u8; 32],
    pub envelope: TransactionEnvelope,
    pub tx: Transaction,
    pub inner_hash: [u8; 32],
    pub signatures: Vec<DecoratedSignature>,
    pub fee_bump: Option<FeeBump>,
    pub size: u32,
    /// Inclusion fee per operation the ledger charges: the base fee of the transaction set's
    /// lane (surge pricing, see txset.rs), the network's base fee until a ledger takes it.
    pub base_fee: i64,
}

pub struct FeeBump {
    pub fee_source: AccountId,
    pub fee: i64,
    pub signatures: Vec<DecoratedSignature>,
}

fn payload_hash(network_id: &[u8; 32], tagged: TransactionSignaturePayloadTaggedTransaction) -> [u8; 32] {
    let p = TransactionSignaturePayload { network_id: Hash(*network_id), tagged_transaction: tagged };
    Sha256::digest(p.to_xdr(Limits::none()).expect("payload encodes")).into()
}

pub fn parse(xdr_b64: &str, network_id: &[u8; 32]) -> Result<ParsedTx, String> {
    let envelope = TransactionEnvelope::from_xdr_base64(xdr_b64.trim(), Limits::len(1 << 22))
        .map_err(|e| format!("transaction is not a valid TransactionEnvelope XDR: {e}"))?;
    let bytes = envelope.to_xdr(Limits::none()).map_err(|e| e.to_string())?;
    let size = bytes.len() as u32;
    let full_hash: [u8; 32] = Sha256::digest(&bytes).into();
    let (tx, signatures, fee_bump) = match &envelope {
        TransactionEnvelope::TxV0(v0) => {
            let t = &v0.tx;
            let tx = Transaction {
                source_account: MuxedAccount::Ed25519(t.source_account_ed25519.clone()),
                fee: t.fee,
                seq_num: t.seq_num.clone(),
                cond: match &t.time_bounds {
                    Some(tb) => Preconditions::Time(tb.clone()),
                    None => Preconditions::None,
                },
                memo: t.memo.clone(),
                operations: t.operations.clone(),
                ext: TransactionExt::V0,
            };
            (tx, v0.signatures.to_vec(), None)
        }
        TransactionEnvelope::Tx(v1) => (v1.tx.clone(), v1.signatures.to_vec(), None),
        TransactionEnvelope::TxFeeBump(fb) => {
            let FeeBumpTransactionInnerTx::Tx(TransactionV1Envelope { tx, signatures }) = &fb.tx.inner_tx;
            let bump = FeeBump {
                fee_source: muxed_to_account(&fb.tx.fee_source),
                fee: fb.tx.fee,
                signatures: fb.signatures.to_vec(),
            };
            (tx.clone(), signatures.to_vec(), Some(bump))
        }
    };
    let inner_hash = payload_hash(network_id, TransactionSignaturePayloadTaggedTransaction::Tx(tx.clone()));
    let hash = match &envelope {
        TransactionEnvelope::TxFeeBump(fb) => {
            payload_hash(network_id, TransactionSignaturePayloadTaggedTransaction::TxFeeBump(fb.tx.clone()))
        }
        _ => inner_hash,
    };
    Ok(ParsedTx { hash, full_hash, envelope, tx, inner_hash, signatures, fee_bump, size, base_fee: BASE_FEE as i64 })
}

impl ParsedTx {
    pub fn source(&self) -> AccountId {
        muxed_to_account(&self.tx.source_account)
    }
    pub fn fee_source(&self) -> AccountId {
        self.fee_bump.as_ref().map(|b| b.fee_source.clone()).unwrap_or_else(|| self.source())
    }
    pub fn soroban_data(&self) -> Option<&SorobanTransactionData> {
        match &self.tx.ext {
            TransactionExt::V1(d) => Some(d),
            TransactionExt::V0 => None,
        }
    }
    pub fn is_soroban(&self) -> bool {
        self.tx.operations.iter().any(|o| is_soroban_op(&o.body))
    }
    /// Operations as fees count them: a fee bump adds one to its inner transaction's.
    pub fn num_ops(&self) -> u32 {
        self.tx.operations.len() as u32 + u32::from(self.fee_bump.is_some())
    }
    /// The whole fee offered (the outer one for a fee bump).
    pub fn full_fee(&self) -> i64 {
        self.fee_bump.as_ref().map(|b| b.fee).unwrap_or(self.tx.fee as i64)
    }
    /// The bid surge pricing ranks by: the full fee less the declared resource fee of a
    /// Soroban transaction (stellar-core's getInclusionFee).
    pub fn inclusion_fee(&self) -> i64 {
        let resource = if self.is_soroban() { self.soroban_data().map(|d| d.resource_fee).unwrap_or(0) } else { 0 };
        self.full_fee() - resource
    }
    /// Fee the transaction pays before any refund, as stellar-core's getFee when applying:
    /// the declared resource fee plus the inclusion fee at the ledger's base fee per
    /// operation, never more than the bid.
    pub fn charged_fee(&self) -> i64 {
        let resource = self.soroban_data().map(|d| d.resource_fee).unwrap_or(0);
        let ops = self.num_ops().max(1) as i64;
        let offered = self.full_fee();
        offered.min(self.base_fee.saturating_mul(ops).saturating_add(resource))
    }
}
