//! Small encodings every layer uses: SHA-256, base64 XDR, and account ids from keys.

use ed25519_dalek::SigningKey;
use sha2::{Digest, Sha256};
use soroban_env_host::xdr::{AccountId, Limits, MuxedAccount, OperationBody, PublicKey, Uint256, WriteXdr};

pub fn sha256(b: &[u8]) -> [u8; 32] {
    Sha256::digest(b).into()
}

pub fn b64<T: WriteXdr>(v: &T) -> String {
    v.to_xdr_base64(Limits::none()).expect("xdr encodes")
}

pub fn account_id(k: &SigningKey) -> AccountId {
    AccountId(PublicKey::PublicKeyTypeEd25519(Uint256(k.verifying_key().to_bytes())))
}

pub fn muxed_to_account(m: &MuxedAccount) -> AccountId {
    match m {
        MuxedAccount::Ed25519(k) => AccountId(PublicKey::PublicKeyTypeEd25519(k.clone())),
        MuxedAccount::MuxedEd25519(m) => AccountId(PublicKey::PublicKeyTypeEd25519(m.ed25519.clone())),
    }
}

pub fn is_soroban_op(b: &OperationBody) -> bool {
    matches!(b, OperationBody::InvokeHostFunction(_) | OperationBody::ExtendFootprintTtl(_) | OperationBody::RestoreFootprint(_))
}
