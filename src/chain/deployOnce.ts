/**
 * Deployment steps that send nothing when their result is already on the ledger: contract code
 * is looked up by its hash, a contract by the id its deployer and salt determine, a Stellar Asset
 * Contract by its asset. Each returns what exists and, when it had to send one, the transaction
 * with the fee the network charged. Node only (uses node:crypto through the SDK's hash).
 */
import { Address, Asset, Operation, hash, rpc, type Keypair, type xdr } from '@stellar/stellar-sdk'
import type { Chain } from './connection.js'
import { ChainError } from './errors.js'
import { contractCodeExists, contractExecutable, contractIdFor, type LedgerReader } from './ledgerEntries.js'
import { submit, type SubmitResult } from './submit.js'

/** A transaction a deployment step sent, as recorded: hash, ledger and the fee charged (stroops). */
export interface SentTransaction {
  hash: string
  ledger: number
  feeCharged: bigint
}

/** The fee the network charged for an included transaction (stroops); the offered fee when the node no longer has it. */
export async function sentTransaction(chain: Chain, res: SubmitResult): Promise<SentTransaction> {
  let feeCharged = res.fee
  try {
    const tx = await chain.server.getTransaction(res.hash)
    if (tx.status === rpc.Api.GetTransactionStatus.SUCCESS) feeCharged = tx.resultXdr.feeCharged
  } catch {
    // The offered fee is an upper bound of the charged one.
  }
  return { hash: res.hash, ledger: res.ledger, feeCharged }
}

/** sha256 of contract code, hex: the hash it is uploaded under. */
export function wasmHashOf(wasm: Uint8Array): string {
  return Buffer.from(hash(Buffer.from(wasm))).toString('hex')
}

/** Uploads `wasm` unless code with its hash is already on the ledger. */
export async function ensureWasmUploaded(
  chain: Chain,
  ledger: LedgerReader,
  source: Keypair,
  wasm: Uint8Array,
): Promise<{ wasmHash: string; sent: SentTransaction | undefined }> {
  const wasmHash = wasmHashOf(wasm)
  if (await contractCodeExists(ledger, wasmHash)) return { wasmHash, sent: undefined }
  const res = await submit(chain, source, Operation.uploadContractWasm({ wasm: Buffer.from(wasm) }))
  return { wasmHash, sent: await sentTransaction(chain, res) }
}

/** A contract that exists with other code than expected at the id a deployment derives. */
export class ContractConflictError extends ChainError {
  override name = 'ContractConflictError'
}

/**
 * Deploys `wasmHash` from `source` with `salt`, running its constructor, unless the contract at
 * the id that deployer and salt give already exists. An existing contract must run `wasmHash`
 * (else ContractConflictError); its constructor arguments are the caller's to check.
 */
export async function ensureContractDeployed(
  chain: Chain,
  ledger: LedgerReader,
  source: Keypair,
  p: { wasmHash: string; salt: Uint8Array; constructorArgs: readonly xdr.ScVal[] },
): Promise<{ contractId: string; sent: SentTransaction | undefined }> {
  const contractId = contractIdFor(chain.networkPassphrase, source.publicKey(), p.salt)
  const existing = await contractExecutable(ledger, contractId)
  if (existing !== undefined) {
    if (existing.kind !== 'wasm' || existing.wasmHash !== p.wasmHash) {
      const what = existing.kind === 'wasm' ? `code ${existing.wasmHash}` : 'the Stellar Asset Contract'
      throw new ContractConflictError(`contract ${contractId} exists and runs ${what}, not ${p.wasmHash}`)
    }
    return { contractId, sent: undefined }
  }
  const op = Operation.createCustomContract({
    address: new Address(source.publicKey()),
    wasmHash: Buffer.from(p.wasmHash, 'hex'),
    constructorArgs: [...p.constructorArgs],
    salt: Buffer.from(p.salt),
  })
  const res = await submit(chain, source, op)
  const created = res.returnValue === undefined ? undefined : Address.fromScVal(res.returnValue).toString()
  if (created !== contractId) throw new ChainError(`deployment returned ${created ?? 'no contract id'}, expected ${contractId}`)
  return { contractId, sent: await sentTransaction(chain, res) }
}

/** Deploys the Stellar Asset Contract of `asset` from `source` unless it exists. */
export async function ensureAssetContract(
  chain: Chain,
  ledger: LedgerReader,
  source: Keypair,
  asset: Asset,
): Promise<{ contractId: string; sent: SentTransaction | undefined }> {
  const contractId = asset.contractId(chain.networkPassphrase)
  const existing = await contractExecutable(ledger, contractId)
  if (existing !== undefined) return { contractId, sent: undefined }
  const res = await submit(chain, source, Operation.createStellarAssetContract({ asset }))
  return { contractId, sent: await sentTransaction(chain, res) }
}
