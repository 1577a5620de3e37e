import type { Keypair } from '@stellar/stellar-sdk'
import { ExecutorContract } from '../keeper/clients/executor.js'
import { seedBytes } from './seed.js'
import type { World } from './types.js'

export interface DeployExecutorOptions {
  /** Register the executor in the world's registry (default true; the keeper pays the stake). */
  register?: boolean
  /** Keeper name in the registry (default `executor-<first 8 characters of the keeper>`). */
  name?: string
  /**
   * Deployment salt label: one executor per keeper and label (default `'default'`). The contract
   * id follows from the world's registry, seed, the keeper and the label.
   */
  label?: string
}

/**
 * Has the world's registry deploy an executor owned by `keeper` (`deploy_executor`: the
 * registry's approved executor code, for the world's service vault, USDC and registry), and
 * registers it in the registry: the keeper's `min_stake` USDC goes through the executor to the
 * registry, and from then on the executor is the registered keeper (draws are the executor's, the
 * keeper's own registration is untouched). Registered from the registry's code, it is `approved`:
 * it may take the vault's flash draws.
 *
 * @example
 * import { deployExecutor } from './index.js'
 * const executor = await deployExecutor(world, world.keepers[0]!)
 * await executor.liquidate({ pool: world.blend.pool, draw, requests, swaps, minProceeds: draw, responseTimeMs: 0 }, world.keepers[0]!)
 */
export async function deployExecutor(world: World, keeper: Keypair, opts: DeployExecutorOptions = {}): Promise<ExecutorContract> {
  if (world.service === undefined) throw new Error('the world has no service vault and registry (deployWorld with service: false)')
  const executor = await ExecutorContract.deployFromRegistry(world.chain, {
    owner: keeper,
    registry: world.service.registry,
    vault: world.service.vault,
    salt: seedBytes(world.seed, `salt/executor/${keeper.publicKey()}/${opts.label ?? 'default'}`),
  })
  if (opts.register ?? true) {
    await executor.register(keeper, world.service.registry, opts.name ?? `executor-${keeper.publicKey().slice(0, 8)}`)
  }
  return executor
}
