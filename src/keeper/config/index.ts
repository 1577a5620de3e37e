export { ConfigError, REQUIRED_KEYS, TESTNET_DEFAULTS, parseConfig, type KeeperConfig } from './config.js'
export { loadEnvironment, parseDotEnv, resolveSecretFiles } from './dotenv.js'
export { applyDeploymentsFile } from './deployments.js'
