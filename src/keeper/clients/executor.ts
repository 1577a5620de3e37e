import { Operation, xdr, type Keypair } from '@stellar/stellar-sdk'
import {
  addr,
  deployContract,
  i128,
  invoke,
  read,
  str,
  struct,
  u64,
  uploadAndDeploy,
  type Chain,
  type DeployContractOptions,
  type InvokeResult,
  type Lane,
  type SubmitOptions,
  type SubmitResult,
} from '../../chain/index.js'
import { encodeRequests, type Request } from '../adapters/blend/requests.js'
import type { VaultClient } from '../sdk/index.js'
import { toBigInt, toStr } from './convert.js'

/** Executor error codes (contracts/executor, band 450-499). */
export const ExecutorErrorCode = {
  InvalidAmount: 450,
  /** The USDC gained does not cover the draw: the whole transaction reverted. */
  ProceedsBelowDraw: 451,
  /** The USDC gained is below `minProceeds`: the whole transaction reverted. */
  ProceedsBelowMinimum: 452,
  InvalidSwap: 453,
  Overflow: 454,
  BadRegistryConfig: 455,
} as const

/** One sale the executor makes: its whole balance of `path[0]` along `path`, for at least `minOut`. */
export interface ExecutorSwap {
  router: string
  path: readonly string[]
  minOut: bigint
}

/** The arguments of the executor's atomic `liquidate`. */
export interface ExecutorLiquidation {
  /** The Blend v2 pool (`submit_with_allowance`). */
  pool: string
  /** USDC drawn from the vault; the pool may pull up to this much. */
  draw: bigint
  /** Fill, repay and withdraw-collateral requests, sent to the pool as they are. */
  requests: readonly Request[]
  swaps: readonly ExecutorSwap[]
  /** The transaction reverts when the USDC gained is below this (and always below `draw`). */
  minProceeds: bigint
  responseTimeMs: number
}

export interface ExecutorLiquidationResult {
  hash: string
  ledger: number
  /** The profit the vault booked (`proceeds - draw`). */
  profit: bigint
  /** The submission: the fee bid and charged, the ledger sent at, a fee bump. */
  submitted: SubmitResult
}

/** Submission options of one call (its inclusion fee and fee-bump policy); the lane's signers stay. */
export type ExecutorCallOptions = Pick<SubmitOptions, 'inclusionFee' | 'feeBump'>

/**
 * Who sends a call: the owner itself (a keypair), or a submission lane (a channel account as the
 * source, the owner signing the Soroban authorization).
 */
export type ExecutorSender = Keypair | Lane

export interface DeployExecutorParameters {
  /** The keeper operator's account; every write needs its authorization. */
  owner: Keypair
  vault: string
  usdc: string
  /** The executor wasm (uploaded first), or the hash of code already uploaded. */
  wasm: Uint8Array | { hash: string }
  /** Deploy options (salt). */
  options?: DeployContractOptions
}

/** Swap { router, path, min_out } as the contract's struct (a map with sorted keys). */
export function encodeSwap(s: ExecutorSwap): xdr.ScVal {
  return struct({ min_out: i128(s.minOut), path: xdr.ScVal.scvVec(s.path.map(addr)), router: addr(s.router) })
}

export function encodeSwaps(swaps: readonly ExecutorSwap[]): xdr.ScVal {
  return xdr.ScVal.scvVec(swaps.map(encodeSwap))
}

function isLane(s: ExecutorSender): s is Lane {
  return 'source' in s && 'options' in s
}

const ms = (v: number) => u64(Math.max(0, Math.round(v)))

/**
 * Client of a keeper's executor contract (contracts/executor): the contract that is itself the
 * registered keeper, so that draw, fill, swap and return run in one transaction (`liquidate`),
 * and that proxies the two-step draw / return for adapters working across ledgers.
 *
 * @example
 * import { ExecutorContract } from './executor.js'
 * const executor = await ExecutorContract.deploy(chain, { owner, vault, usdc, wasm })
 * await executor.register(owner, registry, 'keeper-1')
 * const { profit } = await executor.liquidate({ pool, draw, requests, swaps, minProceeds: draw, responseTimeMs: 0 }, owner)
 */
export class ExecutorContract {
  constructor(
    readonly chain: Chain,
    readonly contractId: string,
  ) {}

