import { Operation, xdr, type Keypair } from '@stellar/stellar-sdk'
import {
  addr,
  i128,
  invoke,
  read,
  str,
  struct,
  u64,
  type Chain,
  type InvokeResult,
  type Lane,
  type SubmitOptions,
  type SubmitResult,
} from '../../chain/index.js'
import { encodeRequests, type Request } from '../adapters/blend/requests.js'
import type { VaultClient } from '../sdk/index.js'
import { toBigInt, toStr } from './convert.js'
import { keeperFeeOf, type SettledReturn } from './vaultEvents.js'

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
  /** The pool or a swap's router is not among the registry's venues (`get_venues`). */
  VenueNotAllowed: 456,
  /** The fill left the executor holding more of a pool reserve token than before: every token it paid must be sold. */
  CollateralKept: 457,
} as const

/**
 * Where a sale goes: a Soroswap-style router (any path of two or more tokens; a longer path
 * routes through intermediate assets inside the router) or a Comet weighted pool (the path is
 * exactly `[tokenIn, tokenOut]`). Either must be among the registry's venues.
 */
export type SwapVenue = { kind: 'router'; router: string } | { kind: 'comet'; pool: string }

/** One sale: `amountIn` of `path[0]` (0n: the executor's whole balance of it) along `path`, for at least `minOut`. */
export interface ExecutorSwap {
  venue: SwapVenue
  path: readonly string[]
  amountIn: bigint
  minOut: bigint
}

/**
 * One atomic liquidation: the vault's flash draw of `draw` USDC to the executor, which fills on
 * `pool`, sells through `swaps` and hands all the USDC back.
 */
export interface ExecutorLiquidation {
  /** The Blend v2 pool (`submit_with_allowance`); must be one of the registry's venues. */
  pool: string
  /** USDC the vault lends for the fill; the pool may pull up to this much. */
  draw: bigint
  /** Fill, repay and withdraw-collateral requests, sent to the pool as they are. */
  requests: readonly Request[]
  /**
   * The sales, in order; each venue must be one of the registry's venues and each path must end
   * in USDC. A lot split between venues is several sales of the same token, the last with
   * `amountIn` 0n (what is left); the lot must be sold entirely (CollateralKept otherwise).
   */
  swaps: readonly ExecutorSwap[]
  /** The transaction reverts when the USDC gained is below this (and always below `draw`). */
  minProceeds: bigint
  responseTimeMs: number
}

export interface ExecutorLiquidationResult {
  hash: string
  ledger: number
  /** The profit the vault booked for its depositors (the gross profit less `fee`). */
  profit: bigint
  /**
   * The keeper's reward: the fee the vault paid the executor out of the gross profit
   * (`keeper_fee_bps`), from the vault's `flash` event; 0 when the event was not in the answer.
   */
  fee: bigint
  /** The submission: the fee bid and charged, the ledger sent at, a fee bump. */
  submitted: SubmitResult
}

/** Submission options of one call (its inclusion fee and fee-bump policy); the lane's signers stay. */
export type ExecutorCallOptions = Pick<SubmitOptions, 'inclusionFee' | 'feeBump' | 'lastLedger'>

/**
 * Who sends a call: the owner itself (a keypair), or a submission lane (a channel account as the
 * source, the owner signing the Soroban authorization).
 */
export type ExecutorSender = Keypair | Lane

export interface DeployExecutorParameters {
  /** The keeper operator's account: it owns the executor, and `deploy_executor` needs its authorization. */
  owner: Keypair
  /** The registry that deploys the executor from its approved executor code. */
  registry: string
  /** 32-byte salt: the executor's address follows from the registry and it (random by default). */
  salt?: Uint8Array
  /** The registry's vault, when the caller knows it (else read from the executor on first use). */
  vault?: string
  /** Who sends the deploy (default the owner). */
  sender?: ExecutorSender
}

/** SwapVenue as the contract's enum: `[Symbol("Router" | "Comet"), address]`. */
export function encodeSwapVenue(v: SwapVenue): xdr.ScVal {
  return v.kind === 'router'
    ? xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Router'), addr(v.router)])
    : xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Comet'), addr(v.pool)])
}

