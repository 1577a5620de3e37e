//! What the node's tests build with: in-process nodes, keys, signed envelopes, fee bumps, and
//! requests to the RPC handler or over HTTP.

use crate::apply::parse::{parse, ParsedTx};
use crate::apply::simulate::SimulateParams;
use crate::apply::tx;
use crate::base::codec::{account_id, b64, sha256};
use crate::base::records::TxRecord;
use crate::node::config::Config;
use crate::node::core::Node;
use crate::node::simulate::simulate;
use crate::rpc::dispatch::Ctx;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{json, Value};
use soroban_env_host::xdr::*;

pub(crate) fn node() -> Node {
    Node::new(Config::test()).unwrap()
}

/// A test node's configuration under `--queue-rules relaxed`: an account may queue several
/// transactions.
pub(crate) fn relaxed() -> Config {
    Config { queue_rules: crate::node::config::QueueRules::Relaxed, ..Config::test() }
}

pub(crate) fn key(n: u8) -> SigningKey {
    SigningKey::from_bytes(&[n; 32])
}

pub(crate) fn muxed(k: &SigningKey) -> MuxedAccount {
    MuxedAccount::Ed25519(Uint256(k.verifying_key().to_bytes()))
}

/// Funds keys `keys` through friendbot; their signing keys.
pub(crate) fn funded(n: &mut Node, keys: &[u8]) -> Vec<SigningKey> {
    keys.iter()
        .map(|&k| {
            n.friendbot(account_id(&key(k))).unwrap();
            key(k)
        })
        .collect()
}

fn account(n: &Node, k: &SigningKey) -> AccountEntry {
    let ov = crate::ledger::overlay::Overlay::new(&n.chain.store, 0);
    tx::load_account(&ov, &account_id(k)).unwrap()
}

pub(crate) fn seq_of(n: &Node, k: &SigningKey) -> i64 {
    account(n, k).seq_num.0
}

pub(crate) fn balance(n: &Node, k: &SigningKey) -> i64 {
    account(n, k).balance
}

/// A transaction from `src` with no memo and no preconditions.
pub(crate) fn transaction(src: &SigningKey, seq: i64, fee: u32, ops: Vec<OperationBody>, ext: TransactionExt) -> Transaction {
    Transaction {
        source_account: muxed(src),
        fee,
        seq_num: SequenceNumber(seq),
        cond: Preconditions::None,
        memo: Memo::None,
        operations: ops.into_iter().map(|body| Operation { source_account: None, body }).collect::<Vec<_>>().try_into().unwrap(),
        ext,
    }
}

/// Signatures of `signers` over a transaction's payload on network `nid`.
fn signatures(nid: [u8; 32], tagged: TransactionSignaturePayloadTaggedTransaction, signers: &[&SigningKey]) -> VecM<DecoratedSignature, 20> {
    let payload = TransactionSignaturePayload { network_id: Hash(nid), tagged_transaction: tagged };
    let hash = sha256(&payload.to_xdr(Limits::none()).unwrap());
    let sigs: Vec<DecoratedSignature> = signers
        .iter()
        .map(|k| DecoratedSignature {
            hint: SignatureHint(k.verifying_key().to_bytes()[28..32].try_into().unwrap()),
            signature: Signature(k.sign(&hash).to_bytes().to_vec().try_into().unwrap()),
        })
        .collect();
    sigs.try_into().unwrap()
}

/// `t` signed by `signers`.
pub(crate) fn signed(nid: [u8; 32], t: Transaction, signers: &[&SigningKey]) -> TransactionEnvelope {
    let signatures = signatures(nid, TransactionSignaturePayloadTaggedTransaction::Tx(t.clone()), signers);
    TransactionEnvelope::Tx(TransactionV1Envelope { tx: t, signatures })
}

/// A signed transaction of `ops` from `src`, as base64.
pub(crate) fn envelope(nid: [u8; 32], src: &SigningKey, seq: i64, fee: u32, ops: Vec<OperationBody>, ext: TransactionExt, signers: &[&SigningKey]) -> String {
    b64(&signed(nid, transaction(src, seq, fee, ops, ext), signers))
}

/// Wraps a signed transaction (base64 envelope) in a fee bump paid and signed by `payer`.
pub(crate) fn fee_bump(nid: [u8; 32], inner: &str, payer: &SigningKey, fee: i64) -> String {
    let TransactionEnvelope::Tx(inner) = TransactionEnvelope::from_xdr_base64(inner, Limits::none()).unwrap() else { panic!("v1 envelope") };
    let fb = FeeBumpTransaction { fee_source: muxed(payer), fee, inner_tx: FeeBumpTransactionInnerTx::Tx(inner), ext: FeeBumpTransactionExt::V0 };
    let signatures = signatures(nid, TransactionSignaturePayloadTaggedTransaction::TxFeeBump(fb.clone()), &[payer]);
    b64(&TransactionEnvelope::TxFeeBump(FeeBumpTransactionEnvelope { tx: fb, signatures }))
}

