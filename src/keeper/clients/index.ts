export { VaultContract, VaultErrorCode, isMissingFunction, type DepositorInfo, type VaultConfig, type VaultState } from './vault.js'
export { RegistryContract, RegistryErrorCode, toKeeperInfo, type KeeperInfo, type RegistryConfig } from './registry.js'
export { tokenBalance } from './token.js'
export {
  ExecutorContract,
  ExecutorErrorCode,
  encodeFlashCall,
  encodeSwap,
  encodeSwapVenue,
  encodeSwaps,
  flashDrawArgs,
  type DeployExecutorParameters,
  type ExecutorCallOptions,
  type ExecutorLiquidation,
  type ExecutorLiquidationResult,
  type ExecutorSender,
  type ExecutorSwap,
  type SwapVenue,
} from './executor.js'
export { keeperFeeOf, vaultEventData, type SettledReturn } from './vaultEvents.js'