/** Swap { venue, path, amount_in, min_out } as the contract's struct (a map with sorted keys: amount_in, min_out, path, venue). */
export function encodeSwap(s: ExecutorSwap): xdr.ScVal {
  return struct({
    amount_in: i128(s.amountIn),
    min_out: i128(s.minOut),
    path: xdr.ScVal.scvVec(s.path.map(addr)),
    venue: encodeSwapVenue(s.venue),
  })
}

export function encodeSwaps(swaps: readonly ExecutorSwap[]): xdr.ScVal {
  return xdr.ScVal.scvVec(swaps.map(encodeSwap))
}

/**
 * FlashCall { pool, requests, swaps, min_proceeds } as the contract's struct: a map whose symbol
 * keys are sorted (min_proceeds, pool, requests, swaps). The vault passes it to `on_flash` as it is.
 */
export function encodeFlashCall(l: Pick<ExecutorLiquidation, 'pool' | 'requests' | 'swaps' | 'minProceeds'>): xdr.ScVal {
  return struct({ min_proceeds: i128(l.minProceeds), pool: addr(l.pool), requests: encodeRequests(l.requests), swaps: encodeSwaps(l.swaps) })
}

/** The arguments of `vault.flash_draw(keeper, amount, call, response_time_ms)` for `executor`. */
export function flashDrawArgs(executor: string, l: ExecutorLiquidation): xdr.ScVal[] {
  return [addr(executor), i128(l.draw), encodeFlashCall(l), ms(l.responseTimeMs)]
}

function isLane(s: ExecutorSender): s is Lane {
  return 'source' in s && 'options' in s
}

const ms = (v: number) => u64(Math.max(0, Math.round(v)))

const randomSalt = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32))

/**
 * Client of a keeper's executor contract (contracts/executor): the contract that is itself the
 * registered keeper. The atomic path is the vault's flash draw: the owner sends
 * `vault.flash_draw(executor, amount, call)`, the vault lends and calls the executor's
 * `on_flash` back, which fills, sells and hands all the USDC to the vault in the same
 * transaction. The executor also proxies the two-step draw / return for adapters working across
 * ledgers. Executors are deployed by the registry (`deploy_executor`) from the code it
 * approves: only those may flash-draw.
 *
 * @example
 * import { ExecutorContract } from './executor.js'
 * const executor = await ExecutorContract.deployFromRegistry(chain, { owner, registry })
 * await executor.register(owner, registry, 'keeper-1')
 * const { profit, fee } = await executor.liquidate({ pool, draw, requests, swaps, minProceeds: draw, responseTimeMs: 0 }, owner)
 */
export class ExecutorContract {
  private vaultId: string | undefined
  private vaultRead: Promise<string> | undefined

  /**
   * @param vault the vault the executor was deployed for, when known; else `vault()` is read
   *   once, on the first call that needs it.
   */
  constructor(
    readonly chain: Chain,
    readonly contractId: string,
    vault?: string,
  ) {
    this.vaultId = vault
  }

  /**
   * Has `registry` deploy an executor owned by `owner` (`deploy_executor(owner, salt)`: the
   * registry's approved executor code, constructor `(owner, vault, usdc, registry)`) and
   * returns its client. Errors: the registry's VaultNotSet; the owner's authorization.
   */
  static async deployFromRegistry(chain: Chain, p: DeployExecutorParameters): Promise<ExecutorContract> {
    const args = [addr(p.owner.publicKey()), xdr.ScVal.scvBytes(Buffer.from(p.salt ?? randomSalt()))]
    const sender = p.sender ?? p.owner
    const res = isLane(sender)
      ? await invoke<string>(chain, sender.source, p.registry, 'deploy_executor', args, sender.options)
      : await invoke<string>(chain, sender, p.registry, 'deploy_executor', args)
    return new ExecutorContract(chain, toStr(res.value), p.vault)
  }

  async owner(): Promise<string> {
    return toStr(await read(this.chain, this.contractId, 'owner'))
  }

  /** The vault the executor takes flash draws from (read once, then remembered). */
  async vault(): Promise<string> {
    if (this.vaultId !== undefined) return this.vaultId
    this.vaultRead ??= read(this.chain, this.contractId, 'vault').then(
      (v) => (this.vaultId = toStr(v)),
      (err: unknown) => {
        this.vaultRead = undefined
        throw err
      },
    )
    return this.vaultRead
  }

  async usdc(): Promise<string> {
    return toStr(await read(this.chain, this.contractId, 'usdc'))
  }

