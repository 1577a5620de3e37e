import { Address, Asset, Operation, hash, scValToNative, xdr, type Keypair } from '@stellar/stellar-sdk'
import { randomBytes } from 'node:crypto'
import type { Chain } from './connection.js'
import { ChainError } from './errors.js'
import { simulateRead } from './simulate.js'
import { submit, type SubmitOptions, type SubmitResult } from './submit.js'

export { NULL_ACCOUNT, read, simulateRead, simulateReadAt, type SimulateReadOptions, type SimulationTarget } from './simulate.js'

export interface InvokeResult<T = unknown> extends SubmitResult {
  /** The return value decoded with `scValToNative` (i128 → bigint, Address → string, ...). */
  value: T
}

/**
 * Calls a contract function in a transaction signed by `source` and waits for it.
 *
 * @example
 * import { invoke } from './index.js'
 * const { value } = await invoke<bigint>(chain, keeper, vaultId, 'draw', [addr(keeper.publicKey()), i128(100n)])
 */
export async function invoke<T = unknown>(
  chain: Chain,
  source: Keypair,
  contractId: string,
  method: string,
  args: readonly xdr.ScVal[] = [],
  options: SubmitOptions = {},
): Promise<InvokeResult<T>> {
  const op = Operation.invokeContractFunction({ contract: contractId, function: method, args: [...args] })
  const res = await submit(chain, source, op, options)
  return { ...res, value: (res.returnValue === undefined ? undefined : scValToNative(res.returnValue)) as T }
}

/**
 * Uploads contract code; returns its hash (hex). Uploading the same code twice is harmless.
 */
export async function uploadWasm(chain: Chain, source: Keypair, wasm: Uint8Array): Promise<string> {
  const res = await submit(chain, source, Operation.uploadContractWasm({ wasm: Buffer.from(wasm) }))
  const rv = res.returnValue
  if (rv !== undefined && rv.type === 'scvBytes') return Buffer.from(rv.bytes.toBytes()).toString('hex')
  return Buffer.from(hash(Buffer.from(wasm))).toString('hex')
}

export interface DeployContractOptions extends SubmitOptions {
  /** 32-byte salt (random by default). */
  salt?: Uint8Array
}

/**
 * Creates a contract instance of uploaded code, running `__constructor(constructorArgs)`.
 * Returns the contract id (C...).
 */
export async function deployContract(
  chain: Chain,
  source: Keypair,
  wasmHash: string | Uint8Array,
  constructorArgs: readonly xdr.ScVal[] = [],
  options: DeployContractOptions = {},
): Promise<string> {
  const op = Operation.createCustomContract({
    address: new Address(source.publicKey()),
    wasmHash: typeof wasmHash === 'string' ? Buffer.from(wasmHash, 'hex') : Buffer.from(wasmHash),
    constructorArgs: [...constructorArgs],
    salt: Buffer.from(options.salt ?? randomBytes(32)),
  })
  const res = await submit(chain, source, op, options)
  if (res.returnValue === undefined) throw new ChainError('deploy returned no contract id')
  return Address.fromScVal(res.returnValue).toString()
}

/** Uploads `wasm` and deploys one instance of it. */
export async function uploadAndDeploy(
  chain: Chain,
  source: Keypair,
  wasm: Uint8Array,
  constructorArgs: readonly xdr.ScVal[] = [],
  options: DeployContractOptions = {},
): Promise<string> {
  return deployContract(chain, source, await uploadWasm(chain, source, wasm), constructorArgs, options)
}

/**
 * Deploys the Stellar Asset Contract of a classic asset (idempotent: an existing one is reused).
 * Returns its contract id.
 */
export async function deployAssetContract(chain: Chain, source: Keypair, asset: Asset): Promise<string> {
  const id = asset.contractId(chain.networkPassphrase)
  try {
    await submit(chain, source, Operation.createStellarAssetContract({ asset }))
  } catch (err) {
    // Already deployed: the id is deterministic, so a read confirms it exists.
    try {
      await simulateRead(chain, id, 'symbol')
    } catch {
      throw err
    }
  }
  return id
}

/**
 * Funds (creates) an account through the network's friendbot. Resolves once the funding
 * transaction succeeded.
 */
export async function fundAccount(chain: Chain | string, address: string): Promise<void> {
  const base = typeof chain === 'string' ? chain : chain.friendbotUrl
  if (!base) throw new ChainError('no friendbot URL configured')
  const url = `${base}${base.includes('?') ? '&' : '?'}addr=${encodeURIComponent(address)}`
  const res = await fetch(url)
  if (!res.ok) {
    const body = await res.text().catch(() => '')
    // An already funded account is not an error for a test set-up.
    if (/already|exist/i.test(body)) return
    throw new ChainError(`friendbot refused ${address}`, { details: `${res.status} ${body.slice(0, 200)}` })
  }
}
