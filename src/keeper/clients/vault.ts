import type { Keypair } from '@stellar/stellar-sdk'
import { SimulationError, addr, i128, invoke, read, u64, type Chain } from '../../chain/index.js'
import type { VaultClient } from '../sdk/index.js'
import { toDepositorInfo, toVaultConfig, toVaultState, type DepositorInfo, type VaultConfig, type VaultState } from '../../chain/records/vault.js'
import { toBigInt } from './convert.js'
import { keeperFeeOf, type SettledReturn } from './vaultEvents.js'

export type { DepositorInfo, VaultConfig, VaultState } from '../../chain/records/vault.js'

/** Vault error codes (contracts/vault, band 100-199) the keeper reacts to or names. */
export const VaultErrorCode = {
  InvalidConfig: 100,
  NotInit: 101,
  InvalidAmount: 103,
  InsufficientLiquidity: 110,
  DrawsPaused: 112,
  DrawCapExceeded: 113,
  DrawOutstanding: 114,
  NoActiveDraw: 115,
  KeeperSlashed: 116,
  /** Constructor: withdraw_cooldown above 30 days. */
  InvalidCooldown: 119,
  /** Constructor: keeper_fee_bps above 5000. */
  InvalidKeeperFee: 120,
  /** Constructor: profit_unlock_secs 0 or above 30 days. */
  InvalidUnlockPeriod: 121,
  /** flash_draw by a keeper that is not an executor the registry deployed from its approved code. */
  NotApprovedExecutor: 122,
  /** The flash draw's receiver gave back less than the principal: the whole transaction reverted. */
  FlashNotRepaid: 123,
  /** A two-step draw would take idle USDC that requested withdrawals need. */
  WithdrawalPending: 124,
} as const

/** Whether the contract lacks a function (old vault without get_keeper_draw, ...). */
export function isMissingFunction(err: unknown): boolean {
  return (
    err instanceof SimulationError &&
    /non-?existent contract function|function not found|MissingValue|no such function/i.test(err.message)
  )
}

/**
 * Client of the vault contract (contracts/vault): reads by simulation, writes through the
 * submission pipeline signed by the caller's key.
 */
export class VaultContract {
  constructor(
    readonly chain: Chain,
    readonly contractId: string,
  ) {}

  async getState(): Promise<VaultState> {
    return toVaultState(await read(this.chain, this.contractId, 'get_state'))
  }

  async getConfig(): Promise<VaultConfig> {
    return toVaultConfig(await read(this.chain, this.contractId, 'get_config'))
  }

  /** Share price with 7 decimals on the free assets (the contract's `share_price`). */
  async sharePrice(): Promise<bigint> {
    return toBigInt(await read(this.chain, this.contractId, 'share_price'))
  }

  /** Booked profit not yet released to the share price (`get_locked_profit`). */
  async lockedProfit(): Promise<bigint> {
    return toBigInt(await read(this.chain, this.contractId, 'get_locked_profit'))
  }

  /** Outstanding draw of `keeper` (0 when none). */
  async getKeeperDraw(keeper: string): Promise<bigint> {
    return toBigInt(await read(this.chain, this.contractId, 'get_keeper_draw', [addr(keeper)]))
  }

  /** USDC value of a depositor's shares (floor). */
  async balance(depositor: string): Promise<bigint> {
    return toBigInt(await read(this.chain, this.contractId, 'balance', [addr(depositor)]))
  }

  async getDepositor(depositor: string): Promise<DepositorInfo> {
    return toDepositorInfo(await read(this.chain, this.contractId, 'get_depositor', [addr(depositor)]))
  }

  async draw(keeper: Keypair, amount: bigint): Promise<void> {
    await invoke(this.chain, keeper, this.contractId, 'draw', [addr(keeper.publicKey()), i128(amount)])
  }

  /** Returns the profit the vault booked. */
  async returnProceeds(keeper: Keypair, amount: bigint, responseTimeMs: number): Promise<bigint> {
    return (await this.returnProceedsWithFee(keeper, amount, responseTimeMs)).profit
  }

  /**
   * `return_proceeds`, with the keeper fee the vault paid (the `return` event's `fee`: a
   * closing return with gross profit pays `keeper_fee_bps` of it to the keeper).
   */
  async returnProceedsWithFee(keeper: Keypair, amount: bigint, responseTimeMs: number): Promise<SettledReturn> {
    const res = await invoke<bigint>(this.chain, keeper, this.contractId, 'return_proceeds', [
      addr(keeper.publicKey()),
      i128(amount),
      u64(Math.max(0, Math.round(responseTimeMs))),
    ])
    return { profit: toBigInt(res.value), fee: keeperFeeOf(res.events, this.contractId, 'return', keeper.publicKey()) }
  }

  async deposit(depositor: Keypair, amount: bigint): Promise<bigint> {
    const res = await invoke(this.chain, depositor, this.contractId, 'deposit', [addr(depositor.publicKey()), i128(amount)])
    return toBigInt(res.value)
  }

  /** The adapter-facing view, bound to one keeper key. */
  bind(keeper: Keypair): VaultClient {
    return {
      draw: (amount) => this.draw(keeper, amount),
      returnProceeds: (amount, ms) => this.returnProceeds(keeper, amount, ms),
      returnProceedsWithFee: (amount, ms) => this.returnProceedsWithFee(keeper, amount, ms),
    }
  }
}

