export { VaultContract, isMissingFunction, type DepositorInfo, type VaultConfig, type VaultState } from './vault.js'
export { RegistryContract, RegistryErrorCode, toKeeperInfo, type KeeperInfo, type RegistryConfig } from './registry.js'
export { tokenBalance } from './token.js'
export {
  ExecutorContract,
  ExecutorErrorCode,
  encodeSwap,
  encodeSwaps,
  type DeployExecutorParameters,
  type ExecutorLiquidation,
  type ExecutorLiquidationResult,
  type ExecutorSender,
  type ExecutorSwap,
} from './executor.js'
