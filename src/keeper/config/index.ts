export { ConfigError, REQUIRED_KEYS, TESTNET_DEFAULTS, parseConfig, type KeeperConfig } from './config.js'
export { loadEnvironment, parseDotEnv, resolveSecretFiles } from './dotenv.js'
export { applyDeploymentsFile } from './deployments.js'
export { DEFAULT_FEE_BUMP_LEDGERS, DEFAULT_MAX_FEE, MAX_FEE_BUMP_LEDGERS, feeStrategyText, parseFeeStrategy, type FeeSettings } from './fees.js'
