/**
 * Blend v2 lending-pool adapter: what the rest of the keeper (and the sim, the benchmarks) use.
 *
 * - adapter.ts: `lendingPoolAdapter`, the staged adapter (scan → tasks, plan, fire);
 * - factory.ts: `createLendingPoolAdapter`, the adapter built from the keeper's configuration;
 * - scan.ts: `PoolScanner`, the scan (with the incremental pool state of poolState.ts).
 */
export { lendingPoolAdapter, readerOf, PoolErrorCode, type BlendPlanData, type BlendTaskData, type LendingPoolAdapter, type LendingPoolAdapterParameters } from './adapter.js'
export { createLendingPoolAdapter } from './factory.js'
export { PoolScanner, type PoolReader, type ScanResult } from './scan.js'
export { ErrAlreadyFilled, ErrNoValidPercent, ErrUnprofitable, ErrNoPrice, ErrDecode, ErrMissingEntry, ErrBadTask, BlendAdapterError } from './errors.js'
