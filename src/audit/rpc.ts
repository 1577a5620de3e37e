/**
 * The auditor's access to a Stellar RPC node: read-only simulations that also say which ledger
 * they read, getEvents, getHealth and getLatestLedger. Nothing here signs or sends a transaction.
 * Browser-safe: only `@stellar/stellar-sdk` and src/chain's errors and read-only simulation.
 */
import { rpc, scValToNative, type xdr } from '@stellar/stellar-sdk'
import type { Chain } from '../chain/connection.js'
import { ChainError, ContractError } from '../chain/errors.js'
import { simulateReadAt } from '../chain/simulate.js'
import { withLazyLatestLedger } from '../chain/latestLedger.js'
import { ChainReadError, describeError } from './errors.js'

/** The calls of `rpc.Server` the auditor uses. */
export type AuditRpc = Pick<rpc.Server, 'simulateTransaction' | 'getEvents' | 'getHealth' | 'getLatestLedger' | 'getNetwork'>

/**
 * Where to audit: a `Chain` from src/chain (its server must be a full `rpc.Server`), a server and
 * its passphrase, an `rpc.Server`, or an RPC URL (for the last two the passphrase is asked from
 * the node with getNetwork).
 */
export type AuditTarget = Chain | { server: AuditRpc; networkPassphrase: string } | AuditRpc | string

export interface AuditConnection {
  server: AuditRpc
  networkPassphrase: string
}

const REQUIRED: readonly (keyof AuditRpc)[] = ['simulateTransaction', 'getEvents', 'getHealth', 'getLatestLedger', 'getNetwork']

/** Resolves an `AuditTarget` to a server and a passphrase. @throws ChainReadError */
export async function connect(target: AuditTarget): Promise<AuditConnection> {
  if (typeof target === 'string') {
    const server = withLazyLatestLedger(new rpc.Server(target, { allowHttp: target.startsWith('http://') }))
    const network = await call('getNetwork', () => server.getNetwork())
    return { server, networkPassphrase: network.passphrase }
  }
  if (!('server' in target)) {
    const server = checked(target)
    const network = await call('getNetwork', () => server.getNetwork())
    return { server, networkPassphrase: network.passphrase }
  }
  return { server: checked(target.server), networkPassphrase: target.networkPassphrase }
}

function checked(candidate: unknown): AuditRpc {
  const server = candidate as Partial<AuditRpc>
  const missing = REQUIRED.filter((m) => typeof server[m] !== 'function')
  if (missing.length > 0)
    throw new ChainReadError('connect', `the RPC client lacks ${missing.join(', ')} (pass an rpc.Server or the RPC URL)`)
  return server as AuditRpc
}

/** Runs one RPC request, turning any failure into a `ChainReadError` naming `name`. */
export async function call<T>(name: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f()
  } catch (err) {
    if (err instanceof ChainReadError) throw err
    throw new ChainReadError(name, describeError(err), { cause: err })
  }
}

/** A simulated read: the decoded return value and the ledger the node read it at. */
export interface Read<T> {
  value: T
  ledger: number
}

/**
 * Simulates `contract.method(args)` and decodes the return value with `scValToNative`.
 * `label` names the call in errors (`vault.get_state`).
 *
 * @throws ContractError when the contract returned `Error(Contract, #code)` and `allowContractError`
 *   is set (the caller handles it); ChainReadError for every other failure.
 */
export async function simulate<T = unknown>(
  conn: AuditConnection,
  label: string,
  contract: string,
  method: string,
  args: readonly xdr.ScVal[] = [],
  options: { allowContractError?: boolean } = {},
): Promise<Read<T>> {
  try {
    const { retval, ledger } = await simulateReadAt(conn, contract, method, args)
    return { value: scValToNative(retval) as T, ledger }
  } catch (err) {
    if (err instanceof ContractError && options.allowContractError) throw err
    throw new ChainReadError(label, err instanceof ChainError ? err.message : describeError(err), { cause: err })
  }
}

/** `simulate`, or the contract error code when the contract refused (e.g. NotInit). */
export async function simulateOrCode<T = unknown>(
  conn: AuditConnection,
  label: string,
  contract: string,
  method: string,
  args: readonly xdr.ScVal[] = [],
): Promise<Read<T> | { code: number; ledger: undefined }> {
  try {
    return await simulate<T>(conn, label, contract, method, args, { allowContractError: true })
  } catch (err) {
    if (err instanceof ContractError) return { code: err.code, ledger: undefined }
    throw err
  }
}

/**
 * Like `Promise.all`, but waits for every promise and, when some failed, throws the failure of
 * the first one in argument order, so the error an audit reports does not depend on timing.
 */
export async function allInOrder<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises)
  const failed = settled.find((s) => s.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T
}

/**
 * `f` over `items` with at most `limit` calls in flight; results in input order. After a failure
 * nothing new starts; once the calls in flight finish, the failure of the lowest index is thrown
 * (so which error surfaces does not depend on timing among the calls that ran).
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, f: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const failures: { index: number; error: unknown }[] = []
  const worker = async (): Promise<void> => {
    while (next < items.length && failures.length === 0) {
      const i = next++
      try {
        out[i] = await f(items[i]!, i)
      } catch (error) {
        failures.push({ index: i, error })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  if (failures.length > 0) throw failures.reduce((a, b) => (b.index < a.index ? b : a)).error
  return out
}
