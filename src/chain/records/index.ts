// The vault's and the registry's records and error codes, browser-safe.
export { asRecord, pick, toBigInt, toBool, toNumber, toStr } from './convert.js'
export { toDepositorInfo, toVaultConfig, toVaultState, type DepositorInfo, type VaultConfig, type VaultState } from './vault.js'
export { toKeeperInfo, toRegistryConfig, type KeeperInfo, type RegistryConfig } from './registry.js'
export { REGISTRY_ERRORS, SAC_ERRORS, VAULT_ERRORS, contractErrorMessage } from './errorMessages.js'
