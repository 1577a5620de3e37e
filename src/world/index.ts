export { deployWorld, poolSubmit, readPositions, DEFAULT_COLLATERALS } from './deployWorld.js'
export type {
  AssetEntry,
  BlendPositions,
  Borrower,
  CollateralSpec,
  CometPoolInfo,
  DeployWorldOptions,
  DexPairInfo,
  World,
  WorldAddresses,
  WorldNetwork,
  WorldSource,
} from './types.js'
export type { WorldAsset } from './assets.js'
export { POOL_STATUS, REQUEST, defaultReserveConfig, type BlendProtocol, type ReserveConfig } from './blend.js'
export { NO_DEADLINE, quoteOut } from './dex.js'
export { contractAddress, keypairFor, seedBytes } from './seed.js'
export { blendRequest, sep40Asset } from './scval.js'
export { deployExecutor, type DeployExecutorOptions } from './executor.js'
export { MAX_POOLS, poolIndexOf } from './pools.js'
