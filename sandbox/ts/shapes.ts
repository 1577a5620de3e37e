/**
 * Helpers for the request / response shape suites (formats.test.ts, nulls.test.ts): raw JSON-RPC
 * calls that keep the error object, and a native-XLM SAC transfer (a transaction with a contract
 * event) made through rpc.Server.
 */
import { Address, Asset, BASE_FEE, Contract, Keypair, Operation, TransactionBuilder, nativeToScVal, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import type { Sandbox } from './launch.js'

export interface RawResponse {
  result?: any // the JSON the suites check field by field
  error?: { code: number; message: string }
}

let rawId = 0

/** One JSON-RPC call; `params` goes out as given (`null` included), `undefined` leaves it out. */
export async function raw(sb: Sandbox, method: string, params?: unknown): Promise<RawResponse> {
  const body = { jsonrpc: '2.0', id: ++rawId, method, ...(params === undefined ? {} : { params }) }
  const res = await fetch(sb.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return (await res.json()) as RawResponse
}

export async function builder(sb: Sandbox, kp: Keypair): Promise<TransactionBuilder> {
  return new TransactionBuilder(await sb.server.getAccount(kp.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase }).setTimeout(60)
}

async function submit(sb: Sandbox, tx: Transaction, signer: Keypair): Promise<rpc.Api.GetSuccessfulTransactionResponse> {
  const prepared = await sb.server.prepareTransaction(tx)
  prepared.sign(signer)
  const sent = await sb.server.sendTransaction(prepared)
  if (sent.status !== 'PENDING') throw new Error(`sendTransaction: ${sent.status}`)
  const got = await sb.server.pollTransaction(sent.hash, { attempts: 100, sleepStrategy: () => 50 })
  if (got.status !== rpc.Api.GetTransactionStatus.SUCCESS) throw new Error(`transaction ${sent.hash}: ${got.status}`)
  return got
}

export interface Transfer {
  from: Keypair
  to: Keypair
  sacId: string
  /** The transfer's hash and ledger. */
  hash: string
  ledger: number
  /** The XLM SAC `transfer(from, to, amount)` invocation, not yet sent. */
  call(amount: bigint): Promise<Transaction>
}

/** Funds two accounts, deploys the native XLM Stellar Asset Contract and transfers 5 XLM. */
export async function sacTransfer(sb: Sandbox): Promise<Transfer> {
  const from = Keypair.random()
  const to = Keypair.random()
  await sb.server.requestAirdrop(from.publicKey())
  await sb.server.requestAirdrop(to.publicKey())
  const sacId = Asset.native().contractId(sb.networkPassphrase)
  const existing = await sb.server.getContractData(sacId, xdr.ScVal.scvLedgerKeyContractInstance()).catch(() => null)
  if (!existing) await submit(sb, (await builder(sb, from)).addOperation(Operation.createStellarAssetContract({ asset: Asset.native() })).build(), from)
  const call = async (amount: bigint) =>
    (await builder(sb, from))
      .addOperation(new Contract(sacId).call('transfer', new Address(from.publicKey()).toScVal(), new Address(to.publicKey()).toScVal(), nativeToScVal(amount, { type: 'i128' })))
      .build()
  const done = await submit(sb, await call(5_0000000n), from)
  return { from, to, sacId, hash: done.txHash, ledger: done.ledger, call }
}
