//! Friendbot: funds a new account from the network's root account in a ledger closed at once.

use crate::apply::tx;
use crate::base::codec::{account_id, b64, sha256};
use crate::base::errors::FriendbotError;
use crate::base::protocol::BASE_FEE;
use crate::ledger::overlay::Overlay;
use crate::node::core::{Node, FRIENDBOT_AMOUNT};
use ed25519_dalek::Signer;
use soroban_env_host::xdr::*;

impl Node {
    /// Friendbot: a CreateAccount from the root account, applied in a ledger closed at once.
    pub fn friendbot(&mut self, dest: AccountId) -> Result<[u8; 32], FriendbotError> {
        self.chain.store.prefetch(&[crate::ledger::entry::account_key(&dest)]).map_err(FriendbotError::Failed)?;
        let ov = Overlay::new(&self.chain.store, 0);
        if tx::load_account(&ov, &dest).is_some() {
            return Err(FriendbotError::AlreadyFunded);
        }
        let root_id = account_id(&self.root);
        let root = tx::load_account(&ov, &root_id).ok_or_else(|| FriendbotError::Failed("the network root account is missing".into()))?;
        let seq = root.seq_num.0 + 1 + self.pending_from(&root_id);
        let t = Transaction {
            source_account: MuxedAccount::Ed25519(Uint256(self.root.verifying_key().to_bytes())),
            fee: BASE_FEE,
            seq_num: SequenceNumber(seq),
            cond: Preconditions::None,
            memo: Memo::None,
            operations: vec![Operation {
                source_account: None,
                body: OperationBody::CreateAccount(CreateAccountOp { destination: dest, starting_balance: FRIENDBOT_AMOUNT }),
            }]
            .try_into()
            .unwrap(),
            ext: TransactionExt::V0,
        };
        let payload = TransactionSignaturePayload {
            network_id: Hash(self.network_id),
            tagged_transaction: TransactionSignaturePayloadTaggedTransaction::Tx(t.clone()),
        };
        let hash = sha256(&payload.to_xdr(Limits::none()).unwrap());
        let sig = self.root.sign(&hash);
        let env = TransactionEnvelope::Tx(TransactionV1Envelope {
            tx: t,
            signatures: vec![DecoratedSignature {
                hint: SignatureHint(self.root.verifying_key().to_bytes()[28..32].try_into().unwrap()),
                signature: Signature(sig.to_bytes().to_vec().try_into().unwrap()),
            }]
            .try_into()
            .unwrap(),
        });
        let ptx = crate::apply::parse::parse(&b64(&env), &self.network_id).map_err(FriendbotError::Failed)?;
        let h = ptx.hash;
        // Under strict queue rules this is refused only while a transaction of the root
        // account itself waits in the queue; friendbot's own never waits (its ledger closes here).
        self.submit(ptx).map_err(|r| FriendbotError::Failed(format!("friendbot transaction rejected: {}", r.name())))?;
        self.close(Some(h), true);
        match self.chain.txs.get(&h) {
            Some(r) if r.success => Ok(h),
            _ => Err(FriendbotError::Failed("friendbot transaction failed".into())),
        }
    }
}
