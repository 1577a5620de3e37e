/**
 * The dry run's choke point: a node client whose `sendTransaction` refuses every envelope
 * before it leaves the process. Everything else (simulation, reads, ledger polls) passes
 * through, so a submission is built, simulated, assembled and signed as it would be, and then
 * stops here with `DryRunRefusal`: nothing any caller does through this client reaches the
 * network as a transaction, whatever path it takes (a fill, a draw, a return, a registration,
 * a channel account's creation, a top-up, a fee bump).
 */
import { Address, StrKey, xdr, type FeeBumpTransaction, type Transaction } from '@stellar/stellar-sdk'
import { ChainError } from './errors.js'

const refusing = new WeakSet<object>()

/** A transaction a dry run refused to send: what it was, and that its simulation passed. */
export class DryRunRefusal extends ChainError {
  override name = 'DryRunRefusal'
  constructor(
    /** Hex hash of the envelope that would have been sent. */
    readonly hash: string,
    /** Its source account. */
    readonly source: string,
    /** `contract.function` of a Soroban invocation, else the operation types. */
    readonly call: string,
    /** The fee the envelope offered (stroops): inclusion fee plus the simulated resource fee. */
    readonly fee: bigint,
  ) {
    super('dry run: transaction not sent', { details: `${call} from ${source} (${hash})` })
  }
}

/** What an envelope does, in words: `C...:function` for a contract call, else its operation types. */
export function envelopeCall(tx: Transaction | FeeBumpTransaction): string {
  const inner = 'innerTransaction' in tx ? tx.innerTransaction : tx
  const names = inner.operations.map((op) => {
    if (op.type !== 'invokeHostFunction') return op.type
    const fn = op.func
    if (fn.type !== 'hostFunctionTypeInvokeContract') return op.type
    const call = fn.invokeContract
    return `${Address.fromScAddress(call.contractAddress).toString()}:${call.functionName.toString()}`
  })
  return names.join(',')
}

function sourceOf(tx: Transaction | FeeBumpTransaction): string {
  const s = 'innerTransaction' in tx ? tx.feeSource : tx.source
  return StrKey.isValidEd25519PublicKey(s) || StrKey.isValidMed25519PublicKey(s) ? s : String(s)
}

/**
 * `server` with `sendTransaction` refusing every envelope (`DryRunRefusal`); every other call
 * is the server's own. The refusal happens before any request, so no envelope can reach the
 * node, and the submission pipeline gives it up at once (send.ts never follows it by hash).
 */
export function refusingSends<S extends { sendTransaction: (tx: Transaction | FeeBumpTransaction) => Promise<unknown> }>(server: S): S {
  const refuse = async (tx: Transaction | FeeBumpTransaction): Promise<never> => {
    throw new DryRunRefusal(xdr.encodeBytes(tx.hash(), 'hex'), sourceOf(tx), envelopeCall(tx), BigInt(tx.fee))
  }
  refusing.add(refuse)
  return new Proxy(server, {
    get(target, prop, receiver) {
      if (prop === 'sendTransaction') return refuse
      const value = Reflect.get(target, prop, receiver) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

/** Whether `server` is one `refusingSends` made (its sends never leave the process). */
export function refusesSends(server: { sendTransaction: unknown }): boolean {
  return typeof server.sendTransaction === 'function' && refusing.has(server.sendTransaction)
}
