export { VaultContract, isMissingFunction, type DepositorInfo, type VaultConfig, type VaultState } from './vault.js'
export { RegistryContract, RegistryErrorCode, toKeeperInfo, type KeeperInfo, type RegistryConfig } from './registry.js'
export { tokenBalance } from './token.js'
