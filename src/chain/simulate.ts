/**
 * Read-only contract calls by simulation: nothing is signed or sent. Browser-safe (only
 * `@stellar/stellar-sdk` and ./errors.js), so the auditor and the dashboard use it as the keeper does.
 */
import { Account, Operation, TransactionBuilder, rpc, scValToNative, type xdr } from '@stellar/stellar-sdk'
import { ChainError, simulationFailure } from './errors.js'

/** The all-zero account used as the source of read-only simulations (it need not exist). */
export const NULL_ACCOUNT = 'GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF'

/** What a simulation needs: a node that simulates and its network passphrase (a `Chain` is one). */
export interface SimulationTarget {
  server: Pick<rpc.Server, 'simulateTransaction'>
  networkPassphrase: string
}

export interface SimulateReadOptions {
  /** Account the simulation runs as (default NULL_ACCOUNT). */
  source?: string
}

/**
 * Simulates `contractId.method(args)`: the raw return value and the ledger the node read it at.
 *
 * @throws ContractError when the call returns `Error(Contract, #code)`; another ChainError when
 *   the simulation fails or returns nothing; the RPC client's error when the request fails.
 */
export async function simulateReadAt(
  target: SimulationTarget,
  contractId: string,
  method: string,
  args: readonly xdr.ScVal[] = [],
  options: SimulateReadOptions = {},
): Promise<{ retval: xdr.ScVal; ledger: number }> {
  const source = new Account(options.source ?? NULL_ACCOUNT, '0')
  const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: target.networkPassphrase })
    .addOperation(Operation.invokeContractFunction({ contract: contractId, function: method, args: [...args] }))
    .setTimeout(0)
    .build()
  const sim = await target.server.simulateTransaction(tx)
  if (rpc.Api.isSimulationError(sim)) throw simulationFailure(sim.error, sim.events)
  const retval = sim.result?.retval
  if (retval === undefined) throw new ChainError('simulation returned no value', { details: `${contractId}.${method}` })
  return { retval, ledger: sim.latestLedger }
}

/**
 * Reads a contract function by simulation only and returns the raw return value.
 *
 * @throws ContractError when the call returns `Error(Contract, #code)`
 */
export async function simulateRead(
  target: SimulationTarget,
  contractId: string,
  method: string,
  args: readonly xdr.ScVal[] = [],
  options: SimulateReadOptions = {},
): Promise<xdr.ScVal> {
  return (await simulateReadAt(target, contractId, method, args, options)).retval
}

/** `simulateRead` decoded with `scValToNative`. */
export async function read<T = unknown>(
  target: SimulationTarget,
  contractId: string,
  method: string,
  args: readonly xdr.ScVal[] = [],
  options: SimulateReadOptions = {},
): Promise<T> {
  return scValToNative(await simulateRead(target, contractId, method, args, options)) as T
}
