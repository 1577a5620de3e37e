/**
 * One transaction as the RPC node's getTransaction tells it, decoded for people: status, ledger,
 * close time, fee charged, source account, each operation (a contract call: contract, function,
 * arguments) and the contract events it emitted, their amounts with their 7 decimals and units
 * (clients/scValText.ts). Nodes keep only recent transactions; an older one is `found: false`
 * with the ledgers the node does keep.
 */
import { Address, FeeBumpTransaction, StrKey, TransactionBuilder, type rpc, type xdr } from '@stellar/stellar-sdk'
import { txValue, unitFor, valueText, type KnownContracts, type TxValue } from './scValText.js'

export { valueText, type KnownContracts, type TxValue }

export interface TxOperation {
  /** The operation type, e.g. `invokeHostFunction`, `changeTrust`. */
  type: string
  /** For a contract call: the contract (C…), the function and its arguments. */
  contract?: string
  fn?: string
  args?: TxValue[]
}

export interface TxEvent {
  contract: string
  topics: string[]
  data: TxValue
}

export type TxSummary =
  | { found: false; oldestLedger: number; latestLedger: number }
  | {
      found: true
      status: 'SUCCESS' | 'FAILED'
      ledger: number
      /** Unix seconds the ledger closed. */
      closeTime: number
      /** Stroops. */
      feeCharged: bigint
      source: string
      feeBump: boolean
      operations: TxOperation[]
      events: TxEvent[]
    }

/**
 * The node's `createdAt` as unix seconds: the SDK types it as a number, but nodes send the JSON
 * string of one ("1700000000"); an ISO time is read too. 0 when it is none of these.
 */
export function unixSeconds(createdAt: unknown): number {
  if (typeof createdAt === 'number') return Number.isFinite(createdAt) ? createdAt : 0
  if (typeof createdAt === 'bigint') return Number(createdAt)
  if (typeof createdAt !== 'string' || createdAt.trim() === '') return 0
  const n = Number(createdAt)
  if (Number.isFinite(n)) return n
  const ms = Date.parse(createdAt)
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0
}

function operationOf(op: { type: string; func?: xdr.HostFunction }, known: KnownContracts): TxOperation {
  if (op.type !== 'invokeHostFunction' || op.func === undefined || op.func.type !== 'hostFunctionTypeInvokeContract') return { type: op.type }
  const call = op.func.invokeContract
  const contract = Address.fromScAddress(call.contractAddress).toString()
  const fn = call.functionName.toString()
  const unit = unitFor(contract, known, { fn })
  return { type: op.type, contract, fn, args: call.args.map((a) => txValue(a, unit)) }
}

function eventOf(ev: xdr.ContractEvent, known: KnownContracts): TxEvent {
  const id = ev.contractId
  const body = ev.body.v0
  const contract = id === null ? '—' : StrKey.encodeContract(id.toBytes())
  const topics = body.topics.map(valueText)
  return { contract, topics, data: txValue(body.data, unitFor(contract, known, { topics })) }
}

/** The contract events of a found transaction: the node's `events` field, else its meta (older nodes). */
function eventsOf(res: rpc.Api.GetSuccessfulTransactionResponse | rpc.Api.GetFailedTransactionResponse): xdr.ContractEvent[] {
  const listed = res.events?.contractEventsXdr
  if (listed !== undefined) return listed.flat()
  try {
    const meta = res.resultMetaXdr
    if (meta.type === 'v4') return meta.v4.operations.flatMap((o) => o.events)
    if (meta.type === 'v3') return meta.v3.sorobanMeta?.events ?? []
    return []
  } catch {
    return []
  }
}

/** Decodes a getTransaction answer (see the file comment); `known` names the units of the dashboard's contracts. */
export function summarize(res: rpc.Api.GetTransactionResponse, networkPassphrase: string, known: KnownContracts = {}): TxSummary {
  if (res.status !== 'SUCCESS' && res.status !== 'FAILED') return { found: false, oldestLedger: res.oldestLedger, latestLedger: res.latestLedger }
  const tx = TransactionBuilder.fromXDR(res.envelopeXdr, networkPassphrase)
  const inner = tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx
  return {
    found: true,
    status: res.status,
    ledger: res.ledger,
    closeTime: unixSeconds(res.createdAt),
    feeCharged: res.resultXdr.feeCharged,
    source: inner.source,
    feeBump: tx instanceof FeeBumpTransaction,
    operations: inner.operations.map((op) => operationOf(op as { type: string; func?: xdr.HostFunction }, known)),
    events: eventsOf(res).map((e) => eventOf(e, known)),
  }
}

/** Asks the node for transaction `hash` and decodes the answer. */
export async function readTransaction(
  server: Pick<rpc.Server, 'getTransaction'>,
  networkPassphrase: string,
  hash: string,
  known: KnownContracts = {},
): Promise<TxSummary> {
  return summarize(await server.getTransaction(hash), networkPassphrase, known)
}
