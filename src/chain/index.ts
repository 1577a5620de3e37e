export { createChain, DEFAULT_RETRY, maxTimeOf, WALL_CLOCK, type Chain, type ChainClock, type CreateChainParameters, type RetryPolicy, type RpcLike } from './connection.js'
export { submit, type SubmitOptions, type SubmitResult } from './submit.js'
export {
  declaredResourceFee,
  inclusionFeeOf,
  signedFeeBump,
  type ChainFees,
  type FeeBumpOutcome,
  type FeeBumpPolicy,
  type FeeBumpRecord,
  type QueuedTransaction,
} from './fees.js'
export { SubmissionLanes, channelKeypairs, ensureChannels, type Lane } from './lanes.js'
export {
  deployAssetContract,
  deployContract,
  fundAccount,
  invoke,
  uploadAndDeploy,
  uploadWasm,
  type DeployContractOptions,
  type InvokeResult,
} from './contracts.js'
export { NULL_ACCOUNT, read, simulateRead, simulateReadAt, type SimulateReadOptions, type SimulationTarget } from './simulate.js'
export {
  ChainError,
  ContractError,
  LedgerMissedError,
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
export { prepareWrite, sendSigned, type EnvelopeSigner, type PreparedWrite } from './signed.js'
export * from './records/index.js'
export { ConnectionError, connectionFailureReason } from './errors.js'
export { withConnectionErrors } from './connection.js'
export { lazyLatestLedger, withLazyLatestLedger } from './latestLedger.js'
export { ledgerKeyId, nativeBalance, plainAccountEntry, type LedgerReader } from './ledgerEntries.js'
export {
  DEFAULT_LEDGER_MS,
  ledgersFor,
  observedIntervalMs,
  readLedgerTime,
  readObservedCloseMs,
  readTargetCloseMs,
  scpTimingKey,
  secondsFor,
  targetCloseMsOf,
  type LedgerTime,
  type LedgerTimeReader,
  type LedgerTimeSource,
} from './ledgerTime.js'
export { cursorLedger, eventId, eventPages, LEDGER_SCAN_LIMIT, scanEndCursor, type EventPage, type EventPagingOptions, type EventsAnswer, type EventsRequest } from './events.js'
export { redactText, redactUrl, urlSecrets } from './redact.js'
export { DryRunRefusal, envelopeCall, refusesSends, refusingSends } from './dryRun.js'
