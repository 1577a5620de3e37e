/**
 * Adapter SDK of the keeper: the types a protocol adapter implements and the helpers it may use.
 * Published as the package entry `stellar-pooled-liquidations/keeper-sdk`.
 */
export type {
  AdapterContext,
  AdapterFactory,
  AdapterLogger,
  AdapterMetrics,
  ExecutionFee,
  FillFeeInput,
  FillSubmitOptions,
  Position,
  ProtocolAdapter,
  Result,
  Task,
  VaultClient,
} from './types.js'
export type {
  ExecutionPlan,
  FireContext,
  FireOutcome,
  PlanOutcome,
  PlanProgress,
  Stage,
  StagedAdapter,
  StepBoundary,
  WouldFill,
} from './staged.js'
export { isReplan, isSkip, isStaged } from './staged.js'
export { makeResult, returnWithFee } from './profit.js'
export { executionFee } from './fee.js'
export { clampPriority, clampTaskPriorities, sortTasksByPriority, taskPriority } from './priority.js'
