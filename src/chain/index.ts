export { createChain, DEFAULT_RETRY, type Chain, type CreateChainParameters, type RetryPolicy, type RpcLike } from './connection.js'
export { submit, type SubmitOptions, type SubmitResult } from './submit.js'
export { SubmissionLanes, channelKeypairs, ensureChannels, type Lane } from './lanes.js'
export {
  NULL_ACCOUNT,
  deployAssetContract,
  deployContract,
  fundAccount,
  invoke,
  read,
  simulateRead,
  uploadAndDeploy,
  uploadWasm,
  type DeployContractOptions,
  type InvokeResult,
  type SimulateReadOptions,
} from './contracts.js'
export {
  ChainError,
  ContractError,
  RetriesExhaustedError,
  SimulationError,
  TransactionFailedError,
  TransactionRejectedError,
  contractErrorCode,
  contractErrorCodeInEvents,
  hostErrorsInEvents,
  simulationFailure,
} from './errors.js'
export { addr, bool, i128, str, struct, sym, u32, u64 } from './scval.js'
