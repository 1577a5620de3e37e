/**
 * Public entry of @pooled-liquidations/keeper-sdk. Everything here is re-exported from the
 * repository's src/ (the one copy of the code); build.ts bundles it into dist/index.js.
 */

// The adapter interface: types, staged execution, priority and profit helpers.
export * from '../../../src/keeper/sdk/index.js'

// Chain access: a network client, reads, writes, ScVal builders and typed errors.
export {
  createChain,
  DEFAULT_RETRY,
  type Chain,
  type CreateChainParameters,
  type RetryPolicy,
  type RpcLike,
} from '../../../src/chain/index.js'
export { submit, type SubmitOptions, type SubmitResult } from '../../../src/chain/index.js'
export { invoke, type InvokeResult } from '../../../src/chain/index.js'
export { NULL_ACCOUNT, read, simulateRead, type SimulateReadOptions, type SimulationTarget } from '../../../src/chain/index.js'
export { SubmissionLanes, type Lane } from '../../../src/chain/index.js'
export { addr, bool, i128, str, struct, sym, u32, u64 } from '../../../src/chain/index.js'
export {
  ChainError,
  ContractError,
  RetriesExhaustedError,
  SimulationError,
  TransactionFailedError,
  TransactionRejectedError,
  contractErrorCode,
  contractErrorMessage,
} from '../../../src/chain/index.js'

// The vault and registry clients.
export {
  RegistryContract,
  RegistryErrorCode,
  VaultContract,
  VaultErrorCode,
  isMissingFunction,
  tokenBalance,
  type DepositorInfo,
  type KeeperInfo,
  type RegistryConfig,
  type VaultConfig,
  type VaultState,
} from '../../../src/keeper/clients/index.js'

// The DEX client: swap seized collateral to USDC over one or more router venues.
export * from '../../../src/keeper/dex/index.js'
export { CodedError } from '../../../src/keeper/errors.js'

// Formulas an adapter prices with (7-decimal fixed point).
export { mulDiv, profitOf, slippageFloor, SCALAR_7 } from '../../../src/core/index.js'

// One cycle of an adapter against a network, without the daemon.
export { runCycle, type CycleReport, type RunCycleContext, type TaskOutcome, type TaskStatus } from './runCycle.js'
