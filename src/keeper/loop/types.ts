import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../chain/index.js'
import type { ExecutionEngine } from '../engine/index.js'
import type { DepositorInfo, KeeperInfo, VaultState } from '../clients/index.js'
import type { KeeperMetrics } from '../metrics.js'
import type { AdapterLogger, ProtocolAdapter, VaultClient } from '../sdk/index.js'
import type { DashboardState } from '../state/dashboard.js'
import type { EventLog } from '../state/events.js'
import type { DrawWatch } from './drawWatch.js'

/** The vault calls the cycle makes (VaultContract implements it; unit tests fake it). */
export interface CycleVault {
  getState(): Promise<VaultState>
  getKeeperDraw(keeper: string): Promise<bigint>
  balance(depositor: string): Promise<bigint>
  getDepositor(depositor: string): Promise<DepositorInfo>
  returnProceeds(keeper: Keypair, amount: bigint, responseTimeMs: number): Promise<bigint>
  /** The same return, with the keeper fee it paid (the vault's `return` event); optional. */
  returnProceedsWithFee?(keeper: Keypair, amount: bigint, responseTimeMs: number): Promise<{ profit: bigint; fee: bigint }>
  bind(keeper: Keypair): VaultClient
}

/** The registry calls the cycle makes. */
export interface CycleRegistry {
  getKeepers(): Promise<KeeperInfo[]>
  getKeeper(operator: string): Promise<KeeperInfo>
}

export interface CycleDeps {
  chain: Chain
  /** Plans and fires the tasks each scan finds. */
  engine: ExecutionEngine
  /** The address the vault knows this keeper by (the operator, or its executor contract). */
  keeperAddress?: string
  keypair: Keypair
  vault: CycleVault
  registry: CycleRegistry
  /** USDC balance of an address; undefined when USDC_CONTRACT is not configured. */
  usdcBalance: ((holder: string) => Promise<bigint>) | undefined
  /**
   * XLM balance of an account in stroops (undefined: the account does not exist); absent: the
   * operator's balance is not read.
   */
  xlmBalance?: (account: string) => Promise<bigint | undefined>
  adapters: readonly ProtocolAdapter<any>[]
  knownDepositors: readonly string[]
  state: DashboardState
  events: EventLog
  metrics: KeeperMetrics
  logger: AdapterLogger
  /** Keeps the outstanding draw on the API and the metrics current; absent: recovery's read only. */
  draws?: DrawWatch
  /**
   * Registration retried at the start of each cycle while it has failed; resolves with why it is
   * still failing, or undefined when registered.
   */
  registration?: { retryIfFailed(): Promise<string | undefined> }
}

export interface CycleReport {
  recovered: bigint
  tasksFound: number
  errors: number
  /** What failed, one `stage: message` per error, in order. */
  errorMessages: string[]
  /** True when a stop request made the cycle skip the remaining adapters. */
  abandoned: boolean
  durationMs: number
}