pub(crate) fn pay(to: &SigningKey, amount: i64) -> OperationBody {
    OperationBody::Payment(PaymentOp { destination: muxed(to), asset: Asset::Native, amount })
}

/// Submits `p`, panicking with the result code's name if the queue refuses it; its hash.
pub(crate) fn submit(n: &mut Node, p: ParsedTx) -> [u8; 32] {
    let h = p.hash;
    n.submit(p).map_err(|r| r.name()).unwrap();
    h
}

pub(crate) fn submit_and_close(n: &mut Node, env: &str) -> TxRecord {
    let h = submit(n, parse(env, &n.network_id).unwrap());
    n.close_ledger();
    n.chain.txs.get(&h).cloned().unwrap()
}

pub(crate) fn invoke_op(host_fn: HostFunction) -> OperationBody {
    OperationBody::InvokeHostFunction(InvokeHostFunctionOp { host_function: host_fn, auth: VecM::default() })
}

/// Simulates `host_fn` from `kp`, then applies it with the simulated resources.
pub(crate) fn sim_apply(n: &mut Node, kp: &SigningKey, host_fn: HostFunction) -> (Value, TxRecord) {
    let nid = n.network_id;
    let seq = seq_of(n, kp) + 1;
    let draft = envelope(nid, kp, seq, 100, vec![invoke_op(host_fn.clone())], TransactionExt::V0, &[]);
    let sim = simulate(n, SimulateParams { transaction: draft, auth_mode: None, instruction_leeway: None, use_upgraded_auth: false }).unwrap();
    assert!(sim.get("error").is_none(), "{sim}");
    let data = SorobanTransactionData::from_xdr_base64(sim["transactionData"].as_str().unwrap(), Limits::none()).unwrap();
    let fee = 100 + data.resource_fee as u32;
    let r = submit_and_close(n, &envelope(nid, kp, seq, fee, vec![invoke_op(host_fn)], TransactionExt::V1(data), &[kp]));
    (sim, r)
}

/// A seeded node with two funded accounts (keys 1 and 2) and the native asset contract deployed.
pub(crate) fn sac_world(seed: u64) -> Node {
    let mut n = Node::new(Config { seed: Some(seed), ..Config::test() }).unwrap();
    funded(&mut n, &[1, 2]);
    let deploy = HostFunction::CreateContract(CreateContractArgs {
        contract_id_preimage: ContractIdPreimage::Asset(Asset::Native),
        executable: ContractExecutable::StellarAsset,
    });
    assert!(sim_apply(&mut n, &key(1), deploy).1.success);
    n
}

pub(crate) fn native_sac(n: &Node) -> ScAddress {
    ScAddress::Contract(ContractId(Hash(crate::apply::execute::native_contract_id(&n.network_id))))
}

/// The RPC handler's context over `n`, without a server.
pub(crate) fn ctx(n: Node) -> Ctx {
    Ctx::new(n, "http://127.0.0.1:0".into())
}

/// One JSON-RPC request through the handler; the whole response object.
pub(crate) fn call(c: &Ctx, method: &str, params: Value) -> Value {
    crate::rpc::dispatch::handle(c, &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }))
}

pub(crate) fn http(port: u16, method: &str, path: &str, body: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status: u16 = out[9..12].parse().unwrap();
    let (_, body) = out.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(body).unwrap())
}

/// A node served over HTTP on a free loopback port, for the rest of the test process.
pub(crate) fn serve(n: Node) -> u16 {
    use std::sync::Arc;
    let (server, port) = crate::rpc::transport::bind("127.0.0.1", 0).unwrap();
    let ctx = Arc::new(Ctx::new(n, format!("http://127.0.0.1:{port}")));
    let _acceptor = crate::rpc::transport::serve(server, ctx);
    port
}

/// A node forking the node served on `port`.
pub(crate) fn fork_of(port: u16) -> Node {
    let mut cfg = Config { fork_url: Some(format!("http://127.0.0.1:{port}/rpc")), ..Config::test() };
    let up = crate::node::fork_start::connect(&mut cfg).unwrap().unwrap();
    let mut n = Node::new(cfg).unwrap();
    crate::node::fork_start::attach(&mut n, up).unwrap();
    n
}
