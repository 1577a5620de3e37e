// The vault's and the registry's records and error codes, browser-safe.
export { asRecord, pick, toBigInt, toBool, toHex, toNumber, toStr } from './convert.js'
export { toDepositorInfo, toVaultConfig, toVaultState, type DepositorInfo, type VaultConfig, type VaultState } from './vault.js'
export { toKeeperInfo, toRegistryConfig, type KeeperInfo, type RegistryConfig } from './registry.js'
export { KEEPER_PAGE_LIMIT, PAGE_OUT_OF_RANGE, isPageOutOfRange, readKeeperPages, type ReadKeeperPagesOptions } from './keeperPages.js'
export { REGISTRY_ERRORS, SAC_ERRORS, VAULT_ERRORS, contractErrorMessage } from './errorMessages.js'
