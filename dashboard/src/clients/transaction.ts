/**
 * One transaction as the RPC node's getTransaction tells it, decoded for people: status, ledger,
 * close time, fee charged, source account, each operation (a contract call: contract, function,
 * arguments) and the contract events it emitted. Nodes keep only recent transactions; an older
 * one is `found: false` with the ledgers the node does keep.
 */
import { Address, FeeBumpTransaction, StrKey, TransactionBuilder, scValToNative, type rpc, type xdr } from '@stellar/stellar-sdk'

export interface TxOperation {
  /** The operation type, e.g. `invokeHostFunction`, `changeTrust`. */
  type: string
  /** For a contract call: the contract (C…), the function and its arguments as text. */
  contract?: string
  fn?: string
  args?: string[]
}

export interface TxEvent {
  contract: string
  topics: string[]
  data: string
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

const hex = (bytes: ArrayLike<number>): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** A decoded ScVal as short text: bigints as integers, bytes as hex, maps and lists as JSON. */
export function valueText(v: xdr.ScVal): string {
  const native: unknown = scValToNative(v)
  if (typeof native === 'string') return native
  if (typeof native === 'bigint') return native.toString()
  return JSON.stringify(native, (_k, x: unknown) => {
    if (typeof x === 'bigint') return x.toString()
    if (x instanceof Uint8Array) return hex(x)
    if (typeof x === 'object' && x !== null && (x as { type?: unknown }).type === 'Buffer') return hex((x as { data: number[] }).data)
    return x
  })
}

function operationOf(op: { type: string; func?: xdr.HostFunction }): TxOperation {
  if (op.type !== 'invokeHostFunction' || op.func === undefined || op.func.type !== 'hostFunctionTypeInvokeContract') return { type: op.type }
  const call = op.func.invokeContract
  return {
    type: op.type,
    contract: Address.fromScAddress(call.contractAddress).toString(),
    fn: call.functionName.toString(),
    args: call.args.map(valueText),
  }
}

function eventOf(ev: xdr.ContractEvent): TxEvent {
  const id = ev.contractId
  const body = ev.body.v0
  return {
    contract: id === null ? '—' : StrKey.encodeContract(id.toBytes()),
    topics: body.topics.map(valueText),
    data: valueText(body.data),
  }
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

/** Decodes a getTransaction answer (see the file comment). */
export function summarize(res: rpc.Api.GetTransactionResponse, networkPassphrase: string): TxSummary {
  if (res.status !== 'SUCCESS' && res.status !== 'FAILED') return { found: false, oldestLedger: res.oldestLedger, latestLedger: res.latestLedger }
  const tx = TransactionBuilder.fromXDR(res.envelopeXdr, networkPassphrase)
  const inner = tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx
  return {
    found: true,
    status: res.status,
    ledger: res.ledger,
    closeTime: res.createdAt,
    feeCharged: res.resultXdr.feeCharged,
    source: inner.source,
    feeBump: tx instanceof FeeBumpTransaction,
    operations: inner.operations.map((op) => operationOf(op as { type: string; func?: xdr.HostFunction })),
    events: eventsOf(res).map(eventOf),
  }
}

/** Asks the node for transaction `hash` and decodes the answer. */
export async function readTransaction(server: Pick<rpc.Server, 'getTransaction'>, networkPassphrase: string, hash: string): Promise<TxSummary> {
  return summarize(await server.getTransaction(hash), networkPassphrase)
}