  /** Uploads (unless given a hash) and deploys an executor with `__constructor(owner, vault, usdc)`. */
  static async deploy(chain: Chain, p: DeployExecutorParameters): Promise<ExecutorContract> {
    const args = [addr(p.owner.publicKey()), addr(p.vault), addr(p.usdc)]
    const id =
      p.wasm instanceof Uint8Array
        ? await uploadAndDeploy(chain, p.owner, p.wasm, args, p.options)
        : await deployContract(chain, p.owner, p.wasm.hash, args, p.options)
    return new ExecutorContract(chain, id)
  }

  async owner(): Promise<string> {
    return toStr(await read(this.chain, this.contractId, 'owner'))
  }

  async vault(): Promise<string> {
    return toStr(await read(this.chain, this.contractId, 'vault'))
  }

  async usdc(): Promise<string> {
    return toStr(await read(this.chain, this.contractId, 'usdc'))
  }

  /** The `liquidate` call as an operation (to simulate it, or to send it with other tooling). */
  liquidateOperation(l: ExecutorLiquidation): xdr.Operation {
    return Operation.invokeContractFunction({ contract: this.contractId, function: 'liquidate', args: liquidateArgs(l) })
  }

  /**
   * The atomic path: draw, fill, swap and return in one transaction. Resolves with the profit
   * the vault booked; a lost race or a sale below the draw / `minProceeds` rejects (a
   * ContractError) and leaves nothing drawn. `options`: the fill's inclusion fee and fee bump.
   */
  async liquidate(l: ExecutorLiquidation, sender: ExecutorSender, options: ExecutorCallOptions = {}): Promise<ExecutorLiquidationResult> {
    const res = await this.call<bigint>(sender, 'liquidate', liquidateArgs(l), options)
    return { hash: res.hash, ledger: res.ledger, profit: toBigInt(res.value), submitted: res }
  }

  /**
   * Registers the executor as a keeper: the owner's `min_stake` USDC goes through the executor
   * to the registry. Returns the transaction hash.
   */
  async register(sender: ExecutorSender, registry: string, name: string): Promise<string> {
    return (await this.call(sender, 'register', [addr(registry), str(name)])).hash
  }

  /** Deregisters; the stake comes back to the executor (see `sweep`). */
  async deregister(sender: ExecutorSender, registry: string): Promise<void> {
    await this.call(sender, 'deregister', [addr(registry)])
  }

  /** Two-step draw: the vault lends to the executor, which forwards the USDC to the owner. */
  async draw(sender: ExecutorSender, amount: bigint): Promise<void> {
    await this.call(sender, 'draw', [i128(amount)])
  }

  /** Two-step return: `amount` USDC from the owner to the vault. Returns the profit booked. */
  async returnProceeds(sender: ExecutorSender, amount: bigint, responseTimeMs: number): Promise<bigint> {
    return toBigInt((await this.call<bigint>(sender, 'return_proceeds', [i128(amount), ms(responseTimeMs)])).value)
  }

  /** Moves `amount` of `token` the executor holds (a refunded stake, dust) to `to`. */
  async sweep(sender: ExecutorSender, token: string, to: string, amount: bigint): Promise<void> {
    await this.call(sender, 'sweep', [addr(token), addr(to), i128(amount)])
  }

  /**
   * The adapter-facing vault view for a keeper whose registered address is this executor: the
   * draw lands with the owner, the return is taken from the owner.
   */
  vaultClient(sender: ExecutorSender): VaultClient {
    return {
      draw: (amount) => this.draw(sender, amount),
      returnProceeds: (amount, responseTimeMs) => this.returnProceeds(sender, amount, responseTimeMs),
    }
  }

  private call<T = unknown>(sender: ExecutorSender, method: string, args: xdr.ScVal[], options: ExecutorCallOptions = {}): Promise<InvokeResult<T>> {
    return isLane(sender)
      ? invoke<T>(this.chain, sender.source, this.contractId, method, args, { ...sender.options, ...options })
      : invoke<T>(this.chain, sender, this.contractId, method, args, options)
  }
}

function liquidateArgs(l: ExecutorLiquidation): xdr.ScVal[] {
  return [addr(l.pool), i128(l.draw), encodeRequests(l.requests), encodeSwaps(l.swaps), i128(l.minProceeds), ms(l.responseTimeMs)]
}
