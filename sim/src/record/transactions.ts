/**
 * The keepers' transactions as the node recorded them: every transaction the mempool applied
 * for a keeper (sim/src/lockstep/mempool.ts `journal`) is read back with getTransaction for the
 * fee it was charged, whether it succeeded, and the auction fills its operations asked for.
 * Decoding the envelope rather than asking the keeper what it meant to do makes `contenders`
 * exact: a fill request for an auction is in the transaction or it is not.
 */
import { scValToNative, xdr, type rpc } from '@stellar/stellar-sdk'
import type { AppliedTx } from '../lockstep/mempool.js'

/** Blend v2 request types that fill an auction, by the auction type they fill. */
const FILL_REQUESTS: Record<number, number> = { 6: 0, 7: 1, 8: 2 }

/** An auction a transaction asked to fill: Blend auction type and the user (the backstop for bad debt and interest). */
export interface FillTarget {
  type: number
  user: string
}

/** One applied keeper transaction with what the node says about it. */
export interface KeeperTx extends AppliedTx {
  /** SUCCESS or FAILED as applied; MISSING when the node no longer knows it. */
  status: 'SUCCESS' | 'FAILED' | 'MISSING'
  /** Fee charged (stroops): inclusion fee plus the resource fee actually used. */
  feeCharged: bigint
  /** Auction fills its operations request, in order. */
  fills: FillTarget[]
}

/** The operations of a transaction envelope (the inner transaction of a fee bump). */
function operations(env: xdr.TransactionEnvelope): xdr.Operation[] {
  switch (env.type) {
    case 'envelopeTypeTx':
      return env.v1.tx.operations
    case 'envelopeTypeTxV0':
      return env.v0.tx.operations
    case 'envelopeTypeTxFeeBump':
      return env.feeBump.tx.innerTx.v1.tx.operations
    default:
      return []
  }
}

/** Request structs (`{request_type, address, amount}`) anywhere inside a decoded argument. */
function collectFills(value: unknown, out: FillTarget[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectFills(v, out)
    return
  }
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return
  const o = value as Record<string, unknown>
  const kind = typeof o.request_type === 'number' ? o.request_type : typeof o.request_type === 'bigint' ? Number(o.request_type) : undefined
  if (kind !== undefined && typeof o.address === 'string' && 'amount' in o) {
    const type = FILL_REQUESTS[kind]
    if (type !== undefined) out.push({ type, user: o.address })
    return
  }
  for (const v of Object.values(o)) collectFills(v, out)
}

/**
 * The auction fills a transaction requests: Blend `submit` request lists (two-step path) and the
 * executor's `liquidate`, whose requests are passed to the pool as they are (atomic path).
 */
export function fillTargets(env: xdr.TransactionEnvelope): FillTarget[] {
  const out: FillTarget[] = []
  for (const op of operations(env)) {
    const body = op.body
    if (body.type !== 'invokeHostFunction') continue
    const fn = body.invokeHostFunctionOp.hostFunction
    if (fn.type !== 'hostFunctionTypeInvokeContract') continue
    for (const arg of fn.invokeContract.args) {
      let native: unknown
      try {
        native = scValToNative(arg)
      } catch {
        continue
      }
      collectFills(native, out)
    }
  }
  return out
}

type TransactionReader = Pick<rpc.Server, 'getTransaction'>

/** Reads each applied keeper transaction back from the node (in journal order). */
export async function readKeeperTransactions(server: TransactionReader, journal: readonly AppliedTx[]): Promise<KeeperTx[]> {
  const out: KeeperTx[] = []
  for (const applied of journal) {
    const res = await server.getTransaction(applied.hash).catch(() => undefined)
    if (res === undefined || (res.status !== 'SUCCESS' && res.status !== 'FAILED')) {
      out.push({ ...applied, status: 'MISSING', feeCharged: 0n, fills: [] })
      continue
    }
    out.push({
      ...applied,
      status: res.status,
      feeCharged: BigInt(res.resultXdr.feeCharged.toString()),
      fills: fillTargets(res.envelopeXdr),
    })
  }
  return out
}
