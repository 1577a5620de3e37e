/**
 * The one write flow every write on the page goes through, as steps over plain data:
 * build the operation → simulate (prepareWrite) → show the fee ceiling and the expected effect →
 * the person confirms → the wallet signs → send (sendSigned) → included in ledger N, with the fee
 * the network charged. Errors end in words.
 *
 * The fee quoted before signing is the transaction's fee field: the most it can cost (inclusion
 * fee + the simulated resource fee). The network charges the inclusion fee at the ledger's rate
 * and refunds the resources not used, so the fee charged is usually less.
 */
import { scValToNative, type xdr } from '@stellar/stellar-sdk'
import { ContractError } from '../../../src/chain/errors.js'
import { contractErrorMessage } from '../../../src/chain/records/index.js'
import { prepareWrite, sendSigned, type PreparedWrite } from '../../../src/chain/signed.js'
import type { Chain } from '../../../src/chain/connection.js'
import type { SubmitResult } from '../../../src/chain/submit.js'
import { BaseError } from '../../../src/core/index.js'
import type { ConnectedWallet } from '../clients/wallet/types.js'
import { formatAmount } from './amounts.js'

export type { PreparedWrite, SubmitResult }

/** What a write needs from the outside: the source account, a simulator and a signer + sender. */
export interface WriteDeps {
  source: string
  prepare: (op: xdr.Operation) => Promise<PreparedWrite>
  send: (prepared: PreparedWrite) => Promise<SubmitResult>
}

/** The real dependencies: simulate on `chain`, sign in `wallet`, send on `chain`. */
export function walletWriteDeps(chain: Chain, wallet: ConnectedWallet): WriteDeps {
  return {
    source: wallet.address,
    prepare: (op) => prepareWrite(chain, wallet.address, op),
    send: (prepared) => sendSigned(chain, prepared, wallet.sign),
  }
}

export type WritePhase =
  | { kind: 'idle' }
  | { kind: 'preparing' }
  | { kind: 'ready'; prepared: PreparedWrite; fee: string; effect: string }
  | { kind: 'sending'; fee: string; effect: string }
  /** `feeCharged`: what the network charged (XLM), when the node's answer said. */
  | { kind: 'done'; ledger: number; hash: string; feeCharged?: string }
  | { kind: 'error'; message: string }

/** A fee in stroops as XLM with 7 decimals: 1234567n → "0.1234567 XLM". */
export function feeInXlm(stroops: bigint): string {
  return `${formatAmount(stroops)} XLM`
}

/** The quoted fee for what it is, a ceiling: 1234567n → "up to 0.1234567 XLM". */
export function feeCeiling(stroops: bigint): string {
  return `up to ${feeInXlm(stroops)}`
}

/** Under the quote: why the fee charged is usually less. */
export const FEE_CEILING_NOTE = 'The most this transaction can cost; the network charges what it uses, usually less, and says how much once it is included.'

/**
 * Any failure of a write in words: a contract's refusal by its code
 * ("This deposit would take the vault over its deposit cap. (DepositCapExceeded, #107)"), the
 * core's and every other error by its message, a wallet's non-Error rejection by what it says.
 */
export function errorInWords(e: unknown): string {
  if (e instanceof ContractError) return contractErrorMessage(e.code)
  if (e instanceof BaseError) return e.shortMessage
  if (e instanceof Error) return e.message
  if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string') {
    return (e as { message: string }).message
  }
  return String(e)
}

/** An i128 (or other integer) return value as bigint, 0n when there is none. */
export function returnedI128(ret: xdr.ScVal | undefined): bigint {
  if (ret === undefined) return 0n
  const v: unknown = scValToNative(ret)
  return typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : 0n
}

/**
 * Builds and simulates: the `ready` phase with the fee and the caller's words for the simulated
 * return value, or `error` (a refused simulation, a bad input thrown by `build`).
 */
export async function prepareStep(
  deps: WriteDeps,
  build: () => xdr.Operation,
  effect: (returnValue: xdr.ScVal | undefined) => string,
): Promise<WritePhase> {
  try {
    const prepared = await deps.prepare(build())
    return { kind: 'ready', prepared, fee: feeCeiling(prepared.fee), effect: effect(prepared.returnValue) }
  } catch (e) {
    return { kind: 'error', message: errorInWords(e) }
  }
}

/** Signs (in the wallet) and sends a confirmed write: `done` with its ledger and the fee charged, or `error`. */
export async function confirmStep(deps: WriteDeps, prepared: PreparedWrite): Promise<{ phase: WritePhase; result?: SubmitResult }> {
  try {
    const result = await deps.send(prepared)
    const charged = result.feeCharged === undefined ? {} : { feeCharged: feeInXlm(result.feeCharged) }
    return { phase: { kind: 'done', ledger: result.ledger, hash: result.hash, ...charged }, result }
  } catch (e) {
    return { phase: { kind: 'error', message: errorInWords(e) } }
  }
}

/** The status line of a phase ('' when there is nothing to say). */
export function statusText(phase: WritePhase): string {
  switch (phase.kind) {
    case 'preparing':
      return 'Simulating…'
    case 'ready':
      return 'Check the fee and the effect, then confirm.'
    case 'sending':
      return 'Waiting for the wallet to sign, then for the network…'
    case 'done':
      return `Included in ledger ${phase.ledger}`
    default:
      return ''
  }
}