  /** The registry that deployed the executor. */
  async registry(): Promise<string> {
    return toStr(await read(this.chain, this.contractId, 'registry'))
  }

  /**
   * The atomic call as an operation: `vault.flash_draw(executor, draw, FlashCall, response_time_ms)`
   * (to simulate it, or to send it with other tooling). Needs the vault: given to the
   * constructor, or read once by `vault()` before.
   */
  liquidateOperation(l: ExecutorLiquidation): xdr.Operation {
    if (this.vaultId === undefined) throw new Error(`executor ${this.contractId}: vault unknown; give it to the constructor or await vault() first`)
    return Operation.invokeContractFunction({ contract: this.vaultId, function: 'flash_draw', args: flashDrawArgs(this.contractId, l) })
  }

  /**
   * The atomic path: the vault's flash draw to this executor, the fill, the sales and the
   * repayment in one transaction (the owner's authorization is for the executor's `on_flash`,
   * below the root call). Resolves with the profit the vault booked and the keeper fee it paid
   * the executor; a lost race, a venue the registry does not list, or a sale below the draw /
   * `minProceeds` rejects (a ContractError) and leaves nothing drawn. `options`: the fill's
   * inclusion fee and fee bump.
   */
  async liquidate(l: ExecutorLiquidation, sender: ExecutorSender, options: ExecutorCallOptions = {}): Promise<ExecutorLiquidationResult> {
    const vault = await this.vault()
    const res = await this.send<bigint>(sender, vault, 'flash_draw', flashDrawArgs(this.contractId, l), { ...options, nonRootAuth: true })
    return { hash: res.hash, ledger: res.ledger, profit: toBigInt(res.value), fee: keeperFeeOf(res.events, vault, 'flash', this.contractId), submitted: res }
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

  /** Adds `amount` of the owner's USDC to the executor's bond (raises its two-step draw limit). */
  async addBond(sender: ExecutorSender, registry: string, amount: bigint): Promise<void> {
    await this.call(sender, 'add_bond', [addr(registry), i128(amount)])
  }

  /** Takes `amount` out of the bond, to the owner (the registry keeps at least min_stake). */
  async withdrawBond(sender: ExecutorSender, registry: string, amount: bigint): Promise<void> {
    await this.call(sender, 'withdraw_bond', [addr(registry), i128(amount)])
  }

  /** Two-step draw: the vault lends to the executor, which forwards the USDC to the owner. */
  async draw(sender: ExecutorSender, amount: bigint): Promise<void> {
    await this.call(sender, 'draw', [i128(amount)])
  }

  /** Two-step return: `amount` USDC from the owner to the vault. Returns the profit booked. */
  async returnProceeds(sender: ExecutorSender, amount: bigint, responseTimeMs: number): Promise<bigint> {
    return (await this.returnProceedsWithFee(sender, amount, responseTimeMs)).profit
  }

  /**
   * Two-step return, with the keeper fee the vault paid the executor (the `return` event's
   * `fee`: a closing return with gross profit pays one).
   */
  async returnProceedsWithFee(sender: ExecutorSender, amount: bigint, responseTimeMs: number): Promise<SettledReturn> {
    const res = await this.call<bigint>(sender, 'return_proceeds', [i128(amount), ms(responseTimeMs)])
    const vault = this.vaultId ?? (await this.vault().catch(() => undefined))
    return { profit: toBigInt(res.value), fee: vault === undefined ? 0n : keeperFeeOf(res.events, vault, 'return', this.contractId) }
  }

  /** Moves `amount` of `token` the executor holds (keeper fees, a refunded stake, dust) to `to`. */
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
      returnProceedsWithFee: (amount, responseTimeMs) => this.returnProceedsWithFee(sender, amount, responseTimeMs),
    }
  }

  private call<T = unknown>(sender: ExecutorSender, method: string, args: xdr.ScVal[], options: SubmitOptions = {}): Promise<InvokeResult<T>> {
    return this.send<T>(sender, this.contractId, method, args, options)
  }

  private send<T>(sender: ExecutorSender, contract: string, method: string, args: xdr.ScVal[], options: SubmitOptions): Promise<InvokeResult<T>> {
    return isLane(sender)
      ? invoke<T>(this.chain, sender.source, contract, method, args, { ...sender.options, ...options })
      : invoke<T>(this.chain, sender, contract, method, args, options)
  }
}
